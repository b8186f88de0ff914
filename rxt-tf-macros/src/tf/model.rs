//! The typed model `tf!` expands: one validated op invocation.

use proc_macro2::Span;
use rxt_tf_spec::einsum::Equation;
use rxt_tf_spec::{Op, Value};
use syn::Expr;

/// One operand of an invocation.
pub(crate) enum OperandExpr {
    /// Any expression, borrowed (a tensor or a reference to one).
    Expr(Expr),
    /// A float literal, written at `span`: it takes the other operand's
    /// element type.
    Float(f64, Span),
    /// An integer literal, written at `span`: it takes the other operand's
    /// element type.
    Int(i64, Span),
    /// A bracketed list of integers known at run time (`[b, s, 4, -1]`),
    /// written at `span`.
    Dims(Vec<DimExpr>, Span),
    /// A bracketed list of tensors (`[a, b, c]`), written at `span`.
    Tensors(Vec<Expr>, Span),
    /// An integer known at run time (a literal or a Rust integer),
    /// written at `span`.
    Size(DimExpr, Span),
    /// A bracketed list of pairs of integers (`[[1, 2], [0, n]]`), written
    /// at `span`.
    Pairs(Vec<[DimExpr; 2]>, Span),
}

/// One entry of a list of integers.
pub(crate) enum DimExpr {
    /// An integer literal.
    Literal(i64),
    /// A Rust integer expression, evaluated when the op runs.
    Expr(Expr),
}

/// A keyword value written as Rust expressions: axes or a permutation
/// known at run time (`axis = self.axis`, `perm = [a, b, 0]`). Their count
/// is fixed by the form, so the result's rank is known at compile time;
/// the values are checked against the rank when the op runs.
pub(crate) struct RuntimeValue {
    /// The keyword's index among the row's.
    pub(crate) index: usize,
    /// Its entries, in order.
    pub(crate) entries: Vec<DimExpr>,
    /// Whether it was written as a list (`[a, b]`), not one integer.
    pub(crate) list: bool,
}

/// An element-type keyword naming a type parameter (`cast(x, T)` in code
/// generic over `T: rxt_tf::Float`): the type checks the call, and its
/// `DTYPE` is the keyword's value when the op runs.
pub(crate) struct GenericType {
    /// The keyword's index among the row's.
    pub(crate) index: usize,
    /// The type, as written.
    pub(crate) path: syn::Path,
}

/// A keyword that does not type the call given as a Rust expression: a
/// float (`variance_epsilon = self.epsilon`, converted to `f64`), an image
/// op's sizes (`strides = [s[0], s[1]]`) or a text (`padding =
/// self.padding`), checked when the op runs; its value is part of a fused
/// trace's key, as a literal's is.
pub(crate) struct RuntimeKeyword {
    /// The keyword's index among the row's.
    pub(crate) index: usize,
    /// The expression, as written.
    pub(crate) expr: Expr,
}

/// A validated `tf!` invocation.
pub(crate) struct Invocation {
    /// The op's row.
    pub(crate) op: &'static Op,
    /// Where the op is named (its name, or the operator).
    pub(crate) op_span: Span,
    /// Its operands, in order.
    pub(crate) operands: Vec<OperandExpr>,
    /// One value per keyword of the row, in row order: as written, or the
    /// default (for one given at run time, a stand-in of its count).
    pub(crate) keywords: Vec<Value>,
    /// The keywords given as Rust expressions, by index.
    pub(crate) runtime: Vec<RuntimeValue>,
    /// The element-type keywords naming a type parameter, by index.
    pub(crate) generic: Vec<GenericType>,
    /// The keywords that do not type the call given as Rust expressions,
    /// by index.
    pub(crate) untyped: Vec<RuntimeKeyword>,
    /// An einsum's equation, parsed once when validated: the letters of
    /// each operand's subscripts and of the result.
    pub(crate) equation: Option<Equation>,
}
