//! The shape of an op row: what `tf!` accepts, what TensorFlow runs, and how
//! the Rextio plugin spells it in Python.

use core::ffi::CStr;

/// An element type, with its `TF_DataType` code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// `float32` (`TF_FLOAT`).
    F32,
    /// `float64` (`TF_DOUBLE`).
    F64,
    /// `int32` (`TF_INT32`).
    I32,
    /// `int64` (`TF_INT64`).
    I64,
    /// `bool` (`TF_BOOL`).
    Bool,
}

impl DType {
    /// The `TF_DataType` code.
    pub const fn code(self) -> i32 {
        match self {
            DType::F32 => 1,
            DType::F64 => 2,
            DType::I32 => 3,
            DType::I64 => 9,
            DType::Bool => 10,
        }
    }

    /// The element type of a `TF_DataType` code, if rxt-tf has it.
    pub const fn from_code(code: i32) -> Option<DType> {
        match code {
            1 => Some(DType::F32),
            2 => Some(DType::F64),
            3 => Some(DType::I32),
            9 => Some(DType::I64),
            10 => Some(DType::Bool),
            _ => None,
        }
    }

    /// TensorFlow's name for it (`float32`, …).
    pub const fn name(self) -> &'static str {
        match self {
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::Bool => "bool",
        }
    }

    /// The Rust type of its elements (`f32`, `i32`, `i64`).
    pub const fn rust_name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::Bool => "bool",
        }
    }

    /// The element type whose Rust type is `name`.
    pub fn from_rust_name(name: &str) -> Option<DType> {
        DType::ALL
            .iter()
            .copied()
            .find(|dtype| dtype.rust_name() == name)
    }

    /// The infix of the rxt-tf tensor type names (`F32` in `TensorF32Cpu2D`).
    pub const fn type_infix(self) -> &'static str {
        match self {
            DType::F32 => "F32",
            DType::F64 => "F64",
            DType::I32 => "I32",
            DType::I64 => "I64",
            DType::Bool => "Bool",
        }
    }

    /// The size of one element, in bytes.
    pub const fn size(self) -> usize {
        match self {
            DType::F32 | DType::I32 => 4,
            DType::F64 | DType::I64 => 8,
            DType::Bool => 1,
        }
    }

    /// Whether it is a floating-point type.
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F64)
    }
}

impl DType {
    /// Every element type of rxt-tf, in the order tables list them.
    pub const ALL: &'static [DType] =
        &[DType::F32, DType::F64, DType::I32, DType::I64, DType::Bool];
}

/// The largest rank of an rxt-tf tensor (ranks are `0..=MAX_RANK`).
pub const MAX_RANK: u8 = 4;

/// A tensor type of rxt-tf: element type and rank, on `CPU:0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorKind {
    /// Element type.
    pub dtype: DType,
    /// Rank (`0..=MAX_RANK`).
    pub rank: u8,
}

impl TensorKind {
    /// Every tensor type of rxt-tf: each element type at each rank.
    pub fn all() -> Vec<TensorKind> {
        DType::ALL
            .iter()
            .flat_map(|&dtype| (0..=MAX_RANK).map(move |rank| TensorKind { dtype, rank }))
            .collect()
    }

    /// The Rust type name, e.g. `TensorF32Cpu2D`.
    pub fn type_name(self) -> String {
        format!("Tensor{}Cpu{}D", self.dtype.type_infix(), self.rank)
    }
}

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
    /// An einsum equation, a string literal (`"bqhd,bkhd->bhqk"`, see
    /// [`crate::einsum`]): typed by the ranks its subscripts give.
    Equation,
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
            ValueKind::Equation => "an einsum equation, a string literal",
        }
    }
}

/// What a keyword's value becomes when the op runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Becomes {
    /// The op attribute of this name (its type follows the keyword's kind).
    Attr(&'static CStr),
    /// A constant input tensor of this element type, placed by [`Input::Keyword`].
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
    /// from a [`ValueKind::Spatial`] value (one integer for both axes).
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
    /// ([`Signature::when`]), so the value is carried in the types of `tf!`'s
    /// expansion (`keepdims` picks the result rank).
    pub typed: bool,
}

impl Keyword {
    /// Whether `value` is accepted.
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
        ) || matches!((self.kind, value), (ValueKind::Count, Value::Int(count)) if *count >= 0)
            || matches!((self.kind, value), (ValueKind::Spatial, Value::Int(size)) if *size >= 1)
            || matches!(
                (self.kind, value),
                (ValueKind::Spatial, Value::Ints(sizes))
                    if (1..=2).contains(&sizes.len()) && sizes.iter().all(|size| *size >= 1)
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

/// How an op types its operands and result: one rule for every element
/// type of [`Op::dtypes`] and every rank it allows. The runtime implements
/// each rule once, generically (`ops::rules`), the macros derive the typed
/// keywords from it, and the code generator expands it for the README and
/// the Rextio plugin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// One tensor of rank `min_rank..=MAX_RANK`; the result has its type.
    SameRank {
        /// The smallest rank accepted.
        min_rank: u8,
    },
    /// Two operands of one element type, NumPy broadcasting: the result
    /// has the larger rank. Either may be a literal, which takes the other
    /// operand's element type, as TensorFlow converts a Python number.
    Broadcast,
    /// Matrix products of ranks 2 to `MAX_RANK` with broadcasting batch
    /// dimensions: the result has the larger rank. Above rank 2 the op runs
    /// its [`Op::batched`] kernel.
    MatMul,
    /// A tensor of rank 2 to `MAX_RANK` and a rank-1 bias along its last
    /// axis; the result has the tensor's type.
    BiasAdd,
    /// A reduction of a tensor of rank 1 to `MAX_RANK` over the typed
    /// keyword `axis` (an axis or a list of distinct axes); the result loses
    /// those axes unless the typed keyword `keepdims` is `true`.
    Reduce,
    /// An op along the typed keyword `axis` (an axis, or for some ops a list
    /// of distinct axes) of a tensor of rank 1 to `MAX_RANK`: the result has
    /// the tensor's type. Where the kernel works on the last axis only
    /// ([`Becomes::LastAxis`]), another is moved there and back.
    AlongAxis,
    /// The index along the typed keyword `axis` of a tensor of rank 1 to
    /// `MAX_RANK` (rank − 1), of the element type of the typed keyword
    /// `output_type`.
    ArgReduce,
    /// A permutation of the axes of a tensor of rank 2 to `MAX_RANK` by the
    /// typed keyword `perm` (one entry per axis; omitted, the axes reversed).
    Permute,
    /// A tensor of rank 0 to `MAX_RANK` converted to the element type of the
    /// typed keyword `dtype`: the result has its rank.
    Convert,
    /// A tensor of rank 0 to `MAX_RANK − 1` with a new axis of size 1 at the
    /// typed keyword `axis` (in `-(r + 1)..=r`): the result has rank r + 1.
    ExpandDims,
    /// The shape of a tensor of rank 0 to `MAX_RANK`: a rank-1 tensor of the
    /// element type of the typed keyword `out_type`.
    Shape,
    /// A tensor of rank 1 to `MAX_RANK` without the axes of size 1 that the
    /// typed keyword `axis` names (an axis or a list of distinct axes).
    Squeeze,
    /// A bool condition and two operands of one element type, all three
    /// broadcasting: the result has the largest rank and the operands'
    /// element type. Either operand may be a literal.
    Select,
    /// A tensor of rank 0 to `MAX_RANK` and a list of 0 to `MAX_RANK` sizes
    /// known at run time (one may be `-1`): the result's rank is the list's
    /// length.
    Reshape,
    /// Slices of a tensor of rank 1 to `MAX_RANK` along the typed keyword
    /// `axis`, picked by an int32 or int64 tensor of indices: the result has
    /// rank `rank(params) − 1 + rank(indices) − batch_dims` (the typed
    /// keyword `batch_dims`), at most `MAX_RANK`.
    Gather,
    /// A tensor of rank 1 to `MAX_RANK` and a list of one size per axis,
    /// known at run time: the result has the tensor's type.
    PerAxis,
    /// A tensor of rank 1 to `MAX_RANK` and two lists of one integer per
    /// axis known at run time, where a window begins and its sizes (`-1`:
    /// to the end): the result has the tensor's rank.
    Window,
    /// A list of tensors of one element type and rank 1 to `MAX_RANK`
    /// joined along the typed keyword `axis`: the result has their type.
    Join,
    /// A list of tensors of one element type and rank 0 to `MAX_RANK − 1`
    /// stacked along a new axis, the typed keyword `axis` (in
    /// `-(r + 1)..=r`): the result has rank r + 1.
    Stack,
    /// Python's indexing (`x[:, 0]`, `x[..., None]`) as `StridedSlice`: a
    /// tensor of rank 0 to `MAX_RANK`, three lists (begin, end, strides)
    /// known at run time and the masks `Tensor.__getitem__` builds. The
    /// typed keywords `indexed_axes`, `shrink_axes` and `new_axes` count the
    /// axes the index reads (at most the rank), drops and adds: the result
    /// has rank r − shrink + new.
    Index,
    /// A tensor of rank 1 to `MAX_RANK` split along the typed keyword `axis`
    /// into as many tensors of its type as the typed keyword `num_split`
    /// says (an array of that length).
    Split,
    /// A tensor of rank 1 to `MAX_RANK` split along the typed keyword `axis`
    /// into parts of the sizes a list known at run time gives (one may be
    /// `-1`): an array of the list's length.
    SplitSizes,
    /// A tensor of rank 1 to `MAX_RANK` unpacked along the typed keyword
    /// `axis` into the typed keyword `num` tensors of rank r − 1 (an array).
    Unstack,
    /// The `k` largest entries along the last axis of a tensor of rank 1 to
    /// `MAX_RANK`: a pair, the values (its type) and their int32 indices.
    TopK,
    /// Int32 or int64 indices of rank 0 to `MAX_RANK − 1` and a depth known
    /// at run time: a float32 tensor of rank r + 1, the new axis at the
    /// typed keyword `axis` (in `-(r + 1)..=r`).
    OneHot,
    /// A tensor of rank 1 to `MAX_RANK` and a list of one pair of
    /// integers per axis known at run time (`[[before, after], …]`): the
    /// result has the tensor's type.
    Pad,
    /// A new tensor of a shape known at run time (a list of 0 to
    /// `MAX_RANK` sizes) filled with a scalar operand (a literal: int32 for
    /// an integer, float32 for a float, as Python's numbers): the result's
    /// rank is the list's length.
    Fill,
    /// A new tensor of a shape known at run time filled with one value, of
    /// the element type of the typed keyword `dtype`.
    Filled,
    /// The numbers from `start` to `limit` by `delta` (three scalar
    /// operands of one element type; literals alone are int32, or float32
    /// if one is a float): a rank-1 tensor.
    Sequence,
    /// A tensor of rank 0 to `MAX_RANK` and two scalar bounds of its
    /// element type (literals, run-time scalars or rank-0 tensors): the
    /// result has the tensor's type.
    Clip,
    /// A tensor of rank 1 to `MAX_RANK` sorted along the typed keyword
    /// `axis`, as `tf.sort` runs it (`TopKV2` over the whole axis, moved
    /// last, on the negated values when ascending): the result has the
    /// tensor's rank and the row's result type (`argsort`: int32).
    Sort,
    /// A new identity matrix of a size known at run time (`n`, the size
    /// role), of the element type of the typed keyword `dtype`: rank 2, as
    /// `tf.eye` makes it (ones on the diagonal by `MatrixDiagV3`).
    Eye,
    /// `operands` tensors of one element type contracted by the typed
    /// keyword `equation`, an einsum equation: its subscripts give each
    /// operand's rank and the result's.
    Einsum {
        /// The number of operands.
        operands: u8,
    },
    /// A tensor of rank 0 to `MAX_RANK` and four statistics of its element
    /// type (mean, variance, offset, scale) broadcasting into it: the
    /// result has its type.
    Normalize,
    /// An image (`rank` 4, NHWC; 3 for the 1-D forms, NWC) and filters of
    /// the same rank and element type: the result has the image's type.
    Conv {
        /// The rank of both operands.
        rank: u8,
    },
    /// A window over an image (`rank` 4, NHWC; 3 for the 1-D forms, NWC):
    /// the result has its type.
    Pool {
        /// The image's rank.
        rank: u8,
    },
    /// The mean and the variance of a tensor of rank 1 to `MAX_RANK` over
    /// the typed keyword `axes`: a pair of tensors of its type, each losing
    /// those axes unless the typed keyword `keepdims` is `true`.
    Moments,
}

/// What the literal entries of a list operand may be (checked by `tf!`;
/// TensorFlow checks run-time entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListEntries {
    /// The least value.
    pub lowest: i64,
    /// Whether `-1` (a size inferred from the others) may appear only once.
    pub one_inferred: bool,
    /// The most entries, if bounded (a shape's: the result's rank).
    pub at_most: Option<u8>,
}

/// What an operand position holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A tensor of the call's element type (one of [`Op::dtypes`]), or where
    /// the rule takes them a literal.
    Element,
    /// A bool tensor (the condition of a selection).
    Condition,
    /// A list of integers known at run time (`[b, s, 4, -1]`), run as a
    /// rank-1 int64 tensor: sizes, multiples.
    Dims,
    /// An int32 or int64 tensor of indices.
    Indices,
    /// A bracketed list of 2 to [`MAX_LIST`] tensors of one element type
    /// and rank (`[a, b, c]`), run as one list input.
    Tensors,
    /// A non-negative integer known at run time (a literal or a Rust
    /// integer: `one_hot`'s depth), run as an int32 scalar input.
    Size,
    /// A list of pairs of integers known at run time (`[[1, 2], [0, 0]]`),
    /// run as an `[n, 2]` int64 input: paddings.
    Pairs,
}

/// The most tensors a list operand holds.
pub const MAX_LIST: usize = 8;

impl Rule {
    /// The number of operands.
    pub const fn arity(self) -> usize {
        match self {
            Rule::Select => 3,
            Rule::OneHot | Rule::Pad | Rule::Fill | Rule::SplitSizes => 2,
            Rule::Filled => 1,
            Rule::Sequence | Rule::Clip => 3,
            Rule::Broadcast
            | Rule::MatMul
            | Rule::BiasAdd
            | Rule::Reshape
            | Rule::PerAxis
            | Rule::Gather
            | Rule::Conv { .. } => 2,
            Rule::Window => 3,
            Rule::Normalize => 5,
            Rule::Einsum { operands } => operands as usize,
            Rule::Index => 4,
            _ => 1,
        }
    }

    /// The ranks accepted at operand `position` (from 0).
    pub const fn ranks(self, position: usize) -> (u8, u8) {
        match (self, position) {
            (Rule::SameRank { min_rank }, _) => (min_rank, MAX_RANK),
            (Rule::Convert, _) => (0, MAX_RANK),
            (Rule::ExpandDims, _) => (0, MAX_RANK - 1),
            (Rule::Shape, _) => (0, MAX_RANK),
            (Rule::Squeeze, _) => (1, MAX_RANK),
            (Rule::Reshape | Rule::Index, 0) => (0, MAX_RANK),
            (Rule::Split | Rule::Unstack | Rule::TopK, _) | (Rule::SplitSizes, 0) => (1, MAX_RANK),
            (Rule::SplitSizes, _) => (1, 1),
            (Rule::Gather, 0) => (1, MAX_RANK),
            (Rule::Gather, _) => (0, MAX_RANK),
            (Rule::PerAxis | Rule::Window, 0) | (Rule::Join, _) => (1, MAX_RANK),
            (Rule::Stack, _) | (Rule::OneHot, 0) => (0, MAX_RANK - 1),
            (Rule::OneHot, _) => (0, 0),
            (Rule::Pad, 0) => (1, MAX_RANK),
            (Rule::Pad, _) => (2, 2),
            (Rule::Fill | Rule::Filled, 0) => (1, 1),
            (Rule::Fill | Rule::Filled | Rule::Sequence, _) => (0, 0),
            (Rule::Clip, 0) => (0, MAX_RANK),
            (Rule::Clip, _) => (0, 0),
            (Rule::Sort | Rule::Moments, _) => (1, MAX_RANK),
            (Rule::Conv { rank } | Rule::Pool { rank }, _) => (rank, rank),
            (Rule::Normalize | Rule::Einsum { .. }, _) => (0, MAX_RANK),
            (Rule::Eye, _) => (0, 0),
            // A list of sizes is a rank-1 tensor when it runs.
            (Rule::Reshape | Rule::PerAxis | Rule::Window | Rule::Index, _) => (1, 1),
            (Rule::Broadcast | Rule::Select, _) => (0, MAX_RANK),
            (Rule::MatMul | Rule::Permute, _) | (Rule::BiasAdd, 0) => (2, MAX_RANK),
            (Rule::BiasAdd, _) => (1, 1),
            (Rule::Reduce | Rule::AlongAxis | Rule::ArgReduce, _) => (1, MAX_RANK),
        }
    }

    /// The rank the typed `axis` keyword must fit for an operand of `rank`:
    /// the operand's, or for a new axis the result's (it may follow the last).
    pub const fn axes_rank(self, rank: u8) -> u8 {
        match self {
            Rule::ExpandDims | Rule::Stack | Rule::OneHot => rank.saturating_add(1),
            _ => rank,
        }
    }

    /// Whether a literal (or run-time scalar) may stand for an operand of
    /// the call's element type.
    pub const fn takes_literals(self) -> bool {
        matches!(
            self,
            Rule::Broadcast | Rule::Select | Rule::Fill | Rule::Sequence | Rule::Clip
        )
    }

    /// Whether the op makes a new tensor, from no tensor operand.
    pub const fn creates(self) -> bool {
        matches!(self, Rule::Fill | Rule::Filled | Rule::Sequence | Rule::Eye)
    }

    /// What operand `position` (from 0) holds.
    pub const fn role(self, position: usize) -> Role {
        match (self, position) {
            (Rule::Select, 0) => Role::Condition,
            (Rule::Reshape | Rule::PerAxis, 1) | (Rule::Window, 1 | 2) | (Rule::Index, 1..=3) => {
                Role::Dims
            }
            (Rule::Gather, 1) => Role::Indices,
            (Rule::Join | Rule::Stack, 0) => Role::Tensors,
            (Rule::OneHot, 0) => Role::Indices,
            (Rule::OneHot, _) | (Rule::Eye, _) => Role::Size,
            (Rule::Pad, 1) => Role::Pairs,
            (Rule::Fill | Rule::Filled, 0) | (Rule::SplitSizes, 1) => Role::Dims,
            _ => Role::Element,
        }
    }

    /// What the literal entries of the list operand at `position` may be.
    pub const fn list_entries(self, position: usize) -> ListEntries {
        match (self, position) {
            (Rule::Reshape, _) => ListEntries {
                lowest: -1,
                one_inferred: true,
                at_most: Some(MAX_RANK),
            },
            (Rule::SplitSizes, _) => ListEntries {
                lowest: -1,
                one_inferred: true,
                at_most: None,
            },
            (Rule::Fill | Rule::Filled, _) => ListEntries {
                lowest: 0,
                one_inferred: false,
                at_most: Some(MAX_RANK),
            },
            // A window's sizes: `-1` for "to the end", on any axis.
            (Rule::Index, _) => ListEntries {
                lowest: i64::MIN,
                one_inferred: false,
                at_most: None,
            },
            (Rule::Window, 2) => ListEntries {
                lowest: -1,
                one_inferred: false,
                at_most: None,
            },
            _ => ListEntries {
                lowest: 0,
                one_inferred: false,
                at_most: None,
            },
        }
    }

    /// The rule's name in tables and in the plugin (`broadcast`).
    pub const fn name(self) -> &'static str {
        match self {
            Rule::SameRank { .. } => "same-rank",
            Rule::Broadcast => "broadcast",
            Rule::MatMul => "matmul",
            Rule::BiasAdd => "bias-add",
            Rule::Reduce => "reduce",
            Rule::AlongAxis => "along-axis",
            Rule::ArgReduce => "arg-reduce",
            Rule::Permute => "permute",
            Rule::Convert => "convert",
            Rule::ExpandDims => "expand-dims",
            Rule::Shape => "shape",
            Rule::Squeeze => "squeeze",
            Rule::Select => "select",
            Rule::Reshape => "reshape",
            Rule::PerAxis => "per-axis",
            Rule::Gather => "gather",
            Rule::Window => "window",
            Rule::Join => "join",
            Rule::Stack => "stack",
            Rule::Index => "index",
            Rule::Split => "split",
            Rule::SplitSizes => "split-sizes",
            Rule::Unstack => "unstack",
            Rule::TopK => "top-k",
            Rule::OneHot => "one-hot",
            Rule::Pad => "pad",
            Rule::Fill => "fill",
            Rule::Filled => "filled",
            Rule::Sequence => "sequence",
            Rule::Clip => "clip",
            Rule::Sort => "sort",
            Rule::Eye => "eye",
            Rule::Moments => "moments",
            Rule::Conv { .. } => "conv",
            Rule::Normalize => "normalize",
            Rule::Einsum { .. } => "einsum",
            Rule::Pool { .. } => "pool",
        }
    }

    /// The rule in words, for the README (`r → r`, `a × b → max(a, b)`).
    pub fn describe(self) -> String {
        let (low, high) = self.ranks(0);
        let ranks = if low == high {
            format!("rank {low}")
        } else {
            format!("ranks {low}–{high}")
        };
        match self {
            Rule::SameRank { .. } => format!("{ranks}: r → r"),
            Rule::Broadcast => format!(
                "{ranks}, broadcasting: a × b → max(a, b); a literal takes the other's type"
            ),
            Rule::MatMul => format!("{ranks}, batch dimensions broadcast: a × b → max(a, b)"),
            Rule::BiasAdd => format!("{ranks} × 1 → r"),
            Rule::Reduce => format!("{ranks}: r → r − n for n axes (r with `keepdims = true`)"),
            Rule::AlongAxis => format!("{ranks}: r → r"),
            Rule::ArgReduce => format!("{ranks}: r → r − 1, of `output_type`"),
            Rule::Permute => format!("{ranks}: r → r, `perm` of length r"),
            Rule::Convert => format!("{ranks}: r → r, of `dtype`"),
            Rule::ExpandDims => format!("{ranks}: r → r + 1, `axis` in −(r + 1)..=r"),
            Rule::Shape => format!("{ranks}: r → 1, of `out_type`"),
            Rule::Squeeze => format!("{ranks}: r → r − n for n axes of size 1"),
            Rule::Reshape => format!(
                "{ranks} and a list of n sizes (integers, one may be −1): r → n, n ≤ {MAX_RANK}"
            ),
            Rule::PerAxis => format!("{ranks} and a list of r integers: r → r"),
            Rule::Window => format!("{ranks} and two lists of r integers: r → r"),
            Rule::Join => format!("a list of 2–{MAX_LIST} tensors of {ranks}: r → r"),
            Rule::Split => format!("{ranks}: r → `num_split` tensors of rank r"),
            Rule::SplitSizes => format!("{ranks} and a list of n sizes: r → n tensors of rank r"),
            Rule::Unstack => format!("{ranks}: r → `num` tensors of rank r − 1"),
            Rule::TopK => format!("{ranks}: r → (values of rank r, int32 indices of rank r)"),
            Rule::Pad => format!("{ranks} and r pairs of integers: r → r"),
            Rule::Fill => format!(
                "a list of n sizes and a scalar: → n (n ≤ {MAX_RANK}); a literal is int32 or float32"
            ),
            Rule::Filled => format!("a list of n sizes: → n (n ≤ {MAX_RANK}), of `dtype`"),
            Rule::Clip => format!("{ranks} and two scalar bounds: r → r"),
            Rule::Sort => format!("{ranks}: r → r along `axis` (`argsort`: int32 indices)"),
            Rule::Eye => "a size n: → 2 (n × n), of `dtype`".to_owned(),
            Rule::Conv { .. } => format!(
                "{ranks} (NHWC; NWC at rank 3) × filters of its rank: → its rank"
            ),
            Rule::Pool { .. } => format!("{ranks} (NHWC; NWC at rank 3): → its rank"),
            Rule::Einsum { operands } => format!(
                "{operands} tensor{} of ranks 0–4 and an equation: → the rank its subscripts give",
                if operands == 1 { "" } else { "s" }
            ),
            Rule::Normalize => format!(
                "{ranks} and four statistics of ranks up to its own, broadcasting: r → r"
            ),
            Rule::Moments => format!(
                "{ranks}: r → (mean, variance), each r − n for n axes (r with `keepdims = true`)"
            ),
            Rule::Sequence => {
                "three scalars (start, limit, delta): → 1; literals alone are int32 or float32"
                    .to_owned()
            }
            Rule::OneHot => format!(
                "int32 or int64 indices of {ranks} and a depth: r → r + 1 (float32), `axis` in \
                 −(r + 1)..=r"
            ),
            Rule::Index => format!(
                "{ranks}, Python's index (`x[:, 0]`, `x[..., None]`): r → r − integers + `None`s"
            ),
            Rule::Stack => format!(
                "a list of 2–{MAX_LIST} tensors of {ranks}: r → r + 1, `axis` in −(r + 1)..=r"
            ),
            Rule::Gather => format!(
                "{ranks} × int32 or int64 indices of ranks 0–{MAX_RANK}: p × i → p − 1 + i − \
                 `batch_dims`, at most {MAX_RANK}"
            ),
            Rule::Select => format!(
                "{ranks}, broadcasting: bool c × a × b → max(c, a, b); a literal takes the \
                 other's type"
            ),
        }
    }

    /// The result rank for operands of `ranks` (each accepted) and, for a
    /// reduction, `axes` axes with `keepdims`.
    pub fn result_rank(self, ranks: &[u8], axes: usize, keepdims: bool) -> Option<u8> {
        let first = *ranks.first()?;
        match self {
            Rule::Broadcast | Rule::MatMul | Rule::Select => ranks.iter().copied().max(),
            // The list's length, given as `axes`.
            Rule::Reshape => u8::try_from(axes).ok().filter(|rank| *rank <= MAX_RANK),
            Rule::PerAxis
            | Rule::Window
            | Rule::Join
            | Rule::Split
            | Rule::SplitSizes
            | Rule::TopK => Some(first),
            Rule::Unstack => first.checked_sub(1),
            Rule::OneHot => first.checked_add(1).filter(|rank| *rank <= MAX_RANK),
            Rule::Pad => Some(first),
            // `axes` is the number of sizes.
            Rule::Fill | Rule::Filled => u8::try_from(axes).ok().filter(|rank| *rank <= MAX_RANK),
            Rule::Sequence => Some(1),
            Rule::Clip | Rule::Sort | Rule::Conv { .. } | Rule::Pool { .. } => Some(first),
            Rule::Normalize => ranks.iter().all(|rank| *rank <= first).then_some(first),
            // The equation gives it.
            Rule::Einsum { .. } => None,
            Rule::Eye => Some(2),
            Rule::Stack => first.checked_add(1).filter(|rank| *rank <= MAX_RANK),
            // `axes` is the number of axes dropped; none are added here.
            Rule::Index => first.checked_sub(u8::try_from(axes).ok()?),
            // `axes` is `batch_dims` here.
            Rule::Gather => {
                let indices = *ranks.get(1)?;
                let batch = u8::try_from(axes).ok()?;
                (first + indices)
                    .checked_sub(1 + batch)
                    .filter(|rank| *rank <= MAX_RANK && batch <= indices && batch < first)
            }
            Rule::SameRank { .. }
            | Rule::BiasAdd
            | Rule::AlongAxis
            | Rule::Permute
            | Rule::Convert => Some(first),
            Rule::Reduce | Rule::Moments if keepdims => Some(first),
            Rule::Moments => first.checked_sub(u8::try_from(axes).ok()?),
            Rule::Reduce => first.checked_sub(u8::try_from(axes).ok()?),
            Rule::ArgReduce => first.checked_sub(1),
            Rule::ExpandDims => first.checked_add(1).filter(|rank| *rank <= MAX_RANK),
            Rule::Shape => Some(1),
            Rule::Squeeze => first.checked_sub(u8::try_from(axes).ok()?),
        }
    }
}

/// Whether `axes` (each in `-rank..rank`, none named twice once negative
/// axes are counted from the end) fit a tensor of `rank`.
pub fn axes_fit(axes: &[i64], rank: u8) -> bool {
    let rank = i64::from(rank);
    let mut seen = [false; MAX_RANK as usize];
    for &axis in axes {
        let normalized = if axis < 0 { axis + rank } else { axis };
        let Ok(index) = usize::try_from(normalized) else {
            return false;
        };
        if normalized >= rank || seen.get(index).copied().unwrap_or(true) {
            return false;
        }
        seen[index] = true;
    }
    true
}

/// The ranks `axes` fit, as bits: bit `r − 1` set when they fit a tensor of
/// rank `r` (what `tf!` carries in a typed `axis`).
pub fn fits_mask(axes: &[i64]) -> u8 {
    (1..=MAX_RANK)
        .filter(|&rank| axes_fit(axes, rank))
        .fold(0, |mask, rank| mask | 1 << (rank - 1))
}

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
    /// The constant made from this keyword's value (see [`Becomes::Input`]).
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

/// How the runtime runs an op: its own TensorFlow op, or several composed
/// as TensorFlow's Python layer composes them (the same kernels in the same
/// order, so results are bitwise eager's). A composed op's `tf_op` names
/// its main kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Steps {
    /// The row's TensorFlow op.
    One,
    /// `tf.clip_by_value`: `Minimum` with the upper bound, then `Maximum`.
    Clip,
    /// `tf.sort` and `tf.argsort`: `TopKV2` over the whole axis, moved last
    /// and back, on the negated values when ascending.
    Sort,
    /// `tf.eye`: ones, then `MatrixDiagV3`.
    Eye,
    /// `tf.nn.gelu`: `0.5 * x * erfc(-x * √½)`, or with `approximate` the
    /// `tanh` form.
    Gelu,
    /// `tf.nn.silu`: `x * sigmoid(1 * x)`.
    Silu,
    /// Keras's `hard_sigmoid`: `relu6(x + 3) / 6`.
    HardSigmoid,
    /// `tf.nn.moments`: the mean (kept dims), the mean of the squared
    /// difference from it, both squeezed unless `keepdims`.
    Moments,
    /// `tf.math.reduce_variance`: the mean of the squared deviations.
    Variance,
    /// `tf.math.reduce_std`: the square root of the variance.
    Std,
    /// `tf.math.reduce_logsumexp`: the finite maximum taken out, the log of
    /// the sum of exponentials, the maximum added back.
    LogSumExp,
    /// `tf.math.l2_normalize`: `x * rsqrt(max(sum(x²), epsilon))`.
    L2Normalize,
    /// `tf.nn.batch_normalization`: `inv = rsqrt(variance + epsilon) *
    /// scale`, `x * inv + (offset - mean * inv)`.
    BatchNormalization,
    /// `tf.einsum`: for one or two operands one `Einsum` on the resolved
    /// equation, for three an `Einsum` per pair in the order `tf.einsum`
    /// takes ([`crate::einsum::order`]); after the runtime checks the ranks
    /// the equation gives.
    Einsum,
    /// A 1-D op run as this 2-D row on its input widened to height 1, the
    /// result narrowed back, as `tf.nn.conv1d` and `tf.nn.max_pool1d` do:
    /// `ExpandDims`, the 2-D op (each size `s` as `[1, s]`), `Squeeze`.
    Widened(&'static Op),
}

impl Steps {
    /// The TensorFlow ops it runs, for tables (`None`: the row's own op).
    pub fn ops(self) -> Option<String> {
        let text = match self {
            Steps::One => return None,
            Steps::Widened(op) => {
                return Some(format!(
                    "`ExpandDims`, `{}`, `Squeeze`",
                    op.tf_op.to_string_lossy()
                ))
            }
            Steps::Clip => Some("`Minimum`, `Maximum`"),
            Steps::Sort => Some("`TopKV2` (with `Neg`, `Sub` and `Transpose`, as `tf.sort`)"),
            Steps::Eye => Some("`Fill`, `MatrixDiagV3`"),
            Steps::Gelu => Some("`Mul`, `Neg`, `Erfc` (approximate: `Pow`, `AddV2`, `Tanh`)"),
            Steps::Silu => Some("`Mul`, `Sigmoid`"),
            Steps::HardSigmoid => Some("`AddV2`, `Relu6`, `RealDiv`"),
            Steps::Moments => Some("`Mean`, `SquaredDifference` (`Squeeze`)"),
            Steps::Variance => Some("`Mean`, `Sub`, `Square`"),
            Steps::Std => Some("`Mean`, `Sub`, `Square`, `Sqrt`"),
            Steps::LogSumExp => {
                Some("`Max`, `IsFinite`, `SelectV2`, `Sub`, `Exp`, `Sum`, `Log`, `AddV2`")
            }
            Steps::L2Normalize => Some("`Square`, `Sum`, `Maximum`, `Rsqrt`, `Mul`"),
            Steps::BatchNormalization => Some("`AddV2`, `Rsqrt`, `Mul`, `Sub`"),
            Steps::Einsum => Some("`Einsum`"),
        };
        text.map(str::to_owned)
    }
}

/// The kind of Python site a rule claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// A call such as `tf.matmul(a, b)`.
    Call,
    /// A binary operator such as `a + b`.
    Binop,
}

impl SiteKind {
    /// Rextio's name for the kind.
    pub const fn as_str(self) -> &'static str {
        match self {
            SiteKind::Call => "call",
            SiteKind::Binop => "binop",
        }
    }
}

/// How the Rextio plugin claims an op in typed Python: one rule record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PythonRule {
    /// The site kind.
    pub kind: SiteKind,
    /// Dotted call targets, canonical first (aliases after), or the operator.
    pub targets: &'static [&'static str],
    /// The rule record id.
    pub rule_id: &'static str,
    /// The number of its diagnostic code (`RXTP-RXTTF-<number>`).
    pub code: u16,
    /// What the rule requires, in words.
    pub constraint: &'static str,
    /// Keywords Python may also pass positionally after the operands, in
    /// order (`tf.reduce_sum(x, 0, True)`).
    pub positional: &'static [&'static str],
    /// Keywords only Python passes, accepted with one of their values and
    /// dropped when lowering (`data_format='NHWC'`).
    pub python_only: &'static [PythonKeyword],
    /// Whether a literal first operand keeps Python's type for it (int32
    /// for an int, float32 for a float) instead of taking the tensor's:
    /// `tf.add(2, x)` raises for a float32 `x`, where `2 + x` does not.
    pub leading_literal_keeps_its_type: bool,
}

/// A keyword only the Python form takes: accepted with one of `values`,
/// dropped when lowering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PythonKeyword {
    /// The keyword.
    pub name: &'static str,
    /// The accepted literal values.
    pub values: &'static [Value],
}

impl PythonRule {
    /// The diagnostic code, e.g. `RXTP-RXTTF-001`.
    pub fn diagnostic_code(&self) -> String {
        diagnostic_code(self.code)
    }
}

/// The diagnostic code of rule number `number`.
pub fn diagnostic_code(number: u16) -> String {
    format!("RXTP-RXTTF-{number:03}")
}

/// One op of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Op {
    /// Its name in `tf!`.
    pub name: &'static str,
    /// The binary operator `tf!` also accepts for it (`+` for `add`).
    pub operator: Option<&'static str>,
    /// One line saying what it computes.
    pub summary: &'static str,
    /// The TensorFlow op it executes.
    pub tf_op: &'static CStr,
    /// How it types operands and result.
    pub rule: Rule,
    /// The element types it takes (those TensorFlow's CPU kernels register).
    pub dtypes: &'static [DType],
    /// Its keywords, in the order `tf!` documents them.
    pub keywords: &'static [Keyword],
    /// Attributes it always sets.
    pub attrs: &'static [Attr],
    /// The kernel it runs above rank 2, if another.
    pub batched: Option<Batched>,
    /// Operand element types cast to another before it runs, if any.
    pub promotion: Option<Promotion>,
    /// The element type of its results whatever its operands' (`bool` for
    /// comparisons); `None`: the kernel's.
    pub result_type: Option<DType>,
    /// Keywords `tf!` also takes by position, after the operands, in this
    /// order (`cast(x, f32)`).
    pub positional: &'static [&'static str],
    /// The TensorFlow op's inputs, in order.
    pub inputs: &'static [Input],
    /// How its work grows with its inputs.
    pub work: Work,
    /// How the runtime runs it: its TensorFlow op, or several.
    pub steps: Steps,
    /// The Python forms the plugin lowers to it.
    pub python: &'static [PythonRule],
}

impl Op {
    /// The element type its kernel runs on for operands of `operand`: the
    /// promoted one where the op promotes it.
    pub fn kernel_element(&self, operand: DType) -> DType {
        match self.promotion {
            Some(promotion) if promotion.from.contains(&operand) => promotion.to,
            _ => operand,
        }
    }

    /// The element type of its result for operands of `operand`.
    pub fn result_element(&self, operand: DType) -> DType {
        self.result_type
            .unwrap_or_else(|| self.kernel_element(operand))
    }

    /// Its name in messages: its name in `tf!`, which picks the rows
    /// `einsum_one` and `einsum_three` for `einsum` by operand count.
    pub fn called(&self) -> &'static str {
        match self.rule {
            Rule::Einsum { .. } => crate::ops::EINSUM.name,
            _ => self.name,
        }
    }

    /// The number of operands.
    pub fn arity(&self) -> usize {
        self.rule.arity()
    }

    /// The name of the op's marker type in the runtime's typed dispatch
    /// (`MatmulOp`, `ReduceMeanOp`): unique, so compile errors print it
    /// without a path.
    pub fn marker_name(&self) -> String {
        let camel: String = self
            .name
            .split('_')
            .map(|part| {
                let mut chars = part.chars();
                chars
                    .next()
                    .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                    .unwrap_or_default()
            })
            .collect();
        format!("{camel}Op")
    }

    /// Names for the operands in documentation: `x`, or `a`, `b`, ….
    pub fn operand_names(&self) -> Vec<String> {
        match self.arity() {
            1 => vec!["x".to_owned()],
            arity => ["a", "b", "c", "d", "e"]
                .iter()
                .take(arity)
                .map(|name| (*name).to_owned())
                .collect(),
        }
    }

    /// The keyword named `name`.
    pub fn keyword(&self, name: &str) -> Option<&'static Keyword> {
        self.keywords.iter().find(|k| k.name == name)
    }

    /// The typed keywords, in order.
    pub fn typed_keywords(&self) -> impl Iterator<Item = &'static Keyword> {
        self.keywords.iter().filter(|k| k.typed)
    }

    /// The accepted operands, for messages: `float32, int32 or int64 at
    /// ranks 0–4`.
    pub fn operands_text(&self) -> String {
        let types: Vec<String> = self.dtypes.iter().map(|d| d.name().to_owned()).collect();
        let positions: Vec<String> = (0..self.arity())
            .filter(|position| !matches!(self.rule.role(*position), Role::Dims | Role::Pairs))
            .map(|position| {
                let ranks = match self.rule.ranks(position) {
                    (low, high) if low == high => format!("rank {low}"),
                    (low, high) => format!("ranks {low}–{high}"),
                };
                match self.rule.role(position) {
                    Role::Indices => format!("int32 or int64 indices of {ranks}"),
                    _ => ranks,
                }
            })
            .collect();
        let mut ranks = positions.clone();
        ranks.dedup();
        let condition = match (0..self.arity()).any(|p| self.rule.role(p) == Role::Condition) {
            true => "a bool condition, then ",
            false => "",
        };
        let tensors = match (0..self.arity()).any(|p| self.rule.role(p) == Role::Tensors) {
            true => format!("a list of 2–{MAX_LIST} tensors of "),
            false => String::new(),
        };
        let list = match (0..self.arity())
            .any(|p| matches!(self.rule.role(p), Role::Dims | Role::Pairs))
        {
            true => ", and a list of integers",
            false => "",
        };
        format!(
            "{condition}{tensors}{} at {}{list}",
            join_or(&types),
            ranks.join(" × ")
        )
    }
}

/// "a", "a or b", "a, b or c".
pub fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
