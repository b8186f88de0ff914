// `tf.range` ranges in float32 when a Python float is beside a half-type
// operand, where a `tf!` literal takes its operands' type: no half range.
use rxt_tf::{bf16, ops::Scalar, tf, TensorBf16Cpu1D};

fn f(start: bf16) -> rxt_tf::Result<TensorBf16Cpu1D> {
    tf!(range(Scalar(start), 8.0, 1.0))
}

fn main() {}
