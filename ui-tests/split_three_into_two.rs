// split's count is the length of the result array: three parts here.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(a: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    let [d, _e] = tf!(split(a, 3))?;
    Ok(d)
}

fn main() {}
