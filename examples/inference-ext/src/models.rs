//! Four models whose weights come from Keras, each a `#[pyclass]` built
//! once from the Keras layers' own tensors (no copy) and run by one
//! `#[rxt_tf::inference]` method (and its `litert` twin): a transformer
//! encoder block, a small CNN, a text classifier and a perceptron.
//! `tests/python/test_models.py` builds the Keras models, hands their
//! weights over (the weight mapping is each constructor's) and compares
//! the outputs; `make bench` times them.

use pyo3::prelude::*;
use rxt_tf::ops::Scalar;
use rxt_tf::{
    tf, TensorF32Cpu1D, TensorF32Cpu2D, TensorF32Cpu3D, TensorF32Cpu4D, TensorI32Cpu2D,
    TensorI64Cpu1D,
};

/// A transformer encoder block on `[batch, seq, dim]`, as
/// `keras.layers.MultiHeadAttention` + `LayerNormalization` + two `Dense`
/// layers (GELU between) compute it: self-attention, residual and layer
/// norm, feed-forward, residual and layer norm.
#[pyclass(frozen)]
pub struct EncoderBlock {
    heads: i64,
    key_dim: i64,
    epsilon: f64,
    /// Query, key and value projections, `[dim, heads · key_dim]`.
    query: TensorF32Cpu2D,
    key: TensorF32Cpu2D,
    value: TensorF32Cpu2D,
    /// Their biases, `[heads · key_dim]`.
    query_bias: TensorF32Cpu1D,
    key_bias: TensorF32Cpu1D,
    value_bias: TensorF32Cpu1D,
    /// The output projection, `[heads · key_dim, dim]`, and its bias.
    output: TensorF32Cpu2D,
    output_bias: TensorF32Cpu1D,
    /// The two layer norms' scale (`gamma`) and offset (`beta`).
    norm1_gamma: TensorF32Cpu1D,
    norm1_beta: TensorF32Cpu1D,
    norm2_gamma: TensorF32Cpu1D,
    norm2_beta: TensorF32Cpu1D,
    /// The feed-forward layers, `[dim, ff]` and `[ff, dim]`, and biases.
    ff1: TensorF32Cpu2D,
    ff1_bias: TensorF32Cpu1D,
    ff2: TensorF32Cpu2D,
    ff2_bias: TensorF32Cpu1D,
}

/// A Keras `EinsumDense` kernel of `MultiHeadAttention` (`[dim, heads,
/// key_dim]`, or `[heads, key_dim, dim]` for the output) as a matrix.
fn merged_heads(kernel: &TensorF32Cpu3D, output: bool) -> rxt_tf::Result<TensorF32Cpu2D> {
    let shape = kernel.shape()?;
    let (rows, columns) = match output {
        false => (shape[0], shape[1] * shape[2]),
        true => (shape[0] * shape[1], shape[2]),
    };
    tf!(reshape(kernel, [rows, columns]))
}

/// A bias of `[heads, key_dim]` as a vector.
fn merged_bias(bias: &TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(reshape(bias, [-1]))
}

#[pymethods]
impl EncoderBlock {
    /// The weights of the Keras layers, as Keras shapes them:
    /// `MultiHeadAttention`'s query, key and value kernels `[dim, heads,
    /// key_dim]` and biases `[heads, key_dim]`, its output kernel `[heads,
    /// key_dim, dim]` and bias; the two `LayerNormalization`s' `gamma` and
    /// `beta`; the two `Dense` kernels and biases.
    #[new]
    #[pyo3(signature = (
        query, query_bias, key, key_bias, value, value_bias, output, output_bias,
        norm1_gamma, norm1_beta, ff1, ff1_bias, ff2, ff2_bias, norm2_gamma, norm2_beta,
        epsilon
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        query: TensorF32Cpu3D,
        query_bias: TensorF32Cpu2D,
        key: TensorF32Cpu3D,
        key_bias: TensorF32Cpu2D,
        value: TensorF32Cpu3D,
        value_bias: TensorF32Cpu2D,
        output: TensorF32Cpu3D,
        output_bias: TensorF32Cpu1D,
        norm1_gamma: TensorF32Cpu1D,
        norm1_beta: TensorF32Cpu1D,
        ff1: TensorF32Cpu2D,
        ff1_bias: TensorF32Cpu1D,
        ff2: TensorF32Cpu2D,
        ff2_bias: TensorF32Cpu1D,
        norm2_gamma: TensorF32Cpu1D,
        norm2_beta: TensorF32Cpu1D,
        epsilon: f64,
    ) -> rxt_tf::Result<Self> {
        let shape = query.shape()?;
        Ok(EncoderBlock {
            heads: shape[1],
            key_dim: shape[2],
            epsilon,
            query: merged_heads(&query, false)?,
            key: merged_heads(&key, false)?,
            value: merged_heads(&value, false)?,
            query_bias: merged_bias(&query_bias)?,
            key_bias: merged_bias(&key_bias)?,
            value_bias: merged_bias(&value_bias)?,
            output: merged_heads(&output, true)?,
            output_bias,
            norm1_gamma,
            norm1_beta,
            norm2_gamma,
            norm2_beta,
            ff1,
            ff1_bias,
            ff2,
            ff2_bias,
        })
    }

    /// The block's output for `x`, `[batch, seq, dim]`.
    #[rxt_tf::inference]
    fn __call__(&self, x: TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu3D> {
        self.forward(&x)
    }

    /// The same through the litert backend (its weights, the same tensors
    /// each call, frozen into the converted model).
    #[rxt_tf::inference(backend = "litert")]
    fn litert(&self, x: TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu3D> {
        self.forward(&x)
    }
}

impl EncoderBlock {
    /// The block's body, run in the caller's scope.
    fn forward(&self, x: &TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu3D> {
        let shape = x.shape()?;
        let (batch, seq) = (shape[0], shape[1]);
        let (heads, key_dim) = (self.heads, self.key_dim);
        // Each projection, its heads split: `[batch, heads, seq, key_dim]`.
        let split = |kernel: &TensorF32Cpu2D, bias: &TensorF32Cpu1D| {
            let projected = tf!(matmul(x, kernel))?;
            let projected = tf!(projected + bias)?;
            let heads = tf!(reshape(projected, [batch, seq, heads, key_dim]))?;
            tf!(transpose(heads, perm = [0, 2, 1, 3]))
        };
        let query = split(&self.query, &self.query_bias)?;
        let key = split(&self.key, &self.key_bias)?;
        let value = split(&self.value, &self.value_bias)?;
        #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
        let scale = Scalar((1.0 / (key_dim as f64).sqrt()) as f32);
        let query = tf!(query * scale)?;
        let scores = tf!(matmul(query, key, transpose_b = true))?;
        let weights = tf!(softmax(scores))?;
        let context = tf!(matmul(weights, value))?;
        let context = tf!(transpose(context, perm = [0, 2, 1, 3]))?;
        let context = tf!(reshape(context, [batch, seq, heads * key_dim]))?;
        let attended = tf!(matmul(context, self.output))?;
        let attended = tf!(attended + self.output_bias)?;
        let residual = tf!(x + attended)?;
        let x = self.normalized(&residual, &self.norm1_gamma, &self.norm1_beta)?;
        let hidden = tf!(matmul(x, self.ff1))?;
        let hidden = tf!(gelu(tf!(hidden + self.ff1_bias)?))?;
        let fed = tf!(matmul(hidden, self.ff2))?;
        let fed = tf!(fed + self.ff2_bias)?;
        let residual = tf!(x + fed)?;
        self.normalized(&residual, &self.norm2_gamma, &self.norm2_beta)
    }

    /// Layer normalization over the last axis.
    fn normalized(
        &self,
        x: &TensorF32Cpu3D,
        gamma: &TensorF32Cpu1D,
        beta: &TensorF32Cpu1D,
    ) -> rxt_tf::Result<TensorF32Cpu3D> {
        let (mean, variance) = tf!(moments(x, axes = [-1], keepdims = true))?;
        let epsilon = self.epsilon;
        rxt_tf::ops::batch_normalization(x, &mean, &variance, beta, gamma, epsilon)
    }
}

/// A small CNN on NHWC images, as the matching `keras.Sequential` computes
/// it: `Conv2D` (relu, same padding) → `MaxPooling2D` → `Conv2D` (relu) →
/// `AveragePooling2D` → `GlobalAveragePooling2D` → `Dense` (softmax).
#[pyclass(frozen)]
pub struct SmallCnn {
    conv1: TensorF32Cpu4D,
    conv1_bias: TensorF32Cpu1D,
    conv2: TensorF32Cpu4D,
    conv2_bias: TensorF32Cpu1D,
    dense: TensorF32Cpu2D,
    dense_bias: TensorF32Cpu1D,
}

#[pymethods]
impl SmallCnn {
    /// The `Conv2D` kernels (`[h, w, in, out]`, Keras's layout) and
    /// biases, and the `Dense` kernel and bias.
    #[new]
    fn new(
        conv1: TensorF32Cpu4D,
        conv1_bias: TensorF32Cpu1D,
        conv2: TensorF32Cpu4D,
        conv2_bias: TensorF32Cpu1D,
        dense: TensorF32Cpu2D,
        dense_bias: TensorF32Cpu1D,
    ) -> Self {
        SmallCnn {
            conv1,
            conv1_bias,
            conv2,
            conv2_bias,
            dense,
            dense_bias,
        }
    }

    /// Class probabilities of each image of `x`, `[batch, h, w, channels]`.
    #[rxt_tf::inference]
    fn __call__(&self, x: TensorF32Cpu4D) -> rxt_tf::Result<TensorF32Cpu2D> {
        self.forward(&x)
    }

    /// The same through the litert backend.
    #[rxt_tf::inference(backend = "litert")]
    fn litert(&self, x: TensorF32Cpu4D) -> rxt_tf::Result<TensorF32Cpu2D> {
        self.forward(&x)
    }
}

impl SmallCnn {
    /// The network's body, run in the caller's scope.
    fn forward(&self, x: &TensorF32Cpu4D) -> rxt_tf::Result<TensorF32Cpu2D> {
        let h = tf!(conv2d(x, self.conv1, padding = "SAME"))?;
        let h = tf!(relu(tf!(bias_add(h, self.conv1_bias))?))?;
        let h = tf!(max_pool2d(h, ksize = 2, strides = 2, padding = "VALID"))?;
        let h = tf!(conv2d(h, self.conv2, padding = "VALID"))?;
        let h = tf!(relu(tf!(bias_add(h, self.conv2_bias))?))?;
        let h = tf!(avg_pool2d(h, ksize = 2, strides = 2, padding = "VALID"))?;
        let pooled = tf!(reduce_mean(h, axis = [1, 2]))?;
        let logits = tf!(matmul(pooled, self.dense))?;
        tf!(softmax(tf!(bias_add(logits, self.dense_bias))?))
    }
}

/// A text classifier on int32 token ids (0 is padding), as Keras's
/// `Embedding(mask_zero=True)` + `GlobalAveragePooling1D` + `Dense`
/// (softmax) compute it: the mean embedding of the tokens that are not
/// padding, then the class probabilities and the most likely class.
#[pyclass(frozen)]
pub struct TextClassifier {
    table: TensorF32Cpu2D,
    dense: TensorF32Cpu2D,
    dense_bias: TensorF32Cpu1D,
}

#[pymethods]
impl TextClassifier {
    /// The `Embedding` table (`[vocab, dim]`), the `Dense` kernel and bias.
    #[new]
    fn new(table: TensorF32Cpu2D, dense: TensorF32Cpu2D, dense_bias: TensorF32Cpu1D) -> Self {
        TextClassifier {
            table,
            dense,
            dense_bias,
        }
    }

    /// The class probabilities of each row of `ids` (`[batch, seq]`) and
    /// the most likely class.
    #[rxt_tf::inference]
    fn __call__(&self, ids: TensorI32Cpu2D) -> rxt_tf::Result<(TensorF32Cpu2D, TensorI64Cpu1D)> {
        self.forward(&ids)
    }

    /// The same through the litert backend.
    #[rxt_tf::inference(backend = "litert")]
    fn litert(&self, ids: TensorI32Cpu2D) -> rxt_tf::Result<(TensorF32Cpu2D, TensorI64Cpu1D)> {
        self.forward(&ids)
    }
}

impl TextClassifier {
    /// The classifier's body, run in the caller's scope.
    fn forward(&self, ids: &TensorI32Cpu2D) -> rxt_tf::Result<(TensorF32Cpu2D, TensorI64Cpu1D)> {
        let embedded = tf!(embedding_lookup(self.table, ids))?;
        let kept = tf!(not_equal(ids, 0))?;
        let mask = tf!(expand_dims(tf!(cast(kept, f32))?, axis = 2))?;
        let masked = tf!(embedded * mask)?;
        let total = tf!(reduce_sum(masked, axis = 1))?;
        let count = tf!(reduce_sum(mask, axis = 1))?;
        let mean = tf!(total / count)?;
        let logits = tf!(matmul(mean, self.dense))?;
        let probabilities = tf!(softmax(tf!(bias_add(logits, self.dense_bias))?))?;
        let labels = tf!(argmax(probabilities, axis = 1))?;
        Ok((probabilities, labels))
    }
}

/// A perceptron on `[batch, features]`, as the matching `keras.Sequential`
/// of three `Dense` layers computes it: relu, relu, then softmax.
#[pyclass(frozen)]
pub struct Perceptron {
    layers: [(TensorF32Cpu2D, TensorF32Cpu1D); 3],
}

#[pymethods]
impl Perceptron {
    /// The three `Dense` layers' kernels (`[in, out]`) and biases, in
    /// layer order.
    #[new]
    fn new(
        kernel1: TensorF32Cpu2D,
        bias1: TensorF32Cpu1D,
        kernel2: TensorF32Cpu2D,
        bias2: TensorF32Cpu1D,
        kernel3: TensorF32Cpu2D,
        bias3: TensorF32Cpu1D,
    ) -> Self {
        Perceptron {
            layers: [(kernel1, bias1), (kernel2, bias2), (kernel3, bias3)],
        }
    }

    /// Class probabilities of each row of `x`.
    #[rxt_tf::inference]
    fn __call__(&self, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
        self.forward(&x)
    }

    /// The same through the litert backend.
    #[rxt_tf::inference(backend = "litert")]
    fn litert(&self, x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
        self.forward(&x)
    }
}

impl Perceptron {
    /// The network's body, run in the caller's scope.
    fn forward(&self, x: &TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
        let [(k1, b1), (k2, b2), (k3, b3)] = &self.layers;
        let h = tf!(relu(tf!(bias_add(tf!(matmul(x, k1))?, b1))?))?;
        let h = tf!(relu(tf!(bias_add(tf!(matmul(h, k2))?, b2))?))?;
        tf!(softmax(tf!(bias_add(tf!(matmul(h, k3))?, b3))?))
    }
}
