use rxt_tf::{tf, TensorF32Cpu3D, TensorF32Cpu4D};

fn f(x: TensorF32Cpu3D, w: TensorF32Cpu3D) -> rxt_tf::Result<TensorF32Cpu4D> {
    tf!(tensordot(x, w, axes = 0))
}

fn main() {}
