// Census port: tf-keras `reshaping/up_sampling2d.py` `UpSampling2D.call`
// through `backend.resize_images` (@ dd0a7237), NHWC, nearest. Does not
// compile: `tf.image.resize` is not an op of the table.
use rxt_tf::{tf, Float, Tensor};

struct UpSampling2D {
    size: [i64; 2],
}

impl UpSampling2D {
    fn call<T: Float>(&self, inputs: &Tensor<T, 4>) -> rxt_tf::Result<Tensor<T, 4>> {
        let s = inputs.shape()?;
        let new_shape = [s[1] * self.size[0], s[2] * self.size[1]];
        tf!(resize(inputs, [new_shape[0], new_shape[1]], method = "nearest"))
    }
}

fn main() {
    let _ = UpSampling2D::call::<f32>;
}
