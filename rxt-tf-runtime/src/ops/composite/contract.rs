//! `tensordot`, as `tf.tensordot` composes it for shapes it knows.

use rxt_tf_spec::axes::Contraction;
use rxt_tf_spec::ops::{MATMUL, RESHAPE, TRANSPOSE};
use rxt_tf_spec::{Op, TensorKind, Value};

use crate::eager::{kept, malformed};
use crate::error::Result;
use crate::ops::record_or_run::{run_row, Operand};
use crate::ops::typed::Outputs;
use crate::tensor::Untyped;

use super::step;

/// `tensordot(a, b, axes)` as `tf.tensordot` runs it on tensors whose
/// shapes it knows: `a` with its contracted axes moved last and `b` with
/// its moved first (each `Transpose` only where that is not already the
/// order), each reshaped to a matrix (only where it is not that shape),
/// one `MatMul`, and the product reshaped to the free sizes of `a` then `b`
/// (unless it has them). The sizes are read, so it runs per op in a fusing
/// scope.
pub(super) fn contract<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let ([a @ Operand::Tensor(_, kind_a), b @ Operand::Tensor(_, kind_b)], [value]) =
        (inputs, keywords)
    else {
        return Err(malformed(row));
    };
    let refused = |message| crate::Error::Keyword {
        op: row.name,
        message,
    };
    let ranks = [kind_a.rank, kind_b.rank];
    let axes =
        Contraction::of(value).and_then(|c| Some([c.axes(0, ranks[0])?, c.axes(1, ranks[1])?]));
    let Some([axes_a, axes_b]) = axes else {
        return Err(refused(format!(
            "`axes = {}` does not fit operands of ranks {ranks:?}",
            value.rust()
        )));
    };
    let result: Vec<u8> = O::kinds().iter().map(|kind| kind.rank).collect();
    let rank = row.rule.result_rank(&ranks, axes_a.len(), false);
    if rank.is_none_or(|rank| result != [rank]) {
        return Err(refused(format!(
            "`axes = {}` of operands of ranks {ranks:?} gives no result of rank {result:?}",
            value.rust()
        )));
    }
    let _per_op = crate::fused::Scope::per_op();
    let (a, free_a) = as_matrix(row, *a, &axes_a, false)?;
    let (b, free_b) = as_matrix(row, *b, &axes_b, true)?;
    let matrix = TensorKind {
        dtype: kind_a.dtype,
        rank: 2,
    };
    let product = run_row(
        step(row, &MATMUL),
        &[
            Operand::Tensor(a.as_ref(), matrix),
            Operand::Tensor(b.as_ref(), matrix),
        ],
        &[Value::Bool(false), Value::Bool(false)],
        matrix,
    )?;
    // The product is `[∏ free_a, ∏ free_b]`; it is the result as it is
    // where that is already the free sizes, as `tf.tensordot` checks.
    let product_shape = [free_a.iter().product::<i64>(), free_b.iter().product()];
    let free: Vec<i64> = free_a.into_iter().chain(free_b).collect();
    if free == product_shape {
        return O::from_cores(row, vec![product]);
    }
    O::run(
        step(row, &RESHAPE),
        &[Operand::Tensor(&product, matrix), Operand::Dims(&free)],
        &[],
    )
}

/// An operand of a contraction as the matrix `tf.tensordot` multiplies:
/// its contracted `axes` (counted from the front, fitting its rank) moved
/// last, `[free, contracted]`, or first when `flipped` (the second
/// operand), `[contracted, free]`; and its free sizes.
fn as_matrix<'a>(
    row: &'static Op,
    operand: Operand<'a>,
    axes: &[usize],
    flipped: bool,
) -> Result<(Matrix<'a>, Vec<i64>)> {
    let Operand::Tensor(tensor, kind) = operand else {
        return Err(malformed(row));
    };
    let rank = usize::from(kind.rank);
    let shape = tensor.shape(rank)?;
    let free: Vec<usize> = (0..rank).filter(|axis| !axes.contains(axis)).collect();
    let order: Vec<usize> = match flipped {
        false => free.iter().chain(axes).copied().collect(),
        true => axes.iter().chain(&free).copied().collect(),
    };
    let size = |axes: &[usize]| -> i64 { axes.iter().map(|axis| shape[*axis]).product() };
    let matrix_shape = match flipped {
        false => [size(&free), size(axes)],
        true => [size(axes), size(&free)],
    };
    let free_sizes = free.iter().map(|axis| shape[*axis]).collect();
    let moved = if order.iter().copied().eq(0..rank) {
        None
    } else {
        let perm: Vec<i64> = order.iter().map(|axis| *axis as i64).collect();
        let perm = Value::Ints(kept::list(&perm));
        Some(run_row(step(row, &TRANSPOSE), &[operand], &[perm], kind)?)
    };
    let moved_shape: Vec<i64> = order.iter().map(|axis| shape[*axis]).collect();
    if moved_shape == matrix_shape {
        let matrix = match moved {
            Some(moved) => Matrix::Owned(moved),
            None => Matrix::Given(tensor),
        };
        return Ok((matrix, free_sizes));
    }
    let source = moved
        .as_ref()
        .map_or(operand, |moved| Operand::Tensor(moved, kind));
    let matrix_kind = TensorKind {
        dtype: kind.dtype,
        rank: 2,
    };
    let reshaped = run_row(
        step(row, &RESHAPE),
        &[source, Operand::Dims(&matrix_shape)],
        &[],
        matrix_kind,
    )?;
    Ok((Matrix::Owned(reshaped), free_sizes))
}

/// A contraction's operand as a matrix: the operand itself, or a new tensor.
enum Matrix<'a> {
    Given(&'a Untyped),
    Owned(Untyped),
}

impl Matrix<'_> {
    fn as_ref(&self) -> &Untyped {
        match self {
            Matrix::Given(tensor) => tensor,
            Matrix::Owned(tensor) => tensor,
        }
    }
}
