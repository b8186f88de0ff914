//! How TensorFlow runs an op: attributes, inputs, the batched kernel,
//! promotions, work estimates and multi-op steps.

use core::ffi::CStr;

use super::dtype::DType;
use super::keyword::Value;

/// The value of an attribute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AttrValue {
    /// This value.
    Fixed(Value),
    /// The element type of the call's operands.
    Element,
    /// The element type of the call's indices operand.
    Indices,
    /// The number of entries of the call's list operand, tensors or
    /// integers (an `int`).
    ListLength,
}

/// Operands of some element types are cast to another before the op runs,
/// as TensorFlow's Python layer does: `tf.divide` of integers is a true
/// division in float64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Promotion {
    /// The element types cast.
    pub from: &'static [DType],
    /// What they become: the kernel's element type, and the result's.
    pub to: DType,
}

/// The kernel an op runs when one of its operands has a rank above 2
/// (`BatchMatMulV2` for `matmul`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Batched {
    /// The TensorFlow op.
    pub tf_op: &'static CStr,
    /// Its attributes, in place of the op's own.
    pub attrs: &'static [Attr],
    /// The attributes the keywords become instead (`transpose_a` is
    /// `adj_x`), in the op's keyword order.
    pub keyword_attrs: &'static [&'static CStr],
}

/// One input of the TensorFlow op, in the op's input order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    /// The `tf!` operand at this position.
    Operand(usize),
    /// The constant made from this keyword's value (see
    /// [`Becomes::Input`](crate::model::Becomes::Input)).
    Keyword(&'static str),
    /// These operands, as one list input (`Einsum`'s `inputs`).
    Operands(&'static [usize]),
}

/// An attribute the op always gets, set before any input is added.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attr {
    /// The attribute's name.
    pub name: &'static CStr,
    /// Its value.
    pub value: AttrValue,
}

/// How an op's work is estimated from its inputs, to decide whether the GIL
/// is released while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A matrix product: elements of the left operand × columns of the right.
    MatMul,
    /// One pass over the first input's elements (element-wise ops, reductions).
    FirstInput,
    /// One pass over the larger input's elements (broadcasting binary ops).
    LargerInput,
}
