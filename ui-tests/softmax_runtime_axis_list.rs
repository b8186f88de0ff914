use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, a: i64, b: i64) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(softmax(x, axis = [a, b]))
}

fn main() {}
