use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D, b: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(a % b)
}

fn main() {}
