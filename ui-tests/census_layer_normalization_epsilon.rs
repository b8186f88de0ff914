// Census port: tf-keras `normalization/layer_normalization.py`
// `LayerNormalization.call` (@ dd0a7237, the unfused path), written as its
// Python reads, for the second of its two blockers. Does not compile:
// `variance_epsilon=self.epsilon` is a float keyword from the layer's
// configuration, and float keywords must be literals. (The first blocker,
// axes from `self.axis`, is `census_layer_normalization.rs`; here the axis
// is written as the layer's default, `-1`.)
use rxt_tf::{tf, Float, Tensor};

struct LayerNormalization<T: Float> {
    axis: i64,
    epsilon: f64,
    gamma: Tensor<T, 1>,
    beta: Tensor<T, 1>,
}

impl<T: Float> LayerNormalization<T> {
    fn call(&self, inputs: &Tensor<T, 3>) -> rxt_tf::Result<Tensor<T, 3>> {
        let (mean, variance) = tf!(moments(inputs, axes = [-1], keepdims = true))?;
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

fn main() {
    let _ = LayerNormalization::<f32>::call;
}
