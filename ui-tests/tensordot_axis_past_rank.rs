use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, w: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(tensordot(x, w, axes = [[2], [0]]))
}

fn main() {}
