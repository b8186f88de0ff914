use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

// keepdims = true keeps the rank: the result is a TensorF32Cpu2D.
fn f(h: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(reduce_mean(h, axis = 1, keepdims = true))
}

fn main() {}
