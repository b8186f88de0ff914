// Census port: tf-keras `convolutional/base_conv.py` `Conv.call` and
// `convolution_op` (@ dd0a7237) for `Conv2D`. Does not compile:
// `strides=list(self.strides)` comes from the layer's configuration, and
// `conv2d` takes its strides only as literals. `padding=self.padding.upper()`
// and `dilations=list(self.dilation_rate)` are refused the same way, so
// here they are written as the layer's defaults, `"VALID"` and `[1, 1]`.
use rxt_tf::{tf, Float, Tensor};

struct Conv2D<T: Float> {
    kernel: Tensor<T, 4>,
    bias: Option<Tensor<T, 1>>,
    strides: [i64; 2],
    padding: &'static str,
    dilation_rate: [i64; 2],
}

impl<T: Float> Conv2D<T> {
    fn call(&self, inputs: &Tensor<T, 4>) -> rxt_tf::Result<Tensor<T, 4>> {
        let s = self.strides;
        let outputs = tf!(conv2d(
            inputs,
            self.kernel,
            strides = [s[0], s[1]],
            padding = "VALID",
            dilations = [1, 1]
        ))?;
        let outputs = match &self.bias {
            Some(bias) => tf!(bias_add(outputs, bias))?,
            None => outputs,
        };
        tf!(relu(outputs))
    }
}

fn main() {
    let _ = Conv2D::<f32>::call;
}
