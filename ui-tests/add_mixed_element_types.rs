use rxt_tf::{tf, TensorF32Cpu2D, TensorI32Cpu2D};

fn f(x: TensorF32Cpu2D, ids: TensorI32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(x + ids)
}

fn main() {}
