// clip_by_value's bounds take the tensor's element type.
use rxt_tf::{tf, TensorI32Cpu2D};

fn f(ids: TensorI32Cpu2D) -> rxt_tf::Result<TensorI32Cpu2D> {
    tf!(clip_by_value(ids, 0.5, 2))
}

fn main() {}
