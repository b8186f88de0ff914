//! Planning one op call: the TensorFlow op of the row (or its batched
//! kernel), the element type, its attributes and inputs, and the axis moved
//! last for ops that work on the last axis only. Pure: nothing runs here.

use std::borrow::Cow;
use std::ffi::CStr;
use std::sync::Arc;

use rxt_tf_spec::{
    AttrValue, Becomes, DType, Input as RowInput, Op, Role, Rule, TensorKind, Value, MAX_LIST,
    MAX_RANK,
};

use crate::binding::context::BoundContext;
use crate::eager::{kept, malformed};
use crate::error::{Error, Result};
use crate::safe::host::Number;
use crate::tensor::Untyped;

/// One operand of a call.
#[derive(Clone, Copy)]
pub enum Operand<'a> {
    /// A tensor, with the kind its type gives it.
    Tensor(&'a Untyped, TensorKind),
    /// A run-time scalar of an element type.
    Scalar(DType, Number),
    /// A literal of `tf!`: it takes the call's element type.
    Literal(Number),
    /// A list of integers known at run time (sizes, multiples): a rank-1
    /// int64 input.
    Dims(&'a [i64]),
    /// A list of tensors of one kind (`concat`'s): one list input.
    List(&'a [&'a Untyped], TensorKind),
    /// Pairs of integers known at run time (paddings): an `[n, 2]` int64
    /// input.
    Pairs(&'a [[i64; 2]]),
}

impl Operand<'_> {
    /// The tensor, unless the input is a scalar.
    pub(crate) fn tensor(&self) -> Option<&Untyped> {
        match self {
            Operand::Tensor(tensor, _) => Some(tensor),
            _ => None,
        }
    }

    /// Its tensors: the tensor, or those of a list.
    pub(crate) fn tensors(&self) -> &[&Untyped] {
        match self {
            Operand::Tensor(tensor, _) => std::slice::from_ref(tensor),
            Operand::List(tensors, _) => tensors,
            _ => &[],
        }
    }

    /// The rank (0 for a scalar).
    fn rank(&self) -> u8 {
        match self {
            Operand::Tensor(_, kind) | Operand::List(_, kind) => kind.rank,
            Operand::Dims(_) => 1,
            Operand::Pairs(_) => 2,
            _ => 0,
        }
    }

    /// The element type, unless it is a literal.
    fn dtype(&self) -> Option<DType> {
        match self {
            Operand::Tensor(_, kind) | Operand::List(_, kind) => Some(kind.dtype),
            Operand::Scalar(dtype, _) => Some(*dtype),
            Operand::Literal(_) | Operand::Dims(_) | Operand::Pairs(_) => None,
        }
    }
}

/// One input of the TensorFlow op, in its order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Slot {
    /// Operand `n` of the call.
    Operand(usize),
    /// These operands of the call, as one list input.
    Operands(&'static [usize]),
    /// A keyword's value as a tensor of this element type: a constant of
    /// the trace, or (`true`) an input, when the value was given at run
    /// time (see [`PlannedOp::runtime`]).
    Constant(Value, DType, bool),
}

/// One op call, planned: what TensorFlow runs for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlannedOp {
    /// The row.
    pub(crate) row: &'static Op,
    /// The TensorFlow op.
    pub(crate) tf_op: &'static CStr,
    /// The element type the kernel runs on (and the result's).
    pub(crate) element: DType,
    /// The element type of the operands: `element`, unless the row
    /// promotes it (each tensor operand is cast to `element` first).
    pub(crate) operand_element: DType,
    /// Whether the row's batched kernel runs.
    batched: bool,
    /// The rank of the first operand.
    rank: u8,
    /// The permutation that moves the op's axis last (and back), when the
    /// op works on the last axis only and another was asked for.
    pub(crate) swap: Option<&'static [i64]>,
    /// The element type of the indices operand (`gather`), else `int32`.
    index_element: DType,
    /// The number of tensors of its list operand (`concat`), else 0.
    pub(crate) list_length: usize,
    /// The keywords (bit `i` for the row's keyword `i`) whose values were
    /// given at run time (axes from Rust values): those that become inputs
    /// of the op are inputs of a fused trace, not part of its key.
    pub(crate) runtime: u32,
}

impl PartialEq for PlannedOp {
    /// The same plan: the same row (by address) planned alike.
    fn eq(&self, other: &PlannedOp) -> bool {
        std::ptr::eq(self.row, other.row)
            && std::ptr::eq(self.tf_op, other.tf_op)
            && self.element == other.element
            && self.operand_element == other.operand_element
            && self.batched == other.batched
            && self.rank == other.rank
            && self.swap == other.swap
            && self.index_element == other.index_element
            && self.list_length == other.list_length
            && self.runtime == other.runtime
    }
}

impl PlannedOp {
    /// Plans `row` on `operands` with `keywords` (one value per row keyword,
    /// in order), checking the values against the operands' ranks: `tf!`
    /// checked them at compile time, the plain functions of
    /// `rxt_tf::ops` pass them at run time.
    pub(crate) fn plan(
        row: &'static Op,
        operands: &[Operand<'_>],
        keywords: &[Value],
    ) -> Result<PlannedOp> {
        check_keywords(row, keywords)?;
        if row.rule == Rule::Index {
            check_index(row, operands, keywords)?;
        }
        if operands.len() != row.arity() {
            return Err(malformed(row));
        }
        // The element type is the operands' (a condition's is `bool`).
        let operand_element = operands
            .iter()
            .enumerate()
            .filter(|(position, _)| {
                matches!(row.rule.role(*position), Role::Element | Role::Tensors)
            })
            .find_map(|(_, input)| input.dtype())
            .or_else(|| created_element(row, operands, keywords))
            .ok_or_else(|| malformed(row))?;
        let element = row.kernel_element(operand_element);
        let index_element = operands
            .iter()
            .enumerate()
            .filter(|(position, _)| row.rule.role(*position) == Role::Indices)
            .find_map(|(_, input)| input.dtype())
            .unwrap_or(DType::I32);
        let list_length = match operands
            .iter()
            .find(|input| matches!(input, Operand::List(..)))
        {
            Some(list) if !(2..=MAX_LIST).contains(&list.tensors().len()) => {
                return Err(Error::Keyword {
                    op: row.name,
                    message: format!(
                        "takes a list of 2 to {MAX_LIST} tensors, got {}",
                        list.tensors().len()
                    ),
                })
            }
            Some(list) => list.tensors().len(),
            // Operands taken as one list input (`einsum`'s), or a list of
            // integers (`split_v`'s sizes).
            None => operands_list(row)
                .or_else(|| {
                    operands.iter().find_map(|input| match input {
                        Operand::Dims(dims) => Some(dims.len()),
                        _ => None,
                    })
                })
                .unwrap_or(0),
        };
        let rank = operands.first().map_or(0, Operand::rank);
        let batched = row.batched.is_some() && operands.iter().any(|input| input.rank() > 2);
        let mut swap = None;
        for (keyword, value) in row.keywords.iter().zip(keywords) {
            match (keyword.becomes, value) {
                (Becomes::LastAxis, Value::Int(axis)) => {
                    let axis = fitting_axis(row, keyword.name, &[*axis], rank)?;
                    if axis + 1 != usize::from(rank) {
                        swap = Some(kept::swapped(rank, axis));
                    }
                }
                (_, Value::Int(_) | Value::Ints(_))
                    if keyword.kind == rxt_tf_spec::ValueKind::Axes
                        || (keyword.typed && keyword.kind == rxt_tf_spec::ValueKind::Int) =>
                {
                    let axes: &[i64] = match value {
                        Value::Int(axis) => std::slice::from_ref(axis),
                        Value::Ints(axes) => axes,
                        _ => &[],
                    };
                    fitting_axis(row, keyword.name, axes, row.rule.axes_rank(rank))?;
                }
                (_, Value::Ints(perm)) if keyword.kind == rxt_tf_spec::ValueKind::Ints => {
                    check_permutation(row, perm, rank)?;
                }
                _ => {}
            }
        }
        Ok(PlannedOp {
            row,
            tf_op: match (batched, row.batched) {
                (true, Some(kernel)) => kernel.tf_op,
                _ => row.tf_op,
            },
            element,
            operand_element,
            index_element,
            list_length,
            batched,
            rank,
            swap,
            runtime: 0,
        })
    }

    /// Whether the value of its axis moved last (its swap's permutation)
    /// was given at run time: the permutation is then an input.
    pub(crate) fn swap_given_at_run_time(&self) -> bool {
        self.row
            .keywords
            .iter()
            .enumerate()
            .any(|(index, keyword)| {
                keyword.becomes == Becomes::LastAxis && is_set(self.runtime, index)
            })
    }

    /// Whether its tensor operands are cast to `element` first.
    pub(crate) fn promotes(&self) -> bool {
        self.element != self.operand_element
    }

    /// The cast of a tensor of `from`s (its keyword value, the target type,
    /// is [`PlannedOp::cast_keywords`]).
    pub(crate) fn cast(from: DType) -> PlannedOp {
        PlannedOp {
            row: &rxt_tf_spec::ops::CAST,
            tf_op: rxt_tf_spec::ops::CAST.tf_op,
            element: from,
            operand_element: from,
            index_element: DType::I32,
            list_length: 0,
            batched: false,
            rank: 0,
            swap: None,
            runtime: 0,
        }
    }

    /// The keyword values of the cast of this call's tensor operands.
    pub(crate) fn cast_keywords(&self) -> [Value; 1] {
        [Value::Type(self.element)]
    }

    /// The transpose that moves an axis by `perm`, on `element`s.
    pub(crate) fn transpose(element: DType, perm: &'static [i64]) -> PlannedOp {
        PlannedOp {
            row: &rxt_tf_spec::ops::TRANSPOSE,
            tf_op: rxt_tf_spec::ops::TRANSPOSE.tf_op,
            element,
            operand_element: element,
            index_element: DType::I32,
            list_length: 0,
            batched: false,
            rank: u8::try_from(perm.len()).unwrap_or(MAX_RANK),
            swap: None,
            runtime: 0,
        }
    }

    /// The attributes of the call with `keywords`: its fixed ones, then
    /// those its keywords become.
    pub(crate) fn attributes<'k>(
        &self,
        keywords: &'k [Value],
    ) -> impl Iterator<Item = (&'static CStr, Value)> + 'k {
        let (element, index_element) = (self.element, self.index_element);
        let list_length = i64::try_from(self.list_length).unwrap_or(i64::MAX);
        let (attrs, renames) = match (self.batched, self.row.batched) {
            (true, Some(kernel)) => (kernel.attrs, kernel.keyword_attrs),
            _ => (self.row.attrs, &[][..]),
        };
        let fixed = attrs.iter().map(move |attr| {
            let value = match attr.value {
                AttrValue::Fixed(value) => value,
                AttrValue::Element => Value::Type(element),
                AttrValue::Indices => Value::Type(index_element),
                AttrValue::ListLength => Value::Int(list_length),
            };
            (attr.name, value)
        });
        let keyword = self
            .row
            .keywords
            .iter()
            .zip(keywords)
            .enumerate()
            .filter_map(move |(index, (keyword, value))| match keyword.becomes {
                Becomes::Attr(attr) => Some((
                    renames.get(index).copied().unwrap_or(attr),
                    list_attr(keyword, *value),
                )),
                Becomes::Spatial(attr) => Some((attr, spatial_attr(keyword.kind, *value))),
                _ => None,
            });
        fixed.chain(keyword)
    }

    /// The inputs of the call with `keywords`, in the op's order.
    pub(crate) fn inputs<'k>(
        &self,
        keywords: &'k [Value],
    ) -> impl Iterator<Item = Result<Slot>> + 'k {
        let (row, rank, element, runtime) = (self.row, self.rank, self.element, self.runtime);
        row.inputs.iter().map(move |input| match *input {
            RowInput::Operand(index) => Ok(Slot::Operand(index)),
            RowInput::Operands(indices) => Ok(Slot::Operands(indices)),
            RowInput::Keyword(name) => {
                let index = row
                    .keywords
                    .iter()
                    .position(|k| k.name == name)
                    .ok_or_else(|| malformed(row))?;
                let keyword = &row.keywords[index];
                let dtype = match keyword.becomes {
                    Becomes::Input(dtype) => dtype,
                    Becomes::ElementInput => element,
                    _ => return Err(malformed(row)),
                };
                let given_at_run_time = is_set(runtime, index);
                match keywords.get(index) {
                    // An empty permutation: the axes reversed.
                    Some(Value::Ints([])) => Ok(Slot::Constant(
                        Value::Ints(kept::reversed(rank)),
                        dtype,
                        given_at_run_time,
                    )),
                    // Axes are a list (`ReverseV2` takes no scalar axis).
                    Some(value) => Ok(Slot::Constant(
                        list_attr(keyword, *value),
                        dtype,
                        given_at_run_time,
                    )),
                    None => Err(malformed(row)),
                }
            }
        })
    }
}

/// The context of `row`'s call on `operands` (their tensors', which must
/// all share it) and the call planned with `keywords`: what running or
/// recording the op starts from.
pub(crate) fn plan<'a>(
    row: &'static Op,
    operands: &'a [Operand<'_>],
    keywords: &[Value],
) -> Result<(Cow<'a, Arc<BoundContext>>, PlannedOp)> {
    let context = shared_context(row, operands)?;
    let call = PlannedOp::plan(row, operands, keywords)?;
    Ok((context, call))
}

/// The context of the operands' tensors, which must all share it.
fn shared_context<'a>(row: &Op, operands: &'a [Operand<'_>]) -> Result<Cow<'a, Arc<BoundContext>>> {
    let mut tensors = operands.iter().flat_map(Operand::tensors);
    let Some(first) = tensors.next() else {
        // An op that makes a tensor from none (`zeros`): Python's context.
        return pyo3::Python::attach(BoundContext::current).map(Cow::Owned);
    };
    if tensors.any(|tensor| !Arc::ptr_eq(&tensor.context, &first.context)) {
        return Err(Error::MixedContexts { op: row.name });
    }
    Ok(Cow::Borrowed(&first.context))
}

/// Every keyword value present and of the kind its keyword takes.
fn check_keywords(row: &'static Op, keywords: &[Value]) -> Result<()> {
    if keywords.len() != row.keywords.len() {
        return Err(malformed(row));
    }
    for (keyword, value) in row.keywords.iter().zip(keywords) {
        if !keyword.accepts(value) {
            return Err(Error::Keyword {
                op: row.name,
                message: format!(
                    "`{} = {}` is not supported; `{}` must be {}",
                    keyword.name,
                    value.rust(),
                    keyword.name,
                    keyword.allowed_text()
                ),
            });
        }
    }
    Ok(())
}

/// The element type of a call no operand gives it to: the typed `dtype`
/// that only types the call (`zeros`), the row's result type (`one_hot`),
/// or its literals' as Python's numbers are (int32, or float32 if one is a
/// float: `fill(dims, 0.5)`, `range(0, 10, 2)`).
fn created_element(row: &Op, operands: &[Operand<'_>], keywords: &[Value]) -> Option<DType> {
    let typing = row
        .keywords
        .iter()
        .zip(keywords)
        .find_map(|(keyword, value)| match (keyword.becomes, value) {
            (Becomes::Typing, Value::Type(dtype)) => Some(*dtype),
            _ => None,
        });
    let literals = operands.iter().filter_map(|input| match input {
        Operand::Literal(number) => Some(number),
        _ => None,
    });
    let literal = literals.fold(None, |found, number| match (found, number) {
        (_, Number::Float(_)) | (Some(DType::F32), _) => Some(DType::F32),
        _ => Some(DType::I32),
    });
    typing.or(row.result_type).or(literal)
}

/// An index's lists have one length, and its masks agree with the counts
/// that typed its result (the plain function takes both from its caller).
fn check_index(row: &'static Op, operands: &[Operand<'_>], keywords: &[Value]) -> Result<()> {
    let value = |name: &str| {
        let index = row.keywords.iter().position(|k| k.name == name);
        match index.and_then(|index| keywords.get(index)) {
            Some(Value::Int(value)) => u64::try_from(*value).ok(),
            _ => None,
        }
    };
    let lengths: Vec<usize> = operands
        .iter()
        .filter_map(|input| match input {
            Operand::Dims(list) => Some(list.len()),
            _ => None,
        })
        .collect();
    let length = lengths.first().copied().unwrap_or(0);
    let [ellipsis, new, shrink] = ["ellipsis_mask", "new_axis_mask", "shrink_axis_mask"]
        .map(|name| value(name).map_or(u32::MAX, u64::count_ones));
    let consistent = lengths.len() == 3
        && lengths.iter().all(|l| *l == length)
        && [
            "begin_mask",
            "end_mask",
            "ellipsis_mask",
            "new_axis_mask",
            "shrink_axis_mask",
        ]
        .iter()
        .all(|name| value(name).is_some_and(|mask| mask >> length.min(63) == 0))
        && ellipsis <= 1
        && value("shrink_axes") == Some(u64::from(shrink))
        && value("new_axes") == Some(u64::from(new))
        && value("indexed_axes")
            == u64::try_from(length)
                .ok()
                .and_then(|l| l.checked_sub(u64::from(ellipsis) + u64::from(new)));
    if consistent {
        return Ok(());
    }
    Err(Error::Keyword {
        op: row.name,
        message: "the index's lists and masks do not agree with its counts (`indexed_axes`, \
                  `shrink_axes`, `new_axes`)"
            .to_owned(),
    })
}

/// The number of operands the row takes as one list input, if any.
fn operands_list(row: &Op) -> Option<usize> {
    row.inputs.iter().find_map(|input| match input {
        RowInput::Operands(indices) => Some(indices.len()),
        _ => None,
    })
}

/// The first of `axes`, counted from the front, if they fit `rank`.
///
/// Axes are checked here only when known at run time (`tf!` checks
/// literals at compile time); like eager TensorFlow's kernels, an axis out
/// of range fails the op with `InvalidArgumentError`.
fn fitting_axis(row: &Op, name: &str, axes: &[i64], rank: u8) -> Result<usize> {
    rxt_tf_spec::axes::first_fitting(axes, rank).ok_or_else(|| Error::Op {
        op: row.name,
        code: crate::error::code::INVALID_ARGUMENT,
        message: format!(
            "`{name} = {axes:?}` does not fit a rank-{rank} tensor: each axis is in \
             -{rank}..{rank}, once"
        ),
    })
}

/// `perm` is empty (the axes reversed) or a permutation of `0..rank`
/// (else `InvalidArgumentError`, as eager's `Transpose` fails).
fn check_permutation(row: &Op, perm: &[i64], rank: u8) -> Result<()> {
    if perm.is_empty() || rxt_tf_spec::axes::is_permutation(perm, rank) {
        return Ok(());
    }
    Err(Error::Op {
        op: row.name,
        code: crate::error::code::INVALID_ARGUMENT,
        message: format!("`perm = {perm:?}` is not a permutation of the {rank} axes"),
    })
}

/// A spatial keyword's value as its list attribute: of a
/// [`Spatial`](rxt_tf_spec::ValueKind::Spatial) keyword (one size for both
/// axes, or a pair), the NHWC `[1, h, w, 1]`; of a
/// [`Volume`](rxt_tf_spec::ValueKind::Volume) keyword (one size for all
/// three axes, or a triple), the NDHWC `[1, d, h, w, 1]`. A value of another
/// shape is passed on for TensorFlow to refuse (`check_keywords` refuses it
/// first).
fn spatial_attr(kind: rxt_tf_spec::ValueKind, value: Value) -> Value {
    let axes = if kind == rxt_tf_spec::ValueKind::Volume {
        3
    } else {
        2
    };
    // `[1, sizes…, 1]`, one size per spatial axis.
    let mut list = [1_i64; 5];
    match value {
        Value::Int(size) | Value::Ints(&[size]) => list[1..=axes].fill(size),
        Value::Ints(sizes) if sizes.len() == axes => list[1..=axes].copy_from_slice(sizes),
        other => return other,
    }
    Value::Ints(kept::list(&list[..axes + 2]))
}

/// An axes keyword's single axis as a list of one, as list attributes
/// (`squeeze_dims`) and rank-1 axis inputs take it.
fn list_attr(keyword: &rxt_tf_spec::Keyword, value: Value) -> Value {
    match (keyword.kind, value) {
        // The equation `tf.einsum` passes on: resolved, kept once.
        (rxt_tf_spec::ValueKind::Equation, Value::Str(equation)) => {
            Value::Str(kept::equation(equation))
        }
        (rxt_tf_spec::ValueKind::Axes, Value::Int(axis)) => {
            kept::single_axis(axis).map_or(value, Value::Ints)
        }
        _ => value,
    }
}

/// Whether bit `index` of `mask` is set.
pub(crate) fn is_set(mask: u32, index: usize) -> bool {
    u32::try_from(index)
        .ok()
        .and_then(|index| mask.checked_shr(index))
        .is_some_and(|bits| bits & 1 == 1)
}
