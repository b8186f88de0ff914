//! The entry points of every typed op call: `tf!` and the plain functions
//! of [`crate::ops`] run through [`execute`]; a composite row runs its
//! steps, any other its own op, recorded or run at once.

use rxt_tf_spec::Value;

use crate::error::Result;
use crate::ops::composite::{self, Composed};
use crate::ops::typed::{OpRow, OperandList, Output, Outputs, Signature};

/// Runs the op `Op` on `operands`, with `keywords` given in the row's
/// keyword order (omitted ones at their defaults). `Variant` carries the
/// typed keywords' values, so the result type follows from the rule.
pub fn execute<Op, Operands, Variant>(
    operands: Operands,
    keywords: &[Value],
) -> Result<Output<Op, Operands::Types, Variant>>
where
    Op: OpRow,
    Op::Rule: Signature<Op, Operands::Types, Variant>,
    Operands: OperandList,
{
    execute_given::<Op, Operands, Variant>(operands, keywords, 0)
}

/// [`execute`], the keywords in `runtime` (bit `i` for the row's keyword
/// `i`) given at run time (axes from Rust values): those that become the
/// op's inputs are inputs of a fused trace, not part of its key, so one
/// trace serves every value.
pub fn execute_given<Op, Operands, Variant>(
    operands: Operands,
    keywords: &[Value],
    runtime: u32,
) -> Result<Output<Op, Operands::Types, Variant>>
where
    Op: OpRow,
    Op::Rule: Signature<Op, Operands::Types, Variant>,
    Operands: OperandList,
{
    operands.with_inputs(|inputs| {
        if let Composed::Ran(composed) = composite::run(Op::ROW, inputs, keywords) {
            return composed;
        }
        let row = Op::ROW;
        <Output<Op, Operands::Types, Variant> as Outputs>::run_given(row, inputs, keywords, runtime)
    })
}

/// `axes` (a run-time axis list or permutation: a plain function's, or
/// Rust values in `tf!`) as a keyword value: lists are kept for the life of
/// the process, each distinct one once; at most `MAX_RANK` entries in
/// `-MAX_RANK..MAX_RANK`, so what is kept stays small and bounded. Others
/// fit no tensor: `InvalidArgumentError`, as an axis out of range is.
pub fn interned(axes: &[i64]) -> Result<Value> {
    let max = i64::from(rxt_tf_spec::MAX_RANK);
    if axes.len() > usize::from(rxt_tf_spec::MAX_RANK)
        || axes.iter().any(|a| !(-max..max).contains(a))
    {
        return Err(crate::Error::Op {
            op: "axes",
            code: crate::error::code::INVALID_ARGUMENT,
            message: format!("`{axes:?}` is not a list of at most {max} axes in -{max}..{max}"),
        });
    }
    Ok(Value::Ints(crate::eager::kept::list(axes)))
}
