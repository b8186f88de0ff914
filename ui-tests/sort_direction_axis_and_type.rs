// sort and argsort take numbers, a known direction and an axis in range.
use rxt_tf::{tf, TensorBoolCpu1D, TensorF32Cpu2D, TensorI32Cpu2D};

fn f(x: TensorF32Cpu2D, m: TensorBoolCpu1D) -> rxt_tf::Result<TensorI32Cpu2D> {
    let _ = tf!(sort(x, direction = "UP"));
    let _ = tf!(sort(x, axis = 2));
    let _ = tf!(sort(m));
    tf!(argsort(x, direction = DESCENDING))
}

fn main() {}
