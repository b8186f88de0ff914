// `max_pool3d` has no float64 kernel: code generic over every float type
// cannot call it.
use rxt_tf::{tf, Float, Tensor};

fn f<T: Float>(x: &Tensor<T, 5>) -> rxt_tf::Result<Tensor<T, 5>> {
    tf!(max_pool3d(x, ksize = 2, strides = 2, padding = "SAME"))
}

fn main() {}
