//! The dispatcher of one op call: inside a fusing scope the call is recorded
//! (see [`crate::fused`]); otherwise it is planned, built and run at once.

use rxt_tf_spec::{Op, TensorKind, Value};

use crate::eager::at_once;
use crate::error::Result;
use crate::fused::Recorded;
use crate::tensor::Untyped;

pub(crate) use crate::eager::Operand;
pub(crate) use crate::safe::host::Number;

/// Runs `row` on `operands` with `keywords` (one value per row keyword, in
/// order) and returns its single output, of `kind`. Inside a fusing scope
/// the op is recorded instead and its output is pending.
pub(crate) fn run_row(
    row: &'static Op,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Result<Untyped> {
    run_row_given(row, operands, keywords, kind, 0)
}

/// [`run_row`], the keywords in `runtime` (bit `i` for keyword `i`) given
/// at run time: inputs of a fused trace, not part of its key.
pub(crate) fn run_row_given(
    row: &'static Op,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kind: TensorKind,
    runtime: u32,
) -> Result<Untyped> {
    if let Recorded::Pending(recorded) =
        crate::fused::record(row, operands, keywords, kind, runtime)
    {
        return recorded;
    }
    // Run at once, the op takes every keyword's value as an input alike.
    let (context, call) = crate::eager::plan(row, operands, keywords)?;
    // The calling thread may be one the boundary never saw (a spawned
    // thread, a detached section): its executor is checked here.
    context.ensure_synchronous()?;
    at_once::run(&context, &call, operands, keywords, kind)
}

/// Runs `row`, an op of several outputs, on `operands` with `keywords`, and
/// returns its outputs, of `kinds`. It is not recorded in a fusing scope:
/// it runs as its own TensorFlow call (a pending operand runs first, with
/// the calls recorded before it).
pub(crate) fn run_row_many(
    row: &'static Op,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kinds: &[TensorKind],
) -> Result<Vec<Untyped>> {
    run_row_many_swapped(row, operands, keywords, kinds, None)
}

/// [`run_row_many`] with the axis of its first operand moved by `swap`
/// (the permutation of the call it is a step of: `sort`'s) and each output
/// moved back, as a one-output op's axis is.
pub(crate) fn run_row_many_swapped(
    row: &'static Op,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kinds: &[TensorKind],
    swap: Option<&'static [i64]>,
) -> Result<Vec<Untyped>> {
    let (context, mut call) = crate::eager::plan(row, operands, keywords)?;
    call.swap = swap.or(call.swap);
    context.ensure_synchronous()?;
    at_once::run_many(&context, &call, operands, keywords, kinds)
}
