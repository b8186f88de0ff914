// The number of parts is a literal: it is the length of the result array.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D, n: usize) -> rxt_tf::Result<TensorF32Cpu2D> {
    let [a, _b, _c] = tf!(split(x, n, axis = 1))?;
    let [_d, _e] = tf!(split(a, 3))?;
    Ok(a)
}

fn main() {}
