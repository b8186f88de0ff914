use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D, b: TensorF32Cpu2D, flip: bool) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(matmul(a, b, transpose_b = flip))
}

fn main() {}
