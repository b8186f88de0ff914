//! The eager layer: what turns one op call (a row of the table, its
//! operands and keyword values) into one TensorFlow node — which op, its
//! attributes, its inputs in order, its casts and checks — and runs one
//! eager op. Per-op execution and fused recording both build their nodes
//! here ([`node`]), into a sink of their own; [`emit`] turns nodes into
//! eager ops or graph nodes, [`at_once`] runs one op call outside a fusing
//! scope, and [`function_node`] is a TensorFlow function called as a node.

pub(crate) mod at_once;
pub(crate) mod emit;
pub(crate) mod function_node;
pub(crate) mod kept;
pub(crate) mod node;
mod operand;
mod planned;
mod run;
pub(crate) mod sizes;
pub(crate) mod window;
pub(crate) mod work;

pub(crate) use function_node::FunctionNode;
pub(crate) use planned::{is_set, plan, Operand, PlannedOp};
pub(crate) use run::{run_op, run_op_then};

use rxt_tf_spec::Op;

use crate::error::Error;

/// The error for a call that does not fit its row (a defect, not user input).
pub(crate) fn malformed(row: &Op) -> Error {
    Error::Internal {
        op: row.name,
        defect: "the call does not match the op's row",
    }
}
