//! Running planned calls as eager ops: one `TFE_Op` each, on `CPU:0` of the
//! operands' context, attributes before inputs, through `TFE_Execute`.

use std::sync::Arc;

use rxt_tf_spec::Value;

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::eager::call::{Call, Input, Slot};
use crate::eager::malformed;
use crate::eager::work::{estimate, Dims};
use crate::error::Result;
use crate::safe::handle::OwnedHandle;
use crate::safe::host::{self, ScalarBits};
use crate::safe::op::OwnedOp;
use crate::safe::status::Status;
use crate::tensor::Untyped;

/// The most operands of an op call (an index has four).
const MAX_OPERANDS: usize = 4;

/// The handle of a scalar or literal operand of `call` (a cached constant),
/// or `None` for a tensor.
pub(crate) fn operand_handle(
    context: &BoundContext,
    call: &Call,
    input: &Input<'_>,
) -> Result<Option<Arc<OwnedHandle>>> {
    let (dtype, number) = match *input {
        Input::Tensor(..) => return Ok(None),
        Input::Scalar(dtype, number) => (dtype, number),
        Input::Literal(number) => (call.operand_element, number),
        Input::Dims(dims) => return dims_handle(context, call, dims, false).map(Some),
        Input::Pairs(pairs) => {
            return dims_handle(context, call, pairs.as_flattened(), true).map(Some);
        }
        Input::List(..) => return Ok(None),
    };
    let mut bits = ScalarBits::new(call.row.name, number, dtype)?;
    if call.promotes() {
        // Checked as the operand's type (a literal must fit it), made as the
        // kernel's: the value a cast of it would give.
        bits = ScalarBits::new(call.row.name, number, call.element)?;
    }
    context.scalar(bits).map(Some)
}

/// A list of integers known at run time as an int64 tensor, made for this
/// call (its values change from call to call: not cached): rank 1, or of
/// pairs (`[n, 2]` paddings).
fn dims_handle(
    context: &BoundContext,
    call: &Call,
    dims: &[i64],
    pairs: bool,
) -> Result<Arc<OwnedHandle>> {
    let bytes: Vec<u8> = dims.iter().flat_map(|dim| dim.to_ne_bytes()).collect();
    let length = i64::try_from(dims.len()).map_err(|_| malformed(call.row))?;
    let api = context.wheel().api();
    let (flat, paired) = ([length], [length / 2, 2]);
    let shape: &[i64] = if pairs { &paired } else { &flat };
    host::new_handle(api, call.row.name, rxt_tf_spec::DType::I64, shape, &bytes).map(Arc::new)
}

/// What a call's operands become before its op is built: the work
/// estimate, a handle for each scalar or literal operand, and each tensor
/// operand cast to the kernel's element type where the row promotes it.
struct Prepared {
    work: i64,
    scalars: [Option<Arc<OwnedHandle>>; MAX_OPERANDS],
    casts: [Option<OwnedHandle>; MAX_OPERANDS],
}

impl Prepared {
    fn new(
        context: &Arc<BoundContext>,
        call: &Call,
        operands: &[Input<'_>],
        keywords: &[Value],
    ) -> Result<Prepared> {
        let status = Status::new(context.wheel().api(), call.row.name)?;
        let mut dims = [Dims::default(); MAX_OPERANDS];
        let mut scalars: [Option<Arc<OwnedHandle>>; MAX_OPERANDS] = Default::default();
        for ((dims, scalar), operand) in dims.iter_mut().zip(&mut scalars).zip(operands) {
            match operand.tensors().first() {
                Some(tensor) => *dims = Dims::of(tensor.handle()?, &status, call.row.name)?,
                None => *scalar = operand_handle(context, call, operand)?,
            }
        }
        let dims = &dims[..operands.len().min(MAX_OPERANDS)];
        crate::eager::window::check(call.row, keywords, dims)?;
        let work = estimate(call.row, keywords, dims);
        // Tensor operands of a promoting op, cast to its element type first.
        let mut casts: [Option<OwnedHandle>; MAX_OPERANDS] = Default::default();
        if call.promotes() {
            let cast = Call::cast(call.operand_element);
            let keywords = call.cast_keywords();
            for (slot, operand) in casts.iter_mut().zip(operands) {
                if let Some(tensor) = operand.tensor() {
                    let handle = tensor.handle()?;
                    *slot = Some(run_op(context, &cast, &keywords, work, |op| {
                        op.add_input(handle)
                    })?);
                }
            }
        }
        Ok(Prepared {
            work,
            scalars,
            casts,
        })
    }

    /// The handle of the single operand at `index`.
    fn handle_of<'h>(
        &'h self,
        call: &Call,
        operands: &'h [Input<'_>],
        index: usize,
    ) -> Result<&'h OwnedHandle> {
        match (
            operands.get(index),
            self.scalars.get(index),
            self.casts.get(index),
        ) {
            (_, _, Some(Some(cast))) => Ok(cast),
            (Some(Input::Tensor(tensor, _)), _, _) => tensor.handle(),
            (_, Some(Some(scalar)), _) => Ok(scalar),
            _ => Err(malformed(call.row)),
        }
    }

    /// Adds the call's inputs to `op` in the op's order: each operand (a
    /// list operand as one list input), each keyword constant.
    fn add_inputs(
        &self,
        op: &mut OwnedOp<'_>,
        context: &BoundContext,
        call: &Call,
        operands: &[Input<'_>],
        keywords: &[Value],
    ) -> Result<()> {
        for slot in call.inputs(keywords) {
            match slot? {
                Slot::Operand(index) => match operands.get(index) {
                    Some(Input::List(tensors, _)) => {
                        let handles = tensors
                            .iter()
                            .map(|tensor| tensor.handle())
                            .collect::<Result<Vec<_>>>()?;
                        op.add_input_list(&handles)?;
                    }
                    _ => op.add_input(self.handle_of(call, operands, index)?)?,
                },
                Slot::Operands(indices) => {
                    let handles = indices
                        .iter()
                        .map(|index| self.handle_of(call, operands, *index))
                        .collect::<Result<Vec<_>>>()?;
                    op.add_input_list(&handles)?;
                }
                Slot::Constant(value, dtype) => {
                    op.add_input(&*context.constant(call.row.name, &value, dtype)?)?;
                }
            }
        }
        Ok(())
    }
}

/// Runs `call` on `operands` with `keywords` as eager ops: the op itself,
/// and around it the transposes that move its axis last and back.
pub(crate) fn run_call(
    context: &Arc<BoundContext>,
    call: &Call,
    operands: &[Input<'_>],
    keywords: &[Value],
) -> Result<Untyped> {
    let prepared = Prepared::new(context, call, operands, keywords)?;
    let work = prepared.work;
    let Some(perm) = call.swap else {
        let handle = run_op(context, call, keywords, work, |op| {
            prepared.add_inputs(op, context, call, operands, keywords)
        })?;
        return Ok(Untyped::ready(handle, Arc::clone(context)));
    };
    // The op works on the last axis only: move the requested one there and
    // back, as TensorFlow's Python layer does (same kernels).
    let transpose = Call::transpose(call.element, perm);
    let perm_value = [Value::Ints(perm)];
    let perm_handle =
        context.constant(transpose.row.name, &perm_value[0], rxt_tf_spec::DType::I32)?;
    let swap = |input: &OwnedHandle| {
        run_op(context, &transpose, &perm_value, work, |op| {
            op.add_input(input)?;
            op.add_input(&perm_handle)
        })
    };
    let moved = swap(prepared.handle_of(call, operands, 0)?)?;
    let output = run_op(context, call, keywords, work, |op| op.add_input(&moved))?;
    let back = swap(&output)?;
    Ok(Untyped::ready(back, Arc::clone(context)))
}

/// Runs `call`, an op of `count` outputs, on `operands` with `keywords`:
/// one eager op.
pub(crate) fn run_call_many(
    context: &Arc<BoundContext>,
    call: &Call,
    operands: &[Input<'_>],
    keywords: &[Value],
    count: usize,
) -> Result<Vec<Untyped>> {
    let prepared = Prepared::new(context, call, operands, keywords)?;
    let handles = run_op_then(
        context,
        call,
        keywords,
        |op| prepared.add_inputs(op, context, call, operands, keywords),
        |op| op.execute_many(prepared.work, count),
    )?;
    Ok(handles
        .into_iter()
        .map(|handle| Untyped::ready(handle, Arc::clone(context)))
        .collect())
}

/// Runs one `TFE_Op` of `call` on `CPU:0` of `context`: its attributes from
/// `keywords`, its inputs added by `add_inputs`, with the GIL released when
/// `work` says so. The one place an eager op of one output is built.
pub(crate) fn run_op(
    context: &Arc<BoundContext>,
    call: &Call,
    keywords: &[Value],
    work: i64,
    add_inputs: impl FnOnce(&mut OwnedOp<'_>) -> Result<()>,
) -> Result<OwnedHandle> {
    run_op_then(context, call, keywords, add_inputs, |op| op.execute(work))
}

/// Builds one `TFE_Op` of `call` (attributes, then inputs) and runs it
/// with `execute`.
fn run_op_then<R>(
    context: &Arc<BoundContext>,
    call: &Call,
    keywords: &[Value],
    add_inputs: impl FnOnce(&mut OwnedOp<'_>) -> Result<()>,
    execute: impl FnOnce(OwnedOp<'_>) -> Result<R>,
) -> Result<R> {
    let api = context.wheel().api();
    let name = call.row.name;
    let status = Status::new(api, name)?;
    // SAFETY: the context lives while `context` does, which outlives the op.
    let mut op = unsafe {
        OwnedOp::new(
            api,
            context.as_ptr(),
            call.tf_op,
            CPU_DEVICE_C,
            &status,
            name,
        )
    }?;
    for (attr, value) in call.attributes(keywords) {
        op.set_attr(attr, &value)?;
    }
    add_inputs(&mut op)?;
    execute(op)
}
