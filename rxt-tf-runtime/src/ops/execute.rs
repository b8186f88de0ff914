//! Executing one op row: a `TFE_Op` of the row's TensorFlow op on `CPU:0`
//! of the inputs' context, its attributes and keyword values set, its inputs
//! (operands and cached constants) added in the row's order, run through
//! `TFE_Execute`. The same code runs every row.

use std::sync::Arc;

use std::ffi::CStr;

use rxt_tf_spec::{Becomes, Input as RowInput, Op, TensorKind, Value};

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::error::{Error, Result};
use crate::ops::work::{estimate, Dims};
use crate::safe::handle::OwnedHandle;
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
    let status = Status::new(context.wheel().api(), row.name)?;
    let mut dims = [Dims::default(); 2];
    for (dims, operand) in dims.iter_mut().zip(operands) {
        if let Input::Tensor(tensor, _) = operand {
            *dims = Dims::of(tensor.handle()?, &status, row.name)?;
        }
    }
    let work = estimate(row, keywords, &dims[..operands.len().min(2)]);
    let handle = run_op(context, row, keywords, work, |op| {
        for input in row.inputs {
            match *input {
                RowInput::Operand(index) => match operands.get(index) {
                    Some(Input::Tensor(tensor, _)) => op.add_input(tensor.handle()?)?,
                    Some(Input::Scalar(value)) => op.add_input(&*context.scalar(*value)?)?,
                    None => return Err(malformed(row)),
                },
                RowInput::Keyword(keyword) => {
                    op.add_input(&*keyword_constant(context, row, keywords, keyword)?)?;
                }
            }
        }
        Ok(())
    })?;
    Ok(Tensor::ready(handle, Arc::clone(context)))
}

/// Runs one `TFE_Op` of `row` on `CPU:0` of `context`: its attributes from
/// `keywords`, its inputs added by `add_inputs`, with the GIL released when
/// `work` says so. The one place an eager op is built.
pub(crate) fn run_op(
    context: &Arc<BoundContext>,
    row: &'static Op,
    keywords: &[Value],
    work: i64,
    add_inputs: impl FnOnce(&mut OwnedOp<'_>) -> Result<()>,
) -> Result<OwnedHandle> {
    let api = context.wheel().api();
    let status = Status::new(api, row.name)?;
    // SAFETY: the context lives while `context` does, which outlives the op.
    let mut op = unsafe {
        OwnedOp::new(
            api,
            context.as_ptr(),
            row.tf_op,
            CPU_DEVICE_C,
            &status,
            row.name,
        )
    }?;
    for (attr, value) in attributes(row, keywords) {
        op.set_attr(attr, value)?;
    }
    add_inputs(&mut op)?;
    op.execute(work)
}

/// The constant input the keyword `name` of `row` becomes, for its value in
/// `keywords` (made once per context).
pub(crate) fn keyword_constant(
    context: &BoundContext,
    row: &'static Op,
    keywords: &[Value],
    name: &str,
) -> Result<Arc<OwnedHandle>> {
    let index = row
        .keywords
        .iter()
        .position(|k| k.name == name)
        .ok_or_else(|| malformed(row))?;
    let Becomes::Input(dtype) = row.keywords[index].becomes else {
        return Err(malformed(row));
    };
    let value = keywords.get(index).ok_or_else(|| malformed(row))?;
    context.constant(row.name, value, dtype)
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
