use rxt_tf::{tf, TensorF32Cpu2D, TensorI64Cpu1D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorI64Cpu1D> {
    tf!(argmax(x, axis = 1, output_type = i32))
}

fn main() {}
