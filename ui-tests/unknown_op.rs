use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: &TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(atan(x))
}

fn main() {}
