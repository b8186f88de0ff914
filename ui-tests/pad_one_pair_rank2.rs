// pad takes one pair per axis.
use rxt_tf::{tf, TensorF32Cpu2D};

fn f(x: TensorF32Cpu2D) -> rxt_tf::Result<TensorF32Cpu2D> {
    tf!(pad(x, [[1, 1]]))
}

fn main() {}
