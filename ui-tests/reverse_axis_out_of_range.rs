// `reverse` takes axes of the operand's rank.
use rxt_tf::{tf, TensorI32Cpu2D};

fn f(x: TensorI32Cpu2D) -> rxt_tf::Result<TensorI32Cpu2D> {
    tf!(reverse(x, axis = [0, 2]))
}

fn main() {}
