use rxt_tf::{tf, TensorF32Cpu3D, TensorI64Cpu2D};

fn f(a: TensorF32Cpu3D, b: TensorI64Cpu2D) -> rxt_tf::Result<TensorF32Cpu3D> {
    tf!(matmul(a, b))
}

fn main() {}
