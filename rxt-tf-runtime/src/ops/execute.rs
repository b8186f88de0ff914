//! Executing one op row: a `TFE_Op` of the row's TensorFlow op on `CPU:0`
//! of the inputs' context, its attributes and keyword values set, its inputs
//! (operands and cached constants) added in the row's order, run through
//! `TFE_Execute`. The same code runs every row.

use std::sync::Arc;

use rxt_tf_spec::{Becomes, Input as RowInput, Op, Value, Work};

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::error::{Error, Result};
use crate::safe::op::OwnedOp;
use crate::safe::status::Status;
use crate::tensor::Tensor;

/// One operand as an op input.
pub enum Input<'a> {
    /// A tensor.
    Tensor(&'a Tensor),
}

impl Input<'_> {
    fn tensor(&self) -> &Tensor {
        match self {
            Input::Tensor(tensor) => tensor,
        }
    }
}

/// Runs `row` on `operands` with `keywords` (one value per row keyword, in
/// order) and returns its single output.
pub(crate) fn run_row(
    row: &'static Op,
    operands: &[Input<'_>],
    keywords: &[Value],
) -> Result<Tensor> {
    let name = row.name;
    let context = shared_context(row, operands)?;
    check_keywords(row, keywords)?;
    let api = context.wheel().api();
    let status = Status::new(api, name)?;
    // SAFETY: the context lives while `context` does, which outlives the op.
    let mut op = unsafe {
        OwnedOp::new(
            api,
            context.as_ptr(),
            row.tf_op,
            CPU_DEVICE_C,
            &status,
            name,
        )
    }?;
    for attr in row.attrs {
        op.set_attr(attr.name, &attr.value)?;
    }
    for (keyword, value) in row.keywords.iter().zip(keywords) {
        if let Becomes::Attr(attr) = keyword.becomes {
            op.set_attr(attr, value)?;
        }
    }
    for input in row.inputs {
        match *input {
            RowInput::Operand(index) => {
                let operand = operands.get(index).ok_or_else(|| malformed(row))?;
                op.add_input(&operand.tensor().handle)?;
            }
            RowInput::Keyword(keyword) => {
                let index = row
                    .keywords
                    .iter()
                    .position(|k| k.name == keyword)
                    .ok_or_else(|| malformed(row))?;
                let Becomes::Input(dtype) = row.keywords[index].becomes else {
                    return Err(malformed(row));
                };
                let constant = context.constant(name, &keywords[index], dtype)?;
                op.add_input(&constant)?;
            }
        }
    }
    let work = estimated_work(row.work, operands, &status, name)?;
    let handle = op.execute(work)?;
    Ok(Tensor {
        handle,
        context: Arc::clone(context),
    })
}

/// The context of the operands' tensors, which must all share it.
fn shared_context<'a>(row: &Op, operands: &'a [Input<'_>]) -> Result<&'a Arc<BoundContext>> {
    let mut tensors = operands.iter().map(Input::tensor);
    let first = tensors.next().ok_or_else(|| malformed(row))?;
    if tensors.any(|tensor| !Arc::ptr_eq(&tensor.context, &first.context)) {
        return Err(Error::MixedContexts { op: row.name });
    }
    Ok(&first.context)
}

/// Every keyword value present and accepted (`tf!` checked them at compile
/// time; the plain functions of [`crate::ops`] take them at run time).
fn check_keywords(row: &'static Op, keywords: &[Value]) -> Result<()> {
    if keywords.len() != row.keywords.len() {
        return Err(malformed(row));
    }
    for (keyword, value) in row.keywords.iter().zip(keywords) {
        if !keyword.accepts(value) {
            return Err(Error::Keyword {
                op: row.name,
                message: format!(
                    "`{} = {}` is not supported; `{}` must be {}",
                    keyword.name,
                    value.rust(),
                    keyword.name,
                    keyword.allowed_text()
                ),
            });
        }
    }
    Ok(())
}

/// The error for a call that does not fit its row (a defect, not user input).
fn malformed(row: &Op) -> Error {
    Error::Op {
        op: row.name,
        code: 13, // INTERNAL
        message: String::from("the call does not match the op's row"),
    }
}

/// The work the operands ask of an op, in the units of
/// [`RELEASE_WORK`](crate::python::gil::RELEASE_WORK).
fn estimated_work(
    work: Work,
    operands: &[Input<'_>],
    status: &Status,
    op: &'static str,
) -> Result<i64> {
    let elements = |index: usize| match operands.get(index) {
        Some(input) => input.tensor().handle.num_elements(status, op),
        None => Ok(0),
    };
    Ok(match work {
        Work::MatMul => {
            let columns = match operands.get(1) {
                Some(b) => b.tensor().handle.dim(1, status, op)?,
                None => 0,
            };
            elements(0)?.saturating_mul(columns)
        }
        Work::FirstInput => elements(0)?,
        Work::LargerInput => elements(0)?.max(elements(1)?),
    })
}
