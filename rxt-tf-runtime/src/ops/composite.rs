//! Ops of the table that run as several TensorFlow ops, composed as
//! TensorFlow's Python layer composes them, so results are bitwise eager's:
//! `clip_by_value`, `sort` and `argsort`, `eye`.

use rxt_tf_spec::ops::{EYE_DIAGONAL, MATRIX_DIAG, MAXIMUM, MINIMUM, NEG, SUB, TOP_K, TRANSPOSE};
use rxt_tf_spec::{DType, Op, Rule, TensorKind, Value};

use crate::eager::{malformed, Call};
use crate::error::Result;
use crate::ops::dispatch::Outputs;
use crate::ops::execute::{run_row, run_row_many, Input, Number};
use crate::tensor::Untyped;

/// Runs `row` if its rule is composite (`None` otherwise: one TensorFlow
/// op runs it).
pub(crate) fn run<O: Outputs>(
    row: &'static Op,
    inputs: &[Input<'_>],
    keywords: &[Value],
) -> Option<Result<O>> {
    match row.rule {
        Rule::Clip => Some(clip(row, inputs)),
        Rule::Sort => Some(sort(row, inputs, keywords)),
        Rule::Eye => Some(eye(row, inputs, keywords)),
        _ => None,
    }
}

/// `clip_by_value` as `tf.clip_by_value` runs it: `minimum(x, hi)`, then
/// `maximum(…, lo)` (a `ClipByValue` kernel differs from it on NaN bounds
/// and on the sign of zero). Both ops are recorded in a fusing scope.
fn clip<O: Outputs>(row: &'static Op, inputs: &[Input<'_>]) -> Result<O> {
    let [x @ Input::Tensor(_, kind), lo, hi] = inputs else {
        return Err(malformed(row));
    };
    let below = run_row(&MINIMUM, &[*x, *hi], &[], *kind)?;
    let clipped = [Input::Tensor(&below, *kind), *lo];
    O::run(&MAXIMUM, &clipped, &[])
}

/// `sort` and `argsort` as `tf.sort` and `tf.argsort` run them: `TopKV2`
/// of the whole axis (moved last and back by a transpose), on `-x` when
/// ascending (`-x - 1` for integers, so the least integer stays in range),
/// negated back for the values. `TopKV2` gives two outputs, so it runs as
/// its own call in a fusing scope: the steps around it run per op too.
fn sort<O: Outputs>(row: &'static Op, inputs: &[Input<'_>], keywords: &[Value]) -> Result<O> {
    let [x @ Input::Tensor(tensor, kind)] = inputs else {
        return Err(malformed(row));
    };
    // Checks the direction and the axis against the rank; gives the swap.
    let call = Call::plan(row, inputs, keywords)?;
    let (Some(Value::Int(axis)), Some(Value::Str(direction))) = (keywords.first(), keywords.get(1))
    else {
        return Err(malformed(row));
    };
    let _per_op = crate::fused::Scope::per_op();
    let rank = usize::from(kind.rank);
    let axis = if *axis < 0 {
        *axis + i64::from(kind.rank)
    } else {
        *axis
    };
    let length = usize::try_from(axis)
        .ok()
        .and_then(|axis| tensor.shape(rank).ok()?.get(axis).copied())
        .ok_or_else(|| malformed(row))?;
    let ascending = *direction == "ASCENDING";
    let integer = matches!(kind.dtype, DType::I32 | DType::I64);
    let keys = if ascending {
        Some(negated(tensor, *kind, integer)?)
    } else {
        None
    };
    let keys = keys.as_ref().map_or(*x, |keys| Input::Tensor(keys, *kind));
    let swap = |input: Input<'_>, kind: TensorKind| match call.swap {
        Some(perm) => run_row(&TRANSPOSE, &[input], &[Value::Ints(perm)], kind).map(Some),
        None => Ok(None),
    };
    let moved = swap(keys, *kind)?;
    let moved = moved
        .as_ref()
        .map_or(keys, |moved| Input::Tensor(moved, *kind));
    let indices_kind = TensorKind {
        dtype: DType::I32,
        rank: kind.rank,
    };
    let mut outputs = run_row_many(
        &TOP_K,
        &[moved],
        &[Value::Int(length), Value::Bool(true)],
        &[*kind, indices_kind],
    )?
    .into_iter();
    let (values, indices) = (outputs.next(), outputs.next());
    let argsort = row.result_type == Some(DType::I32);
    let (picked, picked_kind) = match (argsort, values, indices) {
        (true, _, Some(indices)) => (indices, indices_kind),
        (false, Some(values), _) => (values, *kind),
        _ => return Err(malformed(row)),
    };
    let picked = match swap(Input::Tensor(&picked, picked_kind), picked_kind)? {
        Some(back) => back,
        None => picked,
    };
    let result = if ascending && !argsort {
        negated(&picked, *kind, integer)?
    } else {
        picked
    };
    O::from_cores(row, vec![result])
}

/// `-x`, or `-x - 1` for integers, as `tf.sort` flips the order.
fn negated(x: &Untyped, kind: TensorKind, integer: bool) -> Result<Untyped> {
    let negative = run_row(&NEG, &[Input::Tensor(x, kind)], &[], kind)?;
    if !integer {
        return Ok(negative);
    }
    let one = Input::Literal(Number::Int(1));
    run_row(&SUB, &[Input::Tensor(&negative, kind), one], &[], kind)
}

/// `eye(n)` as `tf.eye(n)` makes it: `n` ones of the element type on the
/// diagonal of `MatrixDiagV3`. Both ops are recorded in a fusing scope.
fn eye<O: Outputs>(row: &'static Op, inputs: &[Input<'_>], keywords: &[Value]) -> Result<O> {
    let ([Input::Scalar(_, Number::Int(size))], [dtype @ Value::Type(element)]) =
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
        &EYE_DIAGONAL,
        &[Input::Dims(&sizes)],
        &[*dtype, Value::Int(1)],
        diagonal_kind,
    )?;
    let defaults = [Value::Int(0), Value::Int(-1), Value::Int(-1), Value::Int(0)];
    O::run(
        &MATRIX_DIAG,
        &[Input::Tensor(&diagonal, diagonal_kind)],
        &defaults,
    )
}
