use rxt_tf::{tf, TensorF32Cpu3D};

fn f(x: TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu3D> {
    tf!(transpose(x, perm = [0, 2, 2]))
}

fn main() {}
