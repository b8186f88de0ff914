use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu3D};

// Axes 1 and -2 are the same axis of a rank-3 tensor.
fn f(x: TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(reduce_sum(x, axis = [1, -2]))
}

fn main() {}
