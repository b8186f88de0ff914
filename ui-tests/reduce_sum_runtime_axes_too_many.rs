use rxt_tf::{tf, TensorF32Cpu0D, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, a: i64, b: i64, c: i64) -> rxt_tf::Result<TensorF32Cpu0D> {
    tf!(reduce_sum(x, axis = [a, b, c]))
}

fn main() {}
