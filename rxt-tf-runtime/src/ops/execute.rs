//! Executing one op row: a `TFE_Op` of the row's TensorFlow op on `CPU:0`
//! of the inputs' context, its attributes and keyword values set, its inputs
//! (operands and cached constants) added in the row's order, run through
//! `TFE_Execute`. The same code runs every row.

use std::sync::Arc;

use std::ffi::CStr;

use rxt_tf_spec::{Becomes, Input as RowInput, Op, TensorKind, Value, Work};

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::error::{Error, Result};
use crate::safe::op::OwnedOp;
use crate::safe::status::Status;
use crate::tensor::Tensor;

/// One operand as an op input.
pub enum Input<'a> {
    /// A tensor, with the rank its type gives it.
    Tensor(&'a Tensor, u8),
    /// A float32 scalar (a float literal of `tf!`).
    Scalar(f32),
}

impl Input<'_> {
    /// The tensor, unless the input is a scalar.
    pub(crate) fn tensor(&self) -> Option<&Tensor> {
        match self {
            Input::Tensor(tensor, _) => Some(tensor),
            Input::Scalar(_) => None,
        }
    }
}

/// Runs `row` on `operands` with `keywords` (one value per row keyword, in
/// order) and returns its single output, of `kind`. Inside a fusing scope
/// the op is recorded instead and its output is pending (see
/// [`crate::fused`]).
pub(crate) fn run_row(
    row: &'static Op,
    operands: &[Input<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Result<Tensor> {
    if let Some(recorded) = crate::fused::record(row, operands, keywords, kind) {
        return recorded;
    }
    let context = shared_context(row, operands)?;
    check_keywords(row, keywords)?;
    // The calling thread may be one the boundary never saw (a spawned
    // thread, a detached section): its executor is checked here.
    context.ensure_synchronous()?;
    if needs_last_axis_swap(row, operands, keywords)? {
        // The op works on the last axis only: move the requested one there
        // and back, as TensorFlow's Python layer does (same kernels).
        let tensor = operands
            .first()
            .and_then(Input::tensor)
            .ok_or_else(|| malformed(row))?;
        let swapped = swap_axes(tensor)?;
        let output = execute(row, context, &[Input::Tensor(&swapped, 2)], keywords)?;
        return swap_axes(&output);
    }
    execute(row, context, operands, keywords)
}

/// Whether `row` has a [`Becomes::LastAxis`] keyword naming an axis other
/// than the last of its first operand (which must then be rank 2).
pub(crate) fn needs_last_axis_swap(
    row: &'static Op,
    operands: &[Input<'_>],
    keywords: &[Value],
) -> Result<bool> {
    let Some(index) = row
        .keywords
        .iter()
        .position(|k| k.becomes == Becomes::LastAxis)
    else {
        return Ok(false);
    };
    let Some(Value::Int(axis)) = keywords.get(index) else {
        return Err(malformed(row));
    };
    let Some(Input::Tensor(_, rank)) = operands.first() else {
        return Err(malformed(row));
    };
    let rank = i64::from(*rank);
    let normalized = if *axis < 0 { axis + rank } else { *axis };
    match (rank, normalized) {
        (_, last) if last == rank - 1 => Ok(false),
        (2, 0) => Ok(true),
        _ => Err(Error::Keyword {
            op: row.name,
            message: format!("`axis = {axis}` is out of range for a rank-{rank} tensor"),
        }),
    }
}

/// `tensor` (rank 2) with its axes swapped, by the `transpose` row.
fn swap_axes(tensor: &Tensor) -> Result<Tensor> {
    const PERM: &[Value] = &[Value::Ints(&[1, 0])];
    execute(
        &rxt_tf_spec::ops::TRANSPOSE,
        &tensor.context,
        &[Input::Tensor(tensor, 2)],
        PERM,
    )
}

/// Builds and runs one `TFE_Op` of `row` (keywords already checked).
fn execute(
    row: &'static Op,
    context: &Arc<BoundContext>,
    operands: &[Input<'_>],
    keywords: &[Value],
) -> Result<Tensor> {
    let name = row.name;
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
    for (attr, value) in attributes(row, keywords) {
        op.set_attr(attr, value)?;
    }
    for input in row.inputs {
        match *input {
            RowInput::Operand(index) => match operands.get(index) {
                Some(Input::Tensor(tensor, _)) => op.add_input(tensor.handle()?)?,
                Some(Input::Scalar(value)) => {
                    let scalar = context.scalar(*value)?;
                    op.add_input(&scalar)?;
                }
                None => return Err(malformed(row)),
            },
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
    let work = estimated_work(row, operands, keywords, &status)?;
    let handle = op.execute(work)?;
    Ok(Tensor::ready(handle, Arc::clone(context)))
}

/// The attributes of `row` with `keywords`: its fixed ones, then those its
/// keywords become.
pub(crate) fn attributes<'a>(
    row: &'static Op,
    keywords: &'a [Value],
) -> impl Iterator<Item = (&'static CStr, &'a Value)> {
    let fixed = row.attrs.iter().map(|attr| (attr.name, &attr.value));
    let keyword = row
        .keywords
        .iter()
        .zip(keywords)
        .filter_map(|(keyword, value)| match keyword.becomes {
            Becomes::Attr(attr) => Some((attr, value)),
            _ => None,
        });
    fixed.chain(keyword)
}

/// The context of the operands' tensors, which must all share it.
pub(crate) fn shared_context<'a>(
    row: &Op,
    operands: &'a [Input<'_>],
) -> Result<&'a Arc<BoundContext>> {
    let mut tensors = operands.iter().filter_map(Input::tensor);
    let first = tensors.next().ok_or_else(|| malformed(row))?;
    if tensors.any(|tensor| !Arc::ptr_eq(&tensor.context, &first.context)) {
        return Err(Error::MixedContexts { op: row.name });
    }
    Ok(&first.context)
}

/// Every keyword value present and accepted (`tf!` checked them at compile
/// time; the plain functions of [`crate::ops`] take them at run time).
pub(crate) fn check_keywords(row: &'static Op, keywords: &[Value]) -> Result<()> {
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
pub(crate) fn malformed(row: &Op) -> Error {
    Error::Op {
        op: row.name,
        code: 13, // INTERNAL
        message: String::from("the call does not match the op's row"),
    }
}

/// The work the operands ask of an op, in the units of
/// [`RELEASE_WORK`](crate::python::gil::RELEASE_WORK).
fn estimated_work(
    row: &'static Op,
    operands: &[Input<'_>],
    keywords: &[Value],
    status: &Status,
) -> Result<i64> {
    let op = row.name;
    let elements = |index: usize| match operands.get(index).and_then(Input::tensor) {
        Some(tensor) => tensor.handle()?.num_elements(status, op),
        None => Ok(1),
    };
    Ok(match row.work {
        Work::MatMul => {
            // Multiply-adds: elements of `a` × columns of the product, which
            // are `b`'s rows when `transpose_b` is set.
            let flag = |name: &str| {
                let index = row.keywords.iter().position(|k| k.name == name);
                matches!(index.and_then(|i| keywords.get(i)), Some(Value::Bool(true)))
            };
            let columns = match operands.get(1).and_then(Input::tensor) {
                Some(b) => b
                    .handle()?
                    .dim(if flag("transpose_b") { 0 } else { 1 }, status, op)?,
                None => 0,
            };
            elements(0)?.saturating_mul(columns)
        }
        Work::FirstInput => elements(0)?,
        Work::LargerInput => elements(0)?.max(elements(1)?),
    })
}
