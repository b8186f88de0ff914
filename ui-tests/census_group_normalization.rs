// Census port: tf-keras `normalization/group_normalization.py`
// `GroupNormalization.call`, `_reshape_into_groups` and
// `_apply_normalization` (@ dd0a7237), NHWC with `axis=-1`. Does not
// compile: `tf.nn.weighted_moments` (the mask as frequency weights) is not
// an op of the table.
use rxt_tf::{tf, Float, Tensor};

struct GroupNormalization<T: Float> {
    groups: i64,
    epsilon: f64,
    gamma: Tensor<T, 1>,
    beta: Tensor<T, 1>,
}

impl<T: Float> GroupNormalization<T> {
    fn call(&self, inputs: &Tensor<T, 4>, mask: Option<&Tensor<T, 4>>) -> rxt_tf::Result<Tensor<T, 4>> {
        let s = inputs.shape()?;
        let mask = match mask {
            Some(mask) => tf!(broadcast_to(mask, [s[0], s[1], s[2], s[3]]))?,
            None => tf!(ones_like(inputs))?,
        };
        let per_group = s[3] / self.groups;
        let reshaped_inputs = tf!(reshape(inputs, [s[0], s[1], s[2], self.groups, per_group]))?;
        let reshaped_mask = tf!(reshape(mask, [s[0], s[1], s[2], self.groups, per_group]))?;
        let (mean, variance) = tf!(weighted_moments(
            reshaped_inputs,
            axes = [1, 2, 4],
            frequency_weights = reshaped_mask,
            keepdims = true
        ))?;
        let gamma = tf!(reshape(self.gamma, [1, 1, 1, self.groups, per_group]))?;
        let beta = tf!(reshape(self.beta, [1, 1, 1, self.groups, per_group]))?;
        let normalized = tf!(batch_normalization(
            reshaped_inputs,
            mean,
            variance,
            beta,
            gamma,
            variance_epsilon = self.epsilon
        ))?;
        tf!(reshape(normalized, [s[0], s[1], s[2], s[3]]))
    }
}

fn main() {
    let _ = GroupNormalization::<f32>::call;
}
