//! Ops of the table that run as several TensorFlow ops, composed as
//! TensorFlow's Python layer composes them, so results are bitwise eager's.
//! Here: the dispatch by [`Steps`], `clip_by_value`, `eye` and the 1-D ops
//! run as 2-D ones; in the modules, `sort` and `argsort`, `tensordot`, the
//! activations, the statistics and `einsum` of three operands.

mod activations;
mod contract;
mod einsum;
mod sort;
mod statistics;

use activations::{gelu, hard_sigmoid, silu};
use contract::contract;
use einsum::einsum;
use sort::sort;
use statistics::{
    batch_normalization, fused_batch_norm, l2_normalize, log_sum_exp, moments, std, variance,
};

use rxt_tf_spec::ops::{EXPAND_DIMS, EYE_DIAGONAL, MATRIX_DIAG, MAXIMUM, MINIMUM, SQUEEZE};
use rxt_tf_spec::{DType, Op, Steps, TensorKind, Value, ValueKind};

use crate::eager::{kept, malformed};
use crate::error::Result;
use crate::ops::record_or_run::{run_row, Number, Operand};
use crate::ops::typed::Outputs;

/// What [`run`] did with a row.
pub(crate) enum Composed<O> {
    /// The row is composed of several TensorFlow ops: their result.
    Ran(Result<O>),
    /// The row is one TensorFlow op: the caller runs it.
    OneOp,
}

/// Runs `row` if it is composed of several TensorFlow ops.
pub(crate) fn run<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Composed<O> {
    let ran = match row.steps {
        Steps::One => return Composed::OneOp,
        Steps::Clip => clip(row, inputs),
        Steps::Sort => sort(row, inputs, keywords),
        Steps::Eye => eye(row, inputs, keywords),
        Steps::Gelu => gelu(row, inputs, keywords),
        Steps::Silu => silu(row, inputs),
        Steps::HardSigmoid => hard_sigmoid(row, inputs),
        Steps::Moments => moments(row, inputs, keywords),
        Steps::Variance => variance(row, inputs, keywords),
        Steps::Std => std(row, inputs, keywords),
        Steps::LogSumExp => log_sum_exp(row, inputs, keywords),
        Steps::L2Normalize => l2_normalize(row, inputs, keywords),
        Steps::Widened(wide) => widened(row, wide, inputs, keywords),
        Steps::BatchNormalization => batch_normalization(row, inputs, keywords),
        Steps::Einsum => einsum(row, inputs, keywords),
        Steps::Contract => contract(row, inputs, keywords),
        Steps::FusedBatchNorm => fused_batch_norm(row, inputs, keywords),
    };
    Composed::Ran(ran)
}

/// `op`, a step of the composite `row`, under `row`'s name: its errors,
/// per op and from a fused body, name the op called (`conv1d`, not the
/// `conv2d` it runs). Each (row, step) pair is made once and kept.
pub(super) fn step(row: &'static Op, op: &'static Op) -> &'static Op {
    use std::sync::Mutex;
    type Steps = Vec<((usize, usize), &'static Op)>;
    static KNOWN: Mutex<Steps> = Mutex::new(Vec::new());
    if op.name == row.called() {
        return op;
    }
    let key = (
        std::ptr::from_ref(row) as usize,
        std::ptr::from_ref(op) as usize,
    );
    let mut known = KNOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, found)) = known.iter().find(|(k, _)| *k == key) {
        return found;
    }
    let named: &'static Op = Box::leak(Box::new(Op {
        name: row.called(),
        ..*op
    }));
    known.push((key, named));
    named
}

/// `clip_by_value` as `tf.clip_by_value` runs it: `minimum(x, hi)`, then
/// `maximum(…, lo)` (a `ClipByValue` kernel differs from it on NaN bounds
/// and on the sign of zero). Both ops are recorded in a fusing scope.
fn clip<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>]) -> Result<O> {
    let [x @ Operand::Tensor(_, kind), lo, hi] = inputs else {
        return Err(malformed(row));
    };
    let below = run_row(step(row, &MINIMUM), &[*x, *hi], &[], *kind)?;
    let clipped = [Operand::Tensor(&below, *kind), *lo];
    O::run(step(row, &MAXIMUM), &clipped, &[])
}

/// `eye(n)` as `tf.eye(n)` makes it: `n` ones of the element type on the
/// diagonal of `MatrixDiagV3`. Both ops are recorded in a fusing scope.
fn eye<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
    let ([Operand::Scalar(_, Number::Int(size))], [dtype @ Value::Type(element)]) =
        (inputs, keywords)
    else {
        return Err(malformed(row));
    };
    let diagonal_kind = TensorKind {
        dtype: *element,
        rank: 1,
    };
    let sizes = [*size];
    let diagonal = run_row(
        step(row, &EYE_DIAGONAL),
        &[Operand::Dims(&sizes)],
        &[*dtype, Value::Int(1)],
        diagonal_kind,
    )?;
    let defaults = [Value::Int(0), Value::Int(-1), Value::Int(-1), Value::Int(0)];
    O::run(
        step(row, &MATRIX_DIAG),
        &[Operand::Tensor(&diagonal, diagonal_kind)],
        &defaults,
    )
}

/// A 1-D op (`conv1d`, `max_pool1d`) as TensorFlow runs it: the NWC input
/// widened to height 1 (`expand_dims` at axis 1; filters at axis 0), the
/// 2-D row `wide` with each size `s` as `[1, s]`, the height squeezed out.
fn widened<O: Outputs>(
    row: &'static Op,
    wide: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let Some(Operand::Tensor(_, kind)) = inputs.first() else {
        return Err(malformed(row));
    };
    let wide_kind = TensorKind {
        rank: kind.rank + 1,
        ..*kind
    };
    // The image at axis 1 (`-3` in `tf.nn.conv1d`: the same axis), the
    // filters at axis 0.
    let mut widened = Vec::with_capacity(inputs.len());
    for (input, axis) in inputs.iter().zip([1, 0]) {
        widened.push(run_row(
            step(row, &EXPAND_DIMS),
            &[*input],
            &[Value::Int(axis)],
            wide_kind,
        )?);
    }
    let wide_inputs: Vec<Operand<'_>> = widened
        .iter()
        .map(|tensor| Operand::Tensor(tensor, wide_kind))
        .collect();
    if wide_inputs.len() != wide.arity() || keywords.len() != wide.keywords.len() {
        return Err(malformed(row));
    }
    let wide_keywords: Vec<Value> = keywords
        .iter()
        .zip(wide.keywords)
        .map(|(value, keyword)| match (keyword.kind, value) {
            (ValueKind::Spatial, Value::Int(size)) => Value::Ints(kept::list(&[1, *size])),
            _ => *value,
        })
        .collect();
    let result = run_row(step(row, wide), &wide_inputs, &wide_keywords, wide_kind)?;
    O::run(
        step(row, &SQUEEZE),
        &[Operand::Tensor(&result, wide_kind)],
        &[Value::Int(1)],
    )
}

/// The single tensor operand of `row` and its kind.
pub(super) fn tensor_operand<'a>(
    row: &'static Op,
    inputs: &[Operand<'a>],
) -> Result<(Operand<'a>, TensorKind)> {
    match inputs {
        [x @ Operand::Tensor(_, kind)] => Ok((*x, *kind)),
        _ => Err(malformed(row)),
    }
}

/// A constant as `math_ops.cast(c, dtype)` makes it from a Python float:
/// a float32 first, then cast (so a float64 holds the float32's value).
pub(super) fn cast_constant(value: f64, dtype: DType) -> Operand<'static> {
    #[allow(clippy::cast_possible_truncation)]
    let single = f64::from(value as f32);
    Operand::Scalar(dtype, Number::Float(single))
}

/// A Python float beside a tensor: it takes the tensor's type.
pub(super) fn literal(value: f64) -> Operand<'static> {
    Operand::Literal(Number::Float(value))
}
