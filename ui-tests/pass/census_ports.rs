// Real layers written with `tf!` as their Python reads: configuration as
// fields read when the op runs (`axis = self.axis`), `mask=None` as
// `Option`, `self.compute_dtype` as a type parameter, `self.epsilon` as a
// float read when the op runs, a convolution's strides and padding from
// its fields. Twelve of the fourteen census ports compile; the other two
// are the `census_*.rs` cases beside `pass/`, each failing for the reason
// its `.stderr` records. Four more layers follow, written after run-time
// floats, sizes and texts came: LeakyReLU, MaxPooling2D, Cropping2D and
// BatchNormalization's fused inference.
//
// Sources: keras-team/tf-keras @ dd0a7237b9b24132dba3f491f3c84b0094ab796e
// (`tf_keras/layers/...`), tf-models-official 2.19.1 (`official/nlp/
// modeling/layers/...`), tensorflow/docs @ f957ee6185e5b2135da5c3d3f8ba0c429794ebe1
// (`site/en/tutorials/text/transformer.ipynb`).
use rxt_tf::ops::Scalar;
use rxt_tf::{f16, tf, DType, Float, Tensor};

type R<T> = rxt_tf::Result<T>;

/// `core/dense.py` `Dense.call`: a rank-3 input takes the `tensordot` path.
struct Dense<T: Float> {
    kernel: Tensor<T, 2>,
    bias: Option<Tensor<T, 1>>,
}

impl<T: Float> Dense<T> {
    fn call(&self, inputs: &Tensor<T, 3>) -> R<Tensor<T, 3>> {
        let mut outputs = tf!(tensordot(inputs, self.kernel, [[2], [0]]))?;
        if let Some(bias) = &self.bias {
            outputs = tf!(bias_add(outputs, bias))?;
        }
        tf!(relu(outputs))
    }
}

/// `core/einsum_dense.py` `EinsumDense.call` (`"abc,cd->abd"`).
struct EinsumDense<T: Float> {
    kernel: Tensor<T, 2>,
    bias: Option<Tensor<T, 1>>,
}

impl<T: Float> EinsumDense<T> {
    fn call(&self, inputs: &Tensor<T, 3>) -> R<Tensor<T, 3>> {
        let ret = tf!(einsum("abc,cd->abd", inputs, self.kernel))?;
        match &self.bias {
            Some(bias) => tf!(ret + bias),
            None => Ok(ret),
        }
    }
}

/// `pooling/global_average_pooling1d.py` `GlobalAveragePooling1D.call`.
struct GlobalAveragePooling1D {
    steps_axis: i64,
}

impl GlobalAveragePooling1D {
    fn call<T: Float>(&self, inputs: &Tensor<T, 3>, mask: Option<&Tensor<bool, 2>>) -> R<Tensor<T, 2>> {
        match mask {
            Some(mask) => {
                let mask: Tensor<T, 2> = tf!(cast(mask, T))?;
                let mask = tf!(expand_dims(mask, axis = 2))?;
                let inputs = tf!(inputs * mask)?;
                let total = tf!(reduce_sum(inputs, axis = self.steps_axis))?;
                tf!(total / tf!(reduce_sum(mask, axis = self.steps_axis))?)
            }
            None => tf!(reduce_mean(inputs, axis = self.steps_axis)),
        }
    }
}

/// `normalization/unit_normalization.py` `UnitNormalization.call`.
struct UnitNormalization {
    axis: i64,
}

impl UnitNormalization {
    fn call<T: Float>(&self, inputs: &Tensor<T, 2>) -> R<Tensor<T, 2>> {
        tf!(l2_normalize(inputs, axis = self.axis))
    }
}

/// `normalization/layer_normalization.py` `LayerNormalization.call`, the
/// unfused path.
struct LayerNormalization<T: Float> {
    axis: i64,
    epsilon: f64,
    gamma: Tensor<T, 1>,
    beta: Tensor<T, 1>,
}

impl<T: Float> LayerNormalization<T> {
    fn call(&self, inputs: &Tensor<T, 3>) -> R<Tensor<T, 3>> {
        let (mean, variance) = tf!(moments(inputs, axes = [self.axis], keepdims = true))?;
        tf!(batch_normalization(
            inputs,
            mean,
            variance,
            self.beta,
            self.gamma,
            variance_epsilon = self.epsilon
        ))
    }
}

/// `convolutional/base_conv.py` `Conv.call` and `convolution_op` for
/// `Conv2D` (`padding=self.padding.upper()`: the field holds it upper-case).
struct Conv2D<T: Float> {
    kernel: Tensor<T, 4>,
    bias: Option<Tensor<T, 1>>,
    strides: [i64; 2],
    padding: String,
    dilation_rate: [i64; 2],
}

impl<T: Float> Conv2D<T> {
    fn call(&self, inputs: &Tensor<T, 4>) -> R<Tensor<T, 4>> {
        let (s, d) = (self.strides, self.dilation_rate);
        let outputs = tf!(conv2d(
            inputs,
            self.kernel,
            strides = [s[0], s[1]],
            padding = self.padding,
            dilations = [d[0], d[1]]
        ))?;
        let outputs = match &self.bias {
            Some(bias) => tf!(bias_add(outputs, bias))?,
            None => outputs,
        };
        tf!(relu(outputs))
    }
}

/// `activation/leaky_relu.py` `LeakyReLU.call` (`backend.relu(inputs,
/// alpha=self.alpha)` runs `tf.nn.leaky_relu` for a non-zero `alpha`).
struct LeakyReLU {
    alpha: f32,
}

impl LeakyReLU {
    fn call<T: Float>(&self, inputs: &Tensor<T, 4>) -> R<Tensor<T, 4>> {
        tf!(leaky_relu(inputs, alpha = self.alpha))
    }
}

/// `pooling/base_pooling2d.py` `Pooling2D.call` for `MaxPooling2D`,
/// channels last. Python passes `(1,) + self.pool_size + (1,)`; `tf!`'s
/// `ksize` and `strides` are the pair itself.
struct MaxPooling2D {
    pool_size: [i64; 2],
    strides: [i64; 2],
    padding: String,
}

impl MaxPooling2D {
    fn call<T: Float>(&self, inputs: &Tensor<T, 4>) -> R<Tensor<T, 4>> {
        let (p, s) = (self.pool_size, self.strides);
        tf!(max_pool2d(
            inputs,
            ksize = [p[0], p[1]],
            strides = [s[0], s[1]],
            padding = self.padding.to_uppercase()
        ))
    }
}

/// `reshaping/cropping2d.py` `Cropping2D.call`, channels last, both ends
/// cropped.
struct Cropping2D {
    cropping: [[i64; 2]; 2],
}

impl Cropping2D {
    fn call<T: Float>(&self, inputs: &Tensor<T, 4>) -> R<Tensor<T, 4>> {
        let c = self.cropping;
        tf!(inputs[:, c[0][0]:-c[0][1], c[1][0]:-c[1][1], :])
    }
}

/// `normalization/batch_normalization.py` `_fused_batch_norm` at inference
/// (`tf.compat.v1.nn.fused_batch_norm(..., epsilon=self.epsilon,
/// is_training=False)`), channels last.
struct BatchNormalization {
    epsilon: f64,
    gamma: Tensor<f32, 1>,
    beta: Tensor<f32, 1>,
    moving_mean: Tensor<f32, 1>,
    moving_variance: Tensor<f32, 1>,
}

impl BatchNormalization {
    fn call(&self, inputs: &Tensor<f32, 4>) -> R<Tensor<f32, 4>> {
        tf!(fused_batch_norm(
            inputs,
            self.gamma,
            self.beta,
            self.moving_mean,
            self.moving_variance,
            epsilon = self.epsilon
        ))
    }
}

/// `activation/softmax.py` `_large_compatible_negative`.
fn large_compatible_negative<T: Float>() -> Scalar<T> {
    if T::DTYPE == DType::F16 {
        Scalar::<T>::from_f64(f64::from(f16::MIN) / 2.0)
    } else {
        Scalar::<T>::from_f64(-1e9)
    }
}

/// `activation/softmax.py` `Softmax.call` (`robust_masking=False`), at the
/// two ranks it is used at: one function per rank.
struct Softmax {
    axis: i64,
}

impl Softmax {
    fn call<T: Float>(&self, inputs: &Tensor<T, 3>, mask: Option<&Tensor<bool, 3>>) -> R<Tensor<T, 3>> {
        let inputs = match mask {
            Some(mask) => {
                let mask: Tensor<T, 3> = tf!(cast(mask, T))?;
                let adder = tf!(tf!(1.0 - mask)? * large_compatible_negative::<T>())?;
                tf!(inputs + adder)?
            }
            None => inputs.try_clone()?,
        };
        tf!(softmax(inputs, axis = self.axis))
    }

    fn call_rank4<T: Float>(&self, inputs: &Tensor<T, 4>, mask: Option<&Tensor<bool, 4>>) -> R<Tensor<T, 4>> {
        let inputs = match mask {
            Some(mask) => {
                let mask: Tensor<T, 4> = tf!(cast(mask, T))?;
                let adder = tf!(tf!(1.0 - mask)? * large_compatible_negative::<T>())?;
                tf!(inputs + adder)?
            }
            None => inputs.try_clone()?,
        };
        tf!(softmax(inputs, axis = self.axis))
    }
}

/// `attention/multi_head_attention.py` `MultiHeadAttention._compute_attention`
/// and `_masked_softmax` (`attention_axes=(1,)`, dropout 0).
struct MultiHeadAttention {
    key_dim: usize,
    mask_expansion_axis: i64,
    softmax: Softmax,
}

impl MultiHeadAttention {
    fn compute_attention<T: Float>(
        &self,
        query: &Tensor<T, 4>,
        key: &Tensor<T, 4>,
        value: &Tensor<T, 4>,
        attention_mask: Option<&Tensor<bool, 3>>,
    ) -> R<(Tensor<T, 4>, Tensor<T, 4>)> {
        let scale = Scalar::<T>::from_f64(1.0 / (self.key_dim as f64).sqrt());
        let query = tf!(query * scale)?;
        let attention_scores = tf!(einsum("aecd,abcd->acbe", key, query))?;
        let attention_mask = match attention_mask {
            Some(mask) => Some(tf!(expand_dims(mask, axis = self.mask_expansion_axis))?),
            None => None,
        };
        let attention_scores = self.softmax.call_rank4(&attention_scores, attention_mask.as_ref())?;
        let attention_output = tf!(einsum("acbe,aecd->abcd", attention_scores, value))?;
        Ok((attention_output, attention_scores))
    }
}

/// `attention/attention.py` `Attention._calculate_scores` (`score_mode="dot"`)
/// and `attention/base_dense_attention.py` `BaseDenseAttention._apply_scores`.
struct Attention<T: Float> {
    scale: Option<Tensor<T, 0>>,
}

impl<T: Float> Attention<T> {
    fn calculate_scores(&self, query: &Tensor<T, 3>, key: &Tensor<T, 3>) -> R<Tensor<T, 3>> {
        let scores = tf!(matmul(query, key, transpose_b = true))?;
        match &self.scale {
            Some(scale) => tf!(scores * scale),
            None => Ok(scores),
        }
    }

    fn apply_scores(
        &self,
        scores: &Tensor<T, 3>,
        value: &Tensor<T, 3>,
        scores_mask: Option<&Tensor<bool, 3>>,
    ) -> R<(Tensor<T, 3>, Tensor<T, 3>)> {
        let scores = match scores_mask {
            Some(scores_mask) => {
                let padding_mask: Tensor<T, 3> = tf!(cast(tf!(logical_not(scores_mask))?, T))?;
                let bias = if T::DTYPE == DType::F16 { 65504.0 } else { 1.0e9 };
                tf!(scores - tf!(padding_mask * Scalar::<T>::from_f64(bias))?)?
            }
            None => scores.try_clone()?,
        };
        let weights = tf!(softmax(scores, axis = -1))?;
        Ok((tf!(matmul(weights, value))?, weights))
    }
}

/// Model Garden `position_embedding.py` `PositionEmbedding.call`
/// (`seq_axis=1`).
struct PositionEmbedding<T: Float> {
    position_embeddings: Tensor<T, 2>,
}

impl<T: Float> PositionEmbedding<T> {
    fn call(&self, inputs: &Tensor<T, 3>) -> R<Tensor<T, 3>> {
        let input_shape = inputs.shape()?;
        let actual_seq_len = input_shape[1];
        let table = &self.position_embeddings;
        let position_embeddings = tf!(table[:actual_seq_len, :])?;
        let width = position_embeddings.shape()?[1];
        let position_embeddings = tf!(reshape(position_embeddings, [1, actual_seq_len, width]))?;
        tf!(broadcast_to(position_embeddings, [input_shape[0], input_shape[1], input_shape[2]]))
    }
}

/// Model Garden `on_device_embedding.py` `OnDeviceEmbedding.call`
/// (`use_one_hot=False`).
struct OnDeviceEmbedding<T: Float> {
    embeddings: Tensor<T, 2>,
    embedding_width: i64,
    scale_factor: Option<f64>,
}

impl<T: Float> OnDeviceEmbedding<T> {
    fn call(&self, inputs: &Tensor<i32, 2>) -> R<Tensor<T, 3>> {
        let flat_inputs = tf!(reshape(inputs, [-1]))?;
        let embeddings = tf!(gather(self.embeddings, flat_inputs))?;
        let shape = inputs.shape()?;
        let embeddings = tf!(reshape(embeddings, [shape[0], shape[1], self.embedding_width]))?;
        match self.scale_factor {
            Some(scale) => tf!(embeddings * Scalar::<T>::from_f64(scale)),
            None => Ok(embeddings),
        }
    }
}

/// The Transformer tutorial's `scaled_dot_product_attention`.
fn scaled_dot_product_attention(
    q: &Tensor<f32, 4>,
    k: &Tensor<f32, 4>,
    v: &Tensor<f32, 4>,
    mask: Option<&Tensor<f32, 4>>,
) -> R<(Tensor<f32, 4>, Tensor<f32, 4>)> {
    let matmul_qk = tf!(matmul(q, k, transpose_b = true))?;
    let dk: Tensor<f32, 0> = tf!(cast(tf!(tf!(shape(k))?[-1])?, f32))?;
    let mut scaled_attention_logits = tf!(matmul_qk / tf!(sqrt(dk))?)?;
    if let Some(mask) = mask {
        scaled_attention_logits = tf!(scaled_attention_logits + tf!(mask * -1e9)?)?;
    }
    let attention_weights = tf!(softmax(scaled_attention_logits, axis = -1))?;
    let output = tf!(matmul(attention_weights, v))?;
    Ok((output, attention_weights))
}

fn main() {
    let _ = (
        Dense::<f32>::call,
        EinsumDense::<rxt_tf::bf16>::call,
        GlobalAveragePooling1D::call::<f16>,
        UnitNormalization::call::<f64>,
        LayerNormalization::<rxt_tf::bf16>::call,
        Conv2D::<f32>::call,
        LeakyReLU::call::<rxt_tf::bf16>,
        MaxPooling2D::call::<f32>,
        Cropping2D::call::<f64>,
        BatchNormalization::call,
        Softmax::call::<f32>,
        MultiHeadAttention::compute_attention::<rxt_tf::bf16>,
        Attention::<f16>::calculate_scores,
        Attention::<f32>::apply_scores,
        PositionEmbedding::<f32>::call,
        OnDeviceEmbedding::<f64>::call,
        scaled_dot_product_attention,
    );
}
