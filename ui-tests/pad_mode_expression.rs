// pad's mode picks the TensorFlow op (`PadV2` or `MirrorPad`): a literal,
// where padding and direction texts may be Rust values.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, mode: &str) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(pad(x, [[1, 1], [0, 2]], mode = mode))
}

fn main() {}
