use rxt_tf::{tf, TensorF32Cpu2D, TensorF32Cpu3D};

fn f(x: TensorF32Cpu3D, w: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(tensordot(x, w, axes = [[1, 2], [0]]))
}

fn main() {}
