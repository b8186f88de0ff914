//! The typed model `tf!` expands: one validated op invocation.

use syn::Expr;

use crate::ops::OpSpec;

/// A validated `tf!` invocation.
pub(crate) struct Invocation {
    /// The op.
    pub(crate) op: &'static OpSpec,
    /// Its tensor operands, in order.
    pub(crate) operands: Vec<Expr>,
}
