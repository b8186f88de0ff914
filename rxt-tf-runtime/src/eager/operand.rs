//! The handles of a call's operands that are not tensors: run-time
//! scalars and literals (cached constants of the context), and lists of
//! integers known at run time (made for each call).

use std::sync::Arc;

use crate::binding::context::BoundContext;
use crate::eager::malformed;
use crate::eager::planned::{Operand, PlannedOp};
use crate::error::Result;
use crate::safe::handle::OwnedHandle;
use crate::safe::host::{self, Number, ScalarBits};

/// The handle of a scalar or literal operand of `call` (a cached constant),
/// or `None` for a tensor.
pub(crate) fn operand_handle(
    context: &BoundContext,
    call: &PlannedOp,
    input: &Operand<'_>,
) -> Result<Option<Arc<OwnedHandle>>> {
    let (dtype, number, convert): (_, _, Convert) = match *input {
        Operand::Tensor(..) => return Ok(None),
        Operand::Scalar(dtype, number) => (dtype, number, ScalarBits::typed),
        Operand::Literal(number) => (call.operand_element, number, ScalarBits::new),
        Operand::Dims(dims) => return dims_handle(context, call, dims, false).map(Some),
        Operand::Pairs(pairs) => {
            return dims_handle(context, call, pairs.as_flattened(), true).map(Some);
        }
        Operand::List(..) => return Ok(None),
    };
    let mut bits = convert(call.row.name, number, dtype)?;
    if call.promotes() {
        // Checked as the operand's type (a literal must fit it), made as the
        // kernel's: the value a cast of it would give.
        bits = convert(call.row.name, number, call.element)?;
    }
    context.scalar(bits).map(Some)
}

/// How a scalar operand's value becomes its bits: a literal as TensorFlow
/// converts a Python number, a typed value as `tf.cast` does.
type Convert = fn(&'static str, Number, rxt_tf_spec::DType) -> Result<ScalarBits>;

/// A list of integers known at run time as an int64 tensor, made for this
/// call (its values change from call to call: not cached): rank 1, or of
/// pairs (`[n, 2]` paddings).
fn dims_handle(
    context: &BoundContext,
    call: &PlannedOp,
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
