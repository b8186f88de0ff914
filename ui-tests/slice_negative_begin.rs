// slice's begins are not negative.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(slice(x, [-1, 0], [1, 1]))
}

fn main() {}
