use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, perm: [i64; 2]) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(transpose(x, perm = perm))
}

fn main() {}
