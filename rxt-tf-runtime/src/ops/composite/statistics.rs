//! The statistics TensorFlow composes: `moments`, `reduce_variance`,
//! `reduce_std`, `reduce_logsumexp`, `l2_normalize`, `batch_normalization`,
//! and `fused_batch_norm`'s one kernel of six outputs.

use rxt_tf_spec::ops::{
    ADD, CAST, EXP, IS_FINITE, LOG, MAXIMUM, MUL, REDUCE_MAX, REDUCE_MEAN, REDUCE_SUM, RSQRT, SQRT,
    SQUARE, SQUARED_DIFFERENCE, SQUEEZE, SUB, WHERE,
};
use rxt_tf_spec::{DType, Op, TensorKind, Value};

use crate::eager::malformed;
use crate::error::Result;
use crate::ops::record_or_run::{run_row, run_row_many, Number, Operand};
use crate::ops::typed::Outputs;
use crate::tensor::Untyped;

use super::{literal, step, tensor_operand};

/// The axes keyword (first) and `keepdims` (second) of a reduction-like
/// row, and the number of axes.
fn axes_and_keepdims(row: &'static Op, keywords: &[Value]) -> Result<(Value, bool, u8)> {
    let (Some(axes), Some(Value::Bool(keepdims))) = (keywords.first(), keywords.get(1)) else {
        return Err(malformed(row));
    };
    Ok((*axes, *keepdims, axes_count(row, axes)?))
}

/// The number of axes an axes value names (one axis, or a list).
fn axes_count(row: &'static Op, axes: &Value) -> Result<u8> {
    match axes {
        Value::Int(_) => Ok(1),
        Value::Ints(axes) => u8::try_from(axes.len()).map_err(|_| malformed(row)),
        _ => Err(malformed(row)),
    }
}

/// `kind` with `count` axes reduced, unless they are kept.
fn reduced(kind: TensorKind, count: u8, keepdims: bool) -> TensorKind {
    let rank = match keepdims {
        true => kind.rank,
        false => kind.rank.saturating_sub(count),
    };
    TensorKind { rank, ..kind }
}

/// A reduction row (`Mean`, `Sum`, `Max`) of `x` (of `kind`) over `axes`.
fn reduce(
    op: &'static Op,
    x: Operand<'_>,
    axes: Value,
    keepdims: bool,
    kind: TensorKind,
    count: u8,
) -> Result<Untyped> {
    let keywords = [axes, Value::Bool(keepdims)];
    run_row(op, &[x], &keywords, reduced(kind, count, keepdims))
}

/// `t` (of `kind`, the reduced axes kept) without those `axes`.
fn squeezed(
    row: &'static Op,
    t: &Untyped,
    axes: Value,
    kind: TensorKind,
    count: u8,
) -> Result<Untyped> {
    let result = reduced(kind, count, false);
    run_row(
        step(row, &SQUEEZE),
        &[Operand::Tensor(t, kind)],
        &[axes],
        result,
    )
}

/// `tf.nn.moments(x, axes, keepdims)`: `mean = reduce_mean(x, axes, True)`,
/// `variance = reduce_mean(squared_difference(x, mean), axes, True)`,
/// squeezed unless `keepdims` (`tf.nn.moments`' `stop_gradient`, an
/// identity in inference, is left out). A float16 `x` is computed in
/// float32 and both results cast back, as `tf.nn.moments` does (float16's
/// range is too narrow for its statistics; bfloat16 stays as it is).
pub(super) fn moments<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (x, given) = tensor_operand(row, inputs)?;
    let (axes, keepdims, count) = axes_and_keepdims(row, keywords)?;
    let widened = match given.dtype {
        DType::F16 => Some(cast(row, x, given, DType::F32)?),
        _ => None,
    };
    let (x, kind) = match &widened {
        Some(wide) => {
            let kind = TensorKind {
                dtype: DType::F32,
                ..given
            };
            (Operand::Tensor(wide, kind), kind)
        }
        None => (x, given),
    };
    let mean = reduce(step(row, &REDUCE_MEAN), x, axes, true, kind, count)?;
    let pair = [x, Operand::Tensor(&mean, kind)];
    let deviations = run_row(step(row, &SQUARED_DIFFERENCE), &pair, &[], kind)?;
    let deviations = Operand::Tensor(&deviations, kind);
    let variance = reduce(step(row, &REDUCE_MEAN), deviations, axes, true, kind, count)?;
    let (mean, variance) = if keepdims {
        (mean, variance)
    } else {
        (
            squeezed(row, &mean, axes, kind, count)?,
            squeezed(row, &variance, axes, kind, count)?,
        )
    };
    if kind.dtype == given.dtype {
        return O::from_cores(row, vec![mean, variance]);
    }
    let result = reduced(kind, count, keepdims);
    let narrow = |t: &Untyped| cast(row, Operand::Tensor(t, result), result, given.dtype);
    O::from_cores(row, vec![narrow(&mean)?, narrow(&variance)?])
}

/// `x` (of `kind`) converted to `dtype`, as `math_ops.cast`.
fn cast(row: &'static Op, x: Operand<'_>, kind: TensorKind, dtype: DType) -> Result<Untyped> {
    let result = TensorKind { dtype, ..kind };
    run_row(step(row, &CAST), &[x], &[Value::Type(dtype)], result)
}

/// `tf.math.reduce_variance`: `reduce_mean(square(x - reduce_mean(x, axis,
/// True)), axis, keepdims)`; the result and its kind.
fn variance_of(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<(Untyped, TensorKind)> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let (axes, keepdims, count) = axes_and_keepdims(row, keywords)?;
    let mean = reduce(step(row, &REDUCE_MEAN), x, axes, true, kind, count)?;
    let deviation = run_row(
        step(row, &SUB),
        &[x, Operand::Tensor(&mean, kind)],
        &[],
        kind,
    )?;
    let squared = run_row(
        step(row, &SQUARE),
        &[Operand::Tensor(&deviation, kind)],
        &[],
        kind,
    )?;
    let squared = Operand::Tensor(&squared, kind);
    let variance = reduce(
        step(row, &REDUCE_MEAN),
        squared,
        axes,
        keepdims,
        kind,
        count,
    )?;
    Ok((variance, reduced(kind, count, keepdims)))
}

/// `reduce_variance`, as [`variance_of`].
pub(super) fn variance<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (variance, _) = variance_of(row, inputs, keywords)?;
    O::from_cores(row, vec![variance])
}

/// `tf.math.reduce_std`: `sqrt(reduce_variance(x, axis, keepdims))`.
pub(super) fn std<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (variance, kind) = variance_of(row, inputs, keywords)?;
    O::run(step(row, &SQRT), &[Operand::Tensor(&variance, kind)], &[])
}

/// `tf.math.reduce_logsumexp`: the maximum (kept dims) where finite, else
/// 0, taken out; `log(reduce_sum(exp(x - max), axis, keepdims))`; the
/// maximum added back (squeezed unless `keepdims`, where TensorFlow
/// reshapes it to the same shape).
pub(super) fn log_sum_exp<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let (axes, keepdims, count) = axes_and_keepdims(row, keywords)?;
    let raw_max = reduce(step(row, &REDUCE_MAX), x, axes, true, kind, count)?;
    let raw_max = Operand::Tensor(&raw_max, kind);
    let flags = TensorKind {
        dtype: DType::Bool,
        ..kind
    };
    let finite = run_row(step(row, &IS_FINITE), &[raw_max], &[], flags)?;
    let zero = Operand::Literal(Number::Int(0));
    let choice = [Operand::Tensor(&finite, flags), raw_max, zero];
    let max = run_row(step(row, &WHERE), &choice, &[], kind)?;
    let shifted = run_row(
        step(row, &SUB),
        &[x, Operand::Tensor(&max, kind)],
        &[],
        kind,
    )?;
    let exp = run_row(
        step(row, &EXP),
        &[Operand::Tensor(&shifted, kind)],
        &[],
        kind,
    )?;
    let exp = Operand::Tensor(&exp, kind);
    let sum = reduce(step(row, &REDUCE_SUM), exp, axes, keepdims, kind, count)?;
    let result = reduced(kind, count, keepdims);
    let log = run_row(
        step(row, &LOG),
        &[Operand::Tensor(&sum, result)],
        &[],
        result,
    )?;
    let max = match keepdims {
        true => max,
        false => squeezed(row, &max, axes, kind, count)?,
    };
    let parts = [Operand::Tensor(&log, result), Operand::Tensor(&max, result)];
    O::run(step(row, &ADD), &parts, &[])
}

/// `tf.math.l2_normalize(x, axis, epsilon)`: `x * rsqrt(maximum(
/// reduce_sum(square(x), axis, True), epsilon))`.
pub(super) fn l2_normalize<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let [axes, Value::Float(epsilon)] = keywords else {
        return Err(malformed(row));
    };
    let count = axes_count(row, axes)?;
    let squared = run_row(step(row, &SQUARE), &[x], &[], kind)?;
    let squared = Operand::Tensor(&squared, kind);
    let sum = reduce(step(row, &REDUCE_SUM), squared, *axes, true, kind, count)?;
    let floor = [Operand::Tensor(&sum, kind), literal(*epsilon)];
    let floor = run_row(step(row, &MAXIMUM), &floor, &[], kind)?;
    let inverse = run_row(
        step(row, &RSQRT),
        &[Operand::Tensor(&floor, kind)],
        &[],
        kind,
    )?;
    O::run(step(row, &MUL), &[x, Operand::Tensor(&inverse, kind)], &[])
}

/// The kind of a broadcasting op's result on operands of `a` and `b`.
fn broadcast(a: TensorKind, b: TensorKind) -> TensorKind {
    TensorKind {
        rank: a.rank.max(b.rank),
        ..a
    }
}

/// `tf.nn.batch_normalization(x, mean, variance, offset, scale, epsilon)`:
/// `inv = rsqrt(variance + epsilon) * scale`, then `x * inv + (offset -
/// mean * inv)` (the casts there are of a type to itself: no op).
pub(super) fn batch_normalization<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (
        [x @ Operand::Tensor(_, x_kind), mean @ Operand::Tensor(_, mean_kind), variance @ Operand::Tensor(_, variance_kind), offset @ Operand::Tensor(_, offset_kind), scale @ Operand::Tensor(_, scale_kind)],
        [Value::Float(epsilon)],
    ) = (inputs, keywords)
    else {
        return Err(malformed(row));
    };
    let apply = |op: &'static Op, a: Operand<'_>, b: Operand<'_>, kind: TensorKind| {
        run_row(step(row, op), &[a, b], &[], kind)
    };
    let shifted = apply(&ADD, *variance, literal(*epsilon), *variance_kind)?;
    let inverse = run_row(
        step(row, &RSQRT),
        &[Operand::Tensor(&shifted, *variance_kind)],
        &[],
        *variance_kind,
    )?;
    let inverse_kind = broadcast(*variance_kind, *scale_kind);
    let inverse = apply(
        &MUL,
        Operand::Tensor(&inverse, *variance_kind),
        *scale,
        inverse_kind,
    )?;
    let inverse = Operand::Tensor(&inverse, inverse_kind);
    let scaled = apply(&MUL, *x, inverse, broadcast(*x_kind, inverse_kind))?;
    let centre_kind = broadcast(*mean_kind, inverse_kind);
    let centre = apply(&MUL, *mean, inverse, centre_kind)?;
    let shift_kind = broadcast(*offset_kind, centre_kind);
    let shift = apply(
        &SUB,
        *offset,
        Operand::Tensor(&centre, centre_kind),
        shift_kind,
    )?;
    let scaled_kind = broadcast(*x_kind, inverse_kind);
    O::run(
        step(row, &ADD),
        &[
            Operand::Tensor(&scaled, scaled_kind),
            Operand::Tensor(&shift, shift_kind),
        ],
        &[],
    )
}

/// `fused_batch_norm` as `tf.compat.v1.nn.fused_batch_norm(...,
/// is_training=False)` runs it: one `FusedBatchNormV3`, whose first output
/// is the result (the others pass the statistics through and reserve
/// space). The op has six outputs, so it runs as its own call in a fusing
/// scope.
pub(super) fn fused_batch_norm<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let [Operand::Tensor(_, kind), ..] = inputs else {
        return Err(malformed(row));
    };
    let _per_op = crate::fused::Scope::per_op();
    let statistic = TensorKind {
        dtype: DType::F32,
        rank: 1,
    };
    let reserved = TensorKind {
        dtype: DType::F32,
        rank: 0,
    };
    let kinds = [*kind, statistic, statistic, statistic, statistic, reserved];
    let outputs = run_row_many(row, inputs, keywords, &kinds)?;
    let result = outputs.into_iter().next().ok_or_else(|| malformed(row))?;
    O::from_cores(row, vec![result])
}
