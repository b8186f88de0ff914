//! `einsum` of one, two and three operands.

use super::build::{FLOATS, T};
use crate::model::{Attr, AttrValue, Becomes, Input, Keyword, Op, Rule, Steps, ValueKind, Work};

/// The equation of `einsum`: typed by the ranks its subscripts give.
const EQUATION: Keyword = Keyword {
    name: "equation",
    kind: ValueKind::Equation,
    allowed: &[],
    default: None,
    becomes: Becomes::Attr(c"equation"),
    typed: true,
};

/// `einsum("bqhd,bkhd->bhqk", a, b)`: two tensors contracted by an
/// equation, as `tf.einsum` runs it (one `Einsum`).
pub const EINSUM: Op = Op {
    name: "einsum",
    operator: None,
    summary: "two tensors contracted by an einsum equation (`einsum(\"ij,jk->ik\", a, b)`)",
    tf_op: c"Einsum",
    rule: Rule::Einsum { operands: 2 },
    dtypes: FLOATS,
    keywords: &[EQUATION],
    attrs: &[
        T,
        Attr {
            name: c"N",
            value: AttrValue::ListLength,
        },
    ],
    batched: None,
    promotion: None,
    result_type: None,
    positional: &[],
    inputs: &[Input::Operands(&[0, 1])],
    work: Work::FirstInput,
    steps: Steps::Einsum,
    // Rextio offers no site with a string before the tensors it types:
    // `tf.einsum` stays on Python.
    python: &[],
};

/// `einsum("ij->ji", x)` in `tf!` (this row's own name is `einsum_one`):
/// one tensor rearranged, traced or summed by an equation.
pub const EINSUM_ONE: Op = Op {
    name: "einsum_one",
    summary: "one tensor by an einsum equation (`einsum(\"ij->j\", x)` in `tf!`)",
    rule: Rule::Einsum { operands: 1 },
    inputs: &[Input::Operands(&[0])],
    ..EINSUM
};

/// `einsum("ij,jk,kl->il", a, b, c)` in `tf!` (this row's own name is
/// `einsum_three`): three tensors contracted pairwise, in the order
/// `tf.einsum` takes for their sizes ([`crate::einsum::order`]).
pub const EINSUM_THREE: Op = Op {
    name: "einsum_three",
    summary: "three tensors contracted by an einsum equation, pairwise \
              (`einsum(\"ij,jk,kl->il\", a, b, c)` in `tf!`)",
    rule: Rule::Einsum { operands: 3 },
    inputs: &[Input::Operands(&[0, 1, 2])],
    ..EINSUM
};
