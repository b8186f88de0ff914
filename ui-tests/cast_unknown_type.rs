// `cast` converts to an element type of rxt-tf only.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(cast(x, u8))
}

fn main() {}
