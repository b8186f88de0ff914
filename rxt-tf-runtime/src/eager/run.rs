//! Running one eager op: a `TFE_Op` of a planned call on `CPU:0` of its
//! context, attributes before inputs, through `TFE_Execute`.

use std::sync::Arc;

use rxt_tf_spec::Value;

use crate::binding::context::{BoundContext, CPU_DEVICE_C};
use crate::eager::planned::PlannedOp;
use crate::error::Result;
use crate::safe::handle::OwnedHandle;
use crate::safe::op::OwnedOp;
use crate::safe::status::Status;

/// Runs one `TFE_Op` of `call` on `CPU:0` of `context`: its attributes from
/// `keywords`, its inputs added by `add_inputs`, with the GIL released when
/// `work` says so. The one place an eager op of one output is built.
pub(crate) fn run_op(
    context: &Arc<BoundContext>,
    call: &PlannedOp,
    keywords: &[Value],
    work: i64,
    add_inputs: impl FnOnce(&mut OwnedOp<'_>) -> Result<()>,
) -> Result<OwnedHandle> {
    run_op_then(context, call, keywords, add_inputs, |op| op.execute(work))
}

/// Builds one `TFE_Op` of `call` (attributes, then inputs) and runs it
/// with `execute`.
pub(crate) fn run_op_then<R>(
    context: &Arc<BoundContext>,
    call: &PlannedOp,
    keywords: &[Value],
    add_inputs: impl FnOnce(&mut OwnedOp<'_>) -> Result<()>,
    execute: impl FnOnce(OwnedOp<'_>) -> Result<R>,
) -> Result<R> {
    let api = context.wheel().api();
    let name = call.row.name;
    let status = Status::new(api, name)?;
    let mut op = OwnedOp::new(context.ops(), call.tf_op, CPU_DEVICE_C, &status, name)?;
    for (attr, value) in call.attributes(keywords) {
        op.set_attr(attr, &value)?;
    }
    add_inputs(&mut op)?;
    execute(op)
}
