//! `sort` and `argsort`, as `tf.sort` and `tf.argsort` run them.

use rxt_tf_spec::ops::{NEG, SUB, TOP_K};
use rxt_tf_spec::{DType, Op, TensorKind, Value};

use crate::eager::{malformed, PlannedOp};
use crate::error::Result;
use crate::ops::record_or_run::{run_row, run_row_many_swapped, Number, Operand};
use crate::ops::typed::Outputs;
use crate::tensor::Untyped;

use super::step;

/// `sort` and `argsort` as `tf.sort` and `tf.argsort` run them: `TopKV2`
/// of the whole axis (moved last and back by a transpose), on `-x` when
/// ascending (`-x - 1` for integers, so the least integer stays in range),
/// negated back for the values. `TopKV2` gives two outputs, so it runs as
/// its own call in a fusing scope: the steps around it run per op too.
pub(super) fn sort<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let [x @ Operand::Tensor(tensor, kind)] = inputs else {
        return Err(malformed(row));
    };
    // Checks the direction and the axis against the rank; gives the swap.
    let call = PlannedOp::plan(row, inputs, keywords)?;
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
        Some(negated(row, tensor, *kind, integer)?)
    } else {
        None
    };
    let keys = keys
        .as_ref()
        .map_or(*x, |keys| Operand::Tensor(keys, *kind));
    let indices_kind = TensorKind {
        dtype: DType::I32,
        rank: kind.rank,
    };
    // The axis moved last and both outputs moved back, as every op on the
    // last axis only runs.
    let mut outputs = run_row_many_swapped(
        step(row, &TOP_K),
        &[keys],
        &[Value::Int(length), Value::Bool(true)],
        &[*kind, indices_kind],
        call.swap,
    )?
    .into_iter();
    let (values, indices) = (outputs.next(), outputs.next());
    let argsort = row.result_type == Some(DType::I32);
    let picked = match (argsort, values, indices) {
        (true, _, Some(indices)) => indices,
        (false, Some(values), _) => values,
        _ => return Err(malformed(row)),
    };
    let result = if ascending && !argsort {
        negated(row, &picked, *kind, integer)?
    } else {
        picked
    };
    O::from_cores(row, vec![result])
}

/// `-x`, or `-x - 1` for integers, as `tf.sort` flips the order.
fn negated(row: &'static Op, x: &Untyped, kind: TensorKind, integer: bool) -> Result<Untyped> {
    let negative = run_row(step(row, &NEG), &[Operand::Tensor(x, kind)], &[], kind)?;
    if !integer {
        return Ok(negative);
    }
    let one = Operand::Literal(Number::Int(1));
    run_row(
        step(row, &SUB),
        &[Operand::Tensor(&negative, kind), one],
        &[],
        kind,
    )
}
