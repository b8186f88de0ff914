// The number of parts is a literal: it is the length of the result array.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, n: usize) -> rxt_tf::Result<[TensorF32Cpu2D; 3]> {
    tf!(split(x, n, axis = 1))
}

fn main() {}
