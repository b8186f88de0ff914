//! Typing rules: how an op types its operands and result, by rank and role,
//! and the axis checks they share.

use super::dtype::{DType, INDEX_DTYPES, MAX_RANK};

/// How an op types its operands and result: one rule for every element
/// type of [`Op::dtypes`](crate::model::Op::dtypes) and every rank it
/// allows. The runtime implements each rule once, generically
/// (`ops::rules`), the macros derive the typed keywords from it, and the
/// code generator expands it for the guide's op reference and the Rextio
/// plugin.
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
    /// its [`Op::batched`](crate::model::Op::batched) kernel.
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
    /// ([`Becomes::LastAxis`](crate::model::Becomes::LastAxis)), another is moved there and back.
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
    /// An image (`rank` 4, NHWC; 3 for the 1-D forms, NWC; 5 for the 3-D
    /// forms, NDHWC) and filters of the same rank and element type: the
    /// result has the image's type.
    Conv {
        /// The rank of both operands.
        rank: u8,
    },
    /// A window over an image (`rank` 4, NHWC; 3 for the 1-D forms, NWC; 5
    /// for the 3-D forms, NDHWC): the result has its type.
    Pool {
        /// The image's rank.
        rank: u8,
    },
    /// The mean and the variance of a tensor of rank 1 to `MAX_RANK` over
    /// the typed keyword `axes`: a pair of tensors of its type, each losing
    /// those axes unless the typed keyword `keepdims` is `true`.
    Moments,
    /// Two tensors of ranks 0 to `MAX_RANK` and one element type contracted
    /// over the typed keyword `axes` (a count, or a pair of axis lists): the
    /// result has the free axes of the first, then of the second.
    Contract,
    /// An NHWC image (rank 4) and four rank-1 per-channel statistics of its
    /// element type (scale, offset, mean, variance): the result has the
    /// image's type.
    FusedNormalize,
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
    /// A tensor of the call's element type (one of
    /// [`Op::dtypes`](crate::model::Op::dtypes)), or where the rule takes
    /// them a literal.
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

impl Role {
    /// The element types a tensor in this role must have whatever the op's
    /// element type (`None` where it is the op's own, or no tensor).
    pub fn fixed_dtypes(self) -> Option<&'static [DType]> {
        match self {
            Role::Condition => Some(&[DType::Bool]),
            Role::Indices => Some(INDEX_DTYPES),
            Role::Element | Role::Dims | Role::Tensors | Role::Size | Role::Pairs => None,
        }
    }
}

/// The most tensors a list operand holds.
pub const MAX_LIST: usize = 8;

impl Rule {
    /// The number of operands.
    #[inline]
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
            | Rule::Conv { .. }
            | Rule::Contract => 2,
            Rule::Window => 3,
            Rule::Normalize | Rule::FusedNormalize => 5,
            Rule::Einsum { operands } => operands as usize,
            Rule::Index => 4,
            _ => 1,
        }
    }

    /// The ranks accepted at operand `position` (from 0).
    #[inline]
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
            (Rule::Normalize | Rule::Einsum { .. } | Rule::Contract, _) => (0, MAX_RANK),
            (Rule::Eye, _) => (0, 0),
            (Rule::FusedNormalize, 0) => (4, 4),
            (Rule::FusedNormalize, _) => (1, 1),
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
    #[inline]
    pub const fn axes_rank(self, rank: u8) -> u8 {
        match self {
            Rule::ExpandDims | Rule::Stack | Rule::OneHot => rank.saturating_add(1),
            _ => rank,
        }
    }

    /// Whether a literal (or run-time scalar) may stand for an operand of
    /// the call's element type.
    #[inline]
    pub const fn takes_literals(self) -> bool {
        matches!(
            self,
            Rule::Broadcast | Rule::Select | Rule::Fill | Rule::Sequence | Rule::Clip
        )
    }

    /// Whether a literal (or run-time scalar) may stand for operand
    /// `position`: where the op takes literals, any operand of the element
    /// type but the tensor `clip_by_value` clips.
    #[inline]
    pub const fn takes_literal_at(self, position: usize) -> bool {
        self.takes_literals()
            && matches!(self.role(position), Role::Element)
            && !matches!((self, position), (Rule::Clip, 0))
    }

    /// Whether the op makes a new tensor, from no tensor operand.
    #[inline]
    pub const fn creates(self) -> bool {
        matches!(self, Rule::Fill | Rule::Filled | Rule::Sequence | Rule::Eye)
    }

    /// What operand `position` (from 0) holds.
    #[inline]
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
    #[inline]
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
            Rule::Contract => "contract",
            Rule::FusedNormalize => "fused-normalize",
        }
    }

    /// The rule in words, for the op reference (`r → r`, `a × b → max(a, b)`).
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
                "{ranks} (NHWC; NWC at rank 3, NDHWC at rank 5) × filters of its rank: → its rank"
            ),
            Rule::Pool { .. } => format!("{ranks} (NHWC; NWC at rank 3, NDHWC at rank 5): → its rank"),
            Rule::Einsum { operands } => format!(
                "{operands} tensor{} of ranks 0–{MAX_RANK} and an equation: → the rank its subscripts give",
                if operands == 1 { "" } else { "s" }
            ),
            Rule::Normalize => format!(
                "{ranks} and four statistics of ranks up to its own, broadcasting: r → r"
            ),
            Rule::Moments => format!(
                "{ranks}: r → (mean, variance), each r − n for n axes (r with `keepdims = true`)"
            ),
            Rule::FusedNormalize => {
                format!("{ranks} (NHWC) and four rank-1 statistics of its channels: → 4")
            }
            Rule::Contract => format!(
                "{ranks} × {ranks}, n axes contracted: a × b → a + b − 2n, at most {MAX_RANK}"
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
            Rule::Clip
            | Rule::Sort
            | Rule::Conv { .. }
            | Rule::Pool { .. }
            | Rule::FusedNormalize => Some(first),
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
            // `axes` is the number of axes contracted on each side.
            Rule::Contract => {
                let second = *ranks.get(1)?;
                let contracted = u8::try_from(axes).ok()?;
                (first + second)
                    .checked_sub(2 * contracted)
                    .filter(|rank| *rank <= MAX_RANK && contracted <= first.min(second))
            }
            Rule::ExpandDims => first.checked_add(1).filter(|rank| *rank <= MAX_RANK),
            Rule::Shape => Some(1),
            Rule::Squeeze => first.checked_sub(u8::try_from(axes).ok()?),
        }
    }
}
