use rxt_tf::{tf, TensorF32Cpu2D};

fn f(h: TensorF32Cpu2D, keep: bool) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(reduce_max(h, axis = 0, keepdims = keep))
}

fn main() {}
