// Census port: tf-keras `normalization/layer_normalization.py`
// `LayerNormalization.call` (@ dd0a7237, the unfused path), written as its
// Python reads. Does not compile: `tf.nn.moments(inputs, self.axis, ...)`
// takes its axes from the layer's configuration, and `moments` (like the
// other composite reductions) takes only literal axes. The layer's
// `variance_epsilon=self.epsilon` is refused too (a float keyword must be
// a literal; `census_layer_normalization_epsilon.rs` shows that error), so
// here it is written as the layer's default.
use rxt_tf::{tf, Float, Tensor};

struct LayerNormalization<T: Float> {
    axis: i64,
    epsilon: f64,
    gamma: Tensor<T, 1>,
    beta: Tensor<T, 1>,
}

impl<T: Float> LayerNormalization<T> {
    fn call(&self, inputs: &Tensor<T, 3>) -> rxt_tf::Result<Tensor<T, 3>> {
        let (mean, variance) = tf!(moments(inputs, axes = [self.axis], keepdims = true))?;
        tf!(batch_normalization(
            inputs,
            mean,
            variance,
            self.beta,
            self.gamma,
            variance_epsilon = 1e-3
        ))
    }
}

fn main() {
    let _ = LayerNormalization::<f32>::call;
}
