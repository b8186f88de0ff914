//! Keywords: their literal values, what each becomes in TensorFlow, and
//! which values they accept.

use core::ffi::CStr;

use super::dtype::DType;
use super::wording::join_or;

/// A literal value: of a keyword, an attribute or a constant input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A list of integers (becomes a rank-1 tensor when an input).
    Ints(&'static [i64]),
    /// An element type (a `type` attribute).
    Type(DType),
    /// A string (a `string` attribute).
    Str(&'static str),
}

impl Value {
    /// The value as Rust source spells it (`true`, `1`, `[1, 0]`, …).
    pub fn rust(&self) -> String {
        match self {
            Value::Bool(flag) => flag.to_string(),
            Value::Int(int) => int.to_string(),
            Value::Float(float) => format!("{float:?}"),
            Value::Ints(ints) => format!("{ints:?}"),
            Value::Type(dtype) => dtype.rust_name().to_owned(),
            Value::Str(text) => format!("{text:?}"),
        }
    }
}

/// The kind of literal a keyword takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A boolean literal.
    Bool,
    /// An integer literal (possibly negative).
    Int,
    /// A float literal (possibly negative).
    Float,
    /// A list of integer literals (`[1, 0]`).
    Ints,
    /// An element type, spelled as the Rust type (`i64`).
    Type,
    /// Axes: an integer literal, or a list of distinct integer literals
    /// (`[0, 2]`), each possibly negative (counted from the last axis).
    Axes,
    /// A count: a non-negative integer literal (`batch_dims`), carried in
    /// the types when typed.
    Count,
    /// A string literal (`mode = "REFLECT"`).
    Str,
    /// A number literal, integer or float (`constant_values = 0.5`): it
    /// becomes the call's element type.
    Number,
    /// A positive integer literal or a list of one or two (`strides = 2`,
    /// `strides = [2, 1]`): a size along the spatial axes of an image.
    Spatial,
    /// A positive integer literal or a list of one or three (`strides = 2`,
    /// `strides = [1, 2, 2]`): a size along the three spatial axes of a
    /// volume (NDHWC).
    Volume,
    /// An einsum equation, a string literal (`"bqhd,bkhd->bhqk"`, see
    /// [`crate::einsum`]): typed by the ranks its subscripts give.
    Equation,
    /// The axes two tensors are contracted over, as `tf.tensordot` takes
    /// them: a non-negative count `n` (the last `n` axes of the first with
    /// the first `n` of the second), or a pair of lists of as many distinct
    /// axes each (`[[2], [0]]`; `[2, 0]` for one axis each), kept as one
    /// list, the first's axes then the second's.
    Contraction,
}

impl ValueKind {
    /// How messages name it.
    pub const fn describe(self) -> &'static str {
        match self {
            ValueKind::Bool => "a boolean literal",
            ValueKind::Int => "an integer literal",
            ValueKind::Float => "a float literal",
            ValueKind::Ints => "a list of integer literals",
            ValueKind::Type => "an element type",
            ValueKind::Axes => "an integer literal or a list of distinct integer literals",
            ValueKind::Count => "a non-negative integer literal",
            ValueKind::Str => "a string literal",
            ValueKind::Number => "a number literal",
            ValueKind::Spatial => "a positive integer literal or a pair of them",
            ValueKind::Volume => "a positive integer literal or a list of one or three of them",
            ValueKind::Equation => "an einsum equation, a string literal",
            ValueKind::Contraction => {
                "a non-negative integer literal, or a pair of lists of integer literals of one \
                 length (`[[2], [0]]`)"
            }
        }
    }
}

/// What a keyword's value becomes when the op runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Becomes {
    /// The op attribute of this name (its type follows the keyword's kind).
    Attr(&'static CStr),
    /// A constant input tensor of this element type, placed by
    /// [`Input::Keyword`](crate::model::Input::Keyword).
    Input(DType),
    /// The axis an op that works on the last axis only (`Softmax`) runs
    /// along: another axis is moved last by a transpose before the op and
    /// back after it, as TensorFlow's Python layer does.
    LastAxis,
    /// Nothing in a TensorFlow op's attributes or inputs: the value only
    /// types the call (the axes an index drops and adds, which its masks
    /// also say), picks the row, or steers the ops a composite rule runs
    /// (`sort`'s `direction`).
    Typing,
    /// A scalar constant input of the call's element type.
    ElementInput,
    /// The list attribute of this name of an NHWC image op, `[1, h, w, 1]`,
    /// from a [`ValueKind::Spatial`] value (one integer for both axes), or
    /// of an NDHWC volume op, `[1, d, h, w, 1]`, from a
    /// [`ValueKind::Volume`] value (one integer for all three).
    Spatial(&'static CStr),
}

/// A keyword argument of an op: `tf!(op(x, name = literal))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keyword {
    /// Its name, in `tf!` and in Python.
    pub name: &'static str,
    /// The kind of literal it takes.
    pub kind: ValueKind,
    /// The values accepted; empty means any literal of `kind`.
    pub allowed: &'static [Value],
    /// The value when omitted; `None` makes the keyword required.
    pub default: Option<Value>,
    /// What its value becomes.
    pub becomes: Becomes,
    /// Whether its value takes part in typing: signatures can depend on it
    /// (the runtime's `Signature::when`), so the value is carried in the
    /// types of `tf!`'s expansion (`keepdims` picks the result rank).
    pub typed: bool,
}

impl Keyword {
    /// Whether `value` is accepted.
    #[inline]
    pub fn accepts(&self, value: &Value) -> bool {
        let kind_matches = matches!(
            (self.kind, value),
            (ValueKind::Bool, Value::Bool(_))
                | (ValueKind::Int, Value::Int(_))
                | (ValueKind::Float, Value::Float(_))
                | (ValueKind::Ints, Value::Ints(_))
                | (ValueKind::Type, Value::Type(_))
                | (ValueKind::Axes, Value::Int(_) | Value::Ints(_))
                | (ValueKind::Str | ValueKind::Equation, Value::Str(_))
                | (ValueKind::Number, Value::Int(_) | Value::Float(_))
        ) || matches!(
            (self.kind, value),
            (ValueKind::Count | ValueKind::Contraction, Value::Int(count)) if *count >= 0
        ) || matches!(
            (self.kind, value),
            (ValueKind::Contraction, Value::Ints(axes)) if axes.len() % 2 == 0
        ) || matches!(
            (self.kind, value),
            (ValueKind::Spatial | ValueKind::Volume, Value::Int(size)) if *size >= 1
        ) || matches!(
            (self.kind, value),
            (ValueKind::Spatial, Value::Ints(sizes))
                if (1..=2).contains(&sizes.len()) && sizes.iter().all(|size| *size >= 1)
        ) || matches!(
            (self.kind, value),
            (ValueKind::Volume, Value::Ints(sizes))
                if matches!(sizes.len(), 1 | 3) && sizes.iter().all(|size| *size >= 1)
        );
        kind_matches && (self.allowed.is_empty() || self.allowed.contains(value))
    }

    /// The accepted values for messages: "`1`", "`0`, `1` or `-1`", or
    /// "a float literal".
    pub fn allowed_text(&self) -> String {
        if self.allowed.is_empty() && self.kind == ValueKind::Type {
            let types: Vec<String> = DType::ALL
                .iter()
                .map(|dtype| format!("`{}`", dtype.rust_name()))
                .collect();
            return join_or(&types);
        }
        if self.allowed.is_empty() {
            return self.kind.describe().to_owned();
        }
        let values: Vec<String> = self
            .allowed
            .iter()
            .map(|v| format!("`{}`", v.rust()))
            .collect();
        join_or(&values)
    }
}
