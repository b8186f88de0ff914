// concat takes its tensors as a bracketed list.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(concat(a, axis = 0))
}

fn main() {}
