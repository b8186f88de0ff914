use rxt_tf::{tf, TensorF32Cpu1D};

fn f(x: TensorF32Cpu1D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(softmax(x, axis = 1))
}

fn main() {}
