// conv2d takes a rank-4 NHWC image and rank-4 filters, a literal padding
// ("SAME" or "VALID") and positive strides.
use rxt_tf::{tf, TensorF32Cpu3D, TensorF32Cpu4D};

fn f(
    x: TensorF32Cpu4D,
    k: TensorF32Cpu4D,
    s: TensorF32Cpu3D,
    same: &'static str,
) -> rxt_tf::Result<TensorF32Cpu4D> {
    let _ = tf!(conv2d(s, k, padding = "SAME"));
    let _ = tf!(conv2d(x, k, padding = same));
    let _ = tf!(conv2d(x, k, padding = "FULL"));
    let _ = tf!(conv2d(x, k, strides = 0, padding = "SAME"));
    let _ = tf!(max_pool2d(x, ksize = [2, 2, 2], strides = 1, padding = "SAME"));
    tf!(conv2d(x, k))
}

fn main() {}
