use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu1D> {
    tf!(argmax(x, axis = 1, output_type = f32))
}

fn main() {}
