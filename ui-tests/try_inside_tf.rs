// A `?` belongs after `tf!(...)`, not inside it.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(reciprocal(x)?)
}

fn main() {}
