//! The eager layer: what turns one op call (a row of the table, its
//! operands and keyword values) into one TensorFlow op — which op, its
//! attributes, its inputs in order — and runs it. The per-op path runs
//! calls here; fused execution builds the same calls into a graph.

mod call;
mod run;
pub(crate) mod window;
pub(crate) mod work;

pub(crate) use call::{kept, kept_text, shared_context, Call, Input, Slot};
pub(crate) use run::{operand_handle, run_call, run_call_many, run_op};

use rxt_tf_spec::Op;

use crate::error::Error;

/// The error for a call that does not fit its row (a defect, not user input).
pub(crate) fn malformed(row: &Op) -> Error {
    Error::Op {
        op: row.name,
        code: 13, // INTERNAL
        message: String::from("the call does not match the op's row"),
    }
}
