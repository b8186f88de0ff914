use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D, s: f32) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(a + s)
}

fn main() {}
