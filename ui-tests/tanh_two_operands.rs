use rxt_tf::{tf, TensorF32Cpu1D};

fn f(a: TensorF32Cpu1D, b: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(tanh(a, b))
}

fn main() {}
