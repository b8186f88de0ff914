use rxt_tf::{tf, TensorF32Cpu1D};

type Out = TensorF32Cpu1D;

#[rxt_tf::inference]
fn f(x: TensorF32Cpu1D) -> Out {
    tf!(relu(x)).unwrap()
}

fn main() {}
