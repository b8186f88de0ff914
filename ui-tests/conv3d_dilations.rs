// TensorFlow's CPU `Conv3D` takes no dilation: `conv3d` has no such keyword.
use rxt_tf::{tf, TensorF32Cpu5D};

fn f(x: TensorF32Cpu5D, w: TensorF32Cpu5D) -> rxt_tf::Result<TensorF32Cpu5D> {
    tf!(conv3d(x, w, padding = "SAME", dilations = 2))
}

fn main() {}
