use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

#[rxt_tf::inference]
fn f(x: TensorF32Cpu2D) -> TensorF32Cpu2D {
    x
}

fn main() {}
