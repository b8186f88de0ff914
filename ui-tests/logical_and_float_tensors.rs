// The logical ops take bool tensors only.
use rxt_tf::{tf, TensorBoolCpu2D, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D, b: TensorF32Cpu2D) -> rxt_tf::Result<TensorBoolCpu2D> {
    tf!(logical_and(a, b))
}

fn main() {}
