use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu3D};

fn f(x: TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(reduce_sum(x, axis = [0, 0]))
}

fn main() {}
