use rxt_tf::{tf, TensorF32Cpu2D};

fn f() -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(1.0 + 2.0)
}

fn main() {}
