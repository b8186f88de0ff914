//! The ops and their typed safe functions (the table itself is `ops/table.rs`,
//! shared with the macros). Each op runs through
//! `TFE_Execute` on the context its inputs belong to, on `CPU:0`.

use std::ffi::c_int;
use std::ptr::NonNull;
use std::sync::Arc;

use crate::context::{BoundContext, CPU_DEVICE_C};
use crate::error::{Error, Result};
use crate::gil;
use crate::handle::{null_handle, OwnedHandle};
use crate::status::Status;
use crate::sys::{Api, TFE_Op, TFE_TensorHandle};
use crate::tensor::{FloatTensor, Tensor, TensorF32Cpu1D, TensorF32Cpu2D};

mod table;

pub use table::{Keyword, OpSpec, Work, ADD, MATMUL, OPS, REDUCE_MEAN, RELU, SIGMOID};
pub(crate) use table::{DT_FLOAT, DT_INT32};

/// Rank pairs `add` accepts, and the rank of the result (the larger one;
/// TensorFlow broadcasts the rank-1 operand over the trailing axis).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `add` does not support `{Self}` + `{Rhs}`",
    label = "unsupported operand pair",
    note = "supported pairs: 2D + 2D, 1D + 1D, 2D + 1D, 1D + 2D (float32 CPU tensors)"
)]
pub trait AddRanks<Rhs: FloatTensor>: FloatTensor {
    /// The result type.
    type Output: FloatTensor;
}

impl AddRanks<TensorF32Cpu2D> for TensorF32Cpu2D {
    type Output = TensorF32Cpu2D;
}
impl AddRanks<TensorF32Cpu1D> for TensorF32Cpu1D {
    type Output = TensorF32Cpu1D;
}
impl AddRanks<TensorF32Cpu1D> for TensorF32Cpu2D {
    type Output = TensorF32Cpu2D;
}
impl AddRanks<TensorF32Cpu2D> for TensorF32Cpu1D {
    type Output = TensorF32Cpu2D;
}

/// Matrix product of two rank-2 tensors (`tf.matmul`).
pub fn matmul(a: &TensorF32Cpu2D, b: &TensorF32Cpu2D) -> Result<TensorF32Cpu2D> {
    binary(&MATMUL, a, b)
}

/// Rectified linear unit of a rank-2 tensor (`tf.nn.relu`).
pub fn relu(x: &TensorF32Cpu2D) -> Result<TensorF32Cpu2D> {
    unary(&RELU, x)
}

/// Logistic sigmoid of a rank-2 tensor (`tf.nn.sigmoid`).
pub fn sigmoid(x: &TensorF32Cpu2D) -> Result<TensorF32Cpu2D> {
    unary(&SIGMOID, x)
}

/// Element-wise sum with broadcasting (`tf.add`, `+`).
pub fn add<L, R>(a: &L, b: &R) -> Result<L::Output>
where
    L: AddRanks<R>,
    R: FloatTensor,
{
    binary(&ADD, a, b)
}

/// Mean over axis 1 of a rank-2 tensor, dropping that axis
/// (`tf.reduce_mean(x, axis=1)`).
pub fn reduce_mean_axis1(x: &TensorF32Cpu2D) -> Result<TensorF32Cpu1D> {
    let core = x.core();
    run(
        &REDUCE_MEAN,
        &core.context,
        &[&core.handle, core.context.axis_1()],
    )
    .map(TensorF32Cpu1D::from_core)
}

fn unary<X: FloatTensor, Out: FloatTensor>(spec: &'static OpSpec, x: &X) -> Result<Out> {
    let core = x.core();
    run(spec, &core.context, &[&core.handle]).map(Out::from_core)
}

fn binary<A: FloatTensor, B: FloatTensor, Out: FloatTensor>(
    spec: &'static OpSpec,
    a: &A,
    b: &B,
) -> Result<Out> {
    let (a, b) = (a.core(), b.core());
    if !Arc::ptr_eq(&a.context, &b.context) {
        return Err(Error::MixedContexts { op: spec.name });
    }
    run(spec, &a.context, &[&a.handle, &b.handle]).map(Out::from_core)
}

/// Executes `spec` on `inputs` and returns its single output.
fn run(
    spec: &'static OpSpec,
    context: &Arc<BoundContext>,
    inputs: &[&OwnedHandle],
) -> Result<Tensor> {
    let api = context.wheel().api();
    let status = Status::new(api, spec.name)?;
    let op = Op::new(api, context, spec, &status)?;
    for (attr, dtype) in spec.type_attrs {
        // SAFETY: `op` is live; `attr` is NUL-terminated.
        unsafe { (api.TFE_OpSetAttrType)(op.raw.as_ptr(), attr.as_ptr(), *dtype) };
    }
    for input in inputs {
        // SAFETY: `op` and `input` are live; the op takes its own reference.
        unsafe { (api.TFE_OpAddInput)(op.raw.as_ptr(), input.as_ptr(), status.as_ptr()) };
        status.check(spec.name)?;
    }
    let work = estimated_work(spec.work, inputs, &status, spec.name)?;
    let mut output: *mut TFE_TensorHandle = std::ptr::null_mut();
    let mut count: c_int = 1;
    gil::maybe_released(work, || {
        // SAFETY: `op` is fully built; `output` has room for the one output
        // the op declares, and `count` says so. No Python object is touched.
        unsafe { (api.TFE_Execute)(op.raw.as_ptr(), &mut output, &mut count, status.as_ptr()) }
    });
    status.check(spec.name)?;
    if count != 1 {
        return Err(null_handle(spec.name));
    }
    // SAFETY: on success `TFE_Execute` hands us the output handle.
    let handle =
        unsafe { OwnedHandle::from_raw(api, output) }.ok_or_else(|| null_handle(spec.name))?;
    Ok(Tensor {
        handle,
        context: Arc::clone(context),
    })
}

/// The work `inputs` ask of an op, in the units of [`crate::RELEASE_WORK`].
fn estimated_work(
    work: Work,
    inputs: &[&OwnedHandle],
    status: &Status,
    op: &'static str,
) -> Result<i64> {
    let elements = |index: usize| match inputs.get(index) {
        Some(input) => input.num_elements(status, op),
        None => Ok(0),
    };
    Ok(match work {
        Work::MatMul => {
            let columns = match inputs.get(1) {
                Some(b) => b.dim(1, status, op)?,
                None => 0,
            };
            elements(0)?.saturating_mul(columns)
        }
        Work::FirstInput => elements(0)?,
        Work::LargerInput => elements(0)?.max(elements(1)?),
    })
}

/// An owned `TFE_Op`, deleted on drop.
struct Op {
    raw: NonNull<TFE_Op>,
    api: &'static Api,
}

impl Op {
    /// A new op of `spec` on `context`, placed on `CPU:0`.
    fn new(
        api: &'static Api,
        context: &BoundContext,
        spec: &'static OpSpec,
        status: &Status,
    ) -> Result<Op> {
        // SAFETY: the context is live while `context` is; the name is NUL-terminated.
        let raw =
            unsafe { (api.TFE_NewOp)(context.as_ptr(), spec.tf_op.as_ptr(), status.as_ptr()) };
        status.check(spec.name)?;
        let op = NonNull::new(raw)
            .map(|raw| Op { raw, api })
            .ok_or_else(|| null_handle(spec.name))?;
        // SAFETY: `op` is live; the device name is NUL-terminated.
        unsafe { (api.TFE_OpSetDevice)(op.raw.as_ptr(), CPU_DEVICE_C.as_ptr(), status.as_ptr()) };
        status.check(spec.name)?;
        Ok(op)
    }
}

impl Drop for Op {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `TFE_NewOp` and is deleted once.
        unsafe { (self.api.TFE_DeleteOp)(self.raw.as_ptr()) };
    }
}
