use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(h: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(reduce_sum(h, axis = 2))
}

fn main() {}
