//! `einsum`: the equation checked against the ranks, and three operands
//! contracted pairwise in the order `tf.einsum` takes.

use rxt_tf_spec::ops::EINSUM;
use rxt_tf_spec::{Op, TensorKind, Value};

use crate::eager::{kept, malformed};
use crate::error::Result;
use crate::ops::record_or_run::{run_row, Operand};
use crate::ops::typed::Outputs;
use crate::tensor::Untyped;

use super::step;

/// `tf.einsum`, once the equation's subscripts are checked against the
/// operands' ranks and the result's (the plain function takes those from
/// its caller): the one place the equation is parsed on a call. One or two
/// operands are one `Einsum` on the resolved equation; three are
/// contracted pairwise ([`pairwise`]).
pub(super) fn einsum<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let [Value::Str(equation)] = keywords else {
        return Err(malformed(row));
    };
    let refused = |message| crate::Error::Keyword {
        op: row.called(),
        message,
    };
    let parsed = rxt_tf_spec::einsum::parse(equation, inputs.len()).map_err(refused)?;
    let ranks: Vec<u8> = inputs
        .iter()
        .map(|input| match input {
            Operand::Tensor(_, kind) => kind.rank,
            _ => u8::MAX,
        })
        .collect();
    let result: Vec<u8> = O::kinds().iter().map(|kind| kind.rank).collect();
    match parsed.result_rank(&ranks) {
        None => Err(refused(format!(
            "`{equation}` does not fit operands of ranks {ranks:?}"
        ))),
        Some(rank) if result != [rank] => Err(refused(format!(
            "`{equation}` gives a result of rank {rank}, not {result:?}"
        ))),
        Some(_) if inputs.len() > 2 => pairwise(row, &parsed, inputs),
        // Under the name `einsum`, whichever row runs it.
        Some(_) => O::run(step(row, row), inputs, keywords),
    }
}

/// An operand still to contract: given by the caller, or made by an
/// earlier contraction (by index).
#[derive(Clone, Copy)]
enum Contracted {
    Given(usize),
    Made(usize),
}

/// `tf.einsum` of three operands: an `Einsum` per pair, in the order and
/// on the equations `tf.einsum` takes for the operands' shapes
/// (`rxt_tf_spec::einsum::order`), so results are bitwise its own. The
/// order depends on the shapes, which are read: in a fusing scope what was
/// recorded runs first, and the pairs run per op.
fn pairwise<O: Outputs>(
    row: &'static Op,
    parsed: &rxt_tf_spec::einsum::Equation,
    inputs: &[Operand<'_>],
) -> Result<O> {
    let _per_op = crate::fused::Scope::per_op();
    let mut shapes = Vec::with_capacity(inputs.len());
    let mut left = Vec::with_capacity(inputs.len());
    for (index, input) in inputs.iter().enumerate() {
        let Operand::Tensor(tensor, kind) = input else {
            return Err(malformed(row));
        };
        shapes.push(tensor.shape(usize::from(kind.rank))?);
        left.push((Contracted::Given(index), *kind));
    }
    let views: Vec<&[i64]> = shapes.iter().map(Vec::as_slice).collect();
    let order = rxt_tf_spec::einsum::order::contractions(parsed, &views);
    let Some((last, earlier)) = order.split_last() else {
        return Err(malformed(row));
    };
    let einsum = step(row, &EINSUM);
    let mut made: Vec<Untyped> = Vec::with_capacity(earlier.len());
    for contraction in earlier {
        let taken = take(row, &mut left, &contraction.positions)?;
        let operands = operands(inputs, &made, &taken);
        let ranks: Vec<u8> = taken.iter().map(|(_, kind)| kind.rank).collect();
        let rank = rxt_tf_spec::einsum::parse(&contraction.equation, taken.len())
            .ok()
            .and_then(|pair| pair.result_rank(&ranks))
            .ok_or_else(|| crate::Error::Keyword {
                op: row.called(),
                message: format!(
                    "`{}`: `tf.einsum` contracts `{}` first, whose result would have more \
                     than {} axes",
                    parsed.resolved,
                    contraction.equation,
                    rxt_tf_spec::MAX_RANK
                ),
            })?;
        let Some((_, first)) = taken.first() else {
            return Err(malformed(row));
        };
        let kind = TensorKind { rank, ..*first };
        let equation = Value::Str(kept::text(&contraction.equation));
        let result = run_row(einsum, &operands, &[equation], kind)?;
        made.push(result);
        left.push((Contracted::Made(made.len() - 1), kind));
    }
    let taken = take(row, &mut left, &last.positions)?;
    let equation = Value::Str(kept::text(&last.equation));
    O::run(einsum, &operands(inputs, &made, &taken), &[equation])
}

/// The operands at `positions` of `left`, removed in that order.
fn take(
    row: &'static Op,
    left: &mut Vec<(Contracted, TensorKind)>,
    positions: &[usize],
) -> Result<Vec<(Contracted, TensorKind)>> {
    positions
        .iter()
        .map(|position| {
            (*position < left.len())
                .then(|| left.remove(*position))
                .ok_or_else(|| malformed(row))
        })
        .collect()
}

/// The inputs `taken` stands for.
fn operands<'a>(
    inputs: &[Operand<'a>],
    made: &'a [Untyped],
    taken: &[(Contracted, TensorKind)],
) -> Vec<Operand<'a>> {
    taken
        .iter()
        .filter_map(|(operand, kind)| match operand {
            Contracted::Given(index) => inputs.get(*index).copied(),
            Contracted::Made(index) => made
                .get(*index)
                .map(|tensor| Operand::Tensor(tensor, *kind)),
        })
        .collect()
}
