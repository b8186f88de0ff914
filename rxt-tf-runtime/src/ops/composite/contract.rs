//! `tensordot`, as `tf.tensordot` composes it for shapes it knows.

use rxt_tf_spec::axes::Contraction;
use rxt_tf_spec::ops::{MATMUL, RESHAPE, TRANSPOSE};
use rxt_tf_spec::{Op, TensorKind, Value};

use crate::eager::{kept, malformed};
use crate::error::Result;
use crate::ops::dispatch::Outputs;
use crate::ops::execute::{run_row, Operand};
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
    let ([a @ Operand::Tensor(_, kind_a), b @ Operand::Tensor(_, kind_b)], [axes]) =
        (inputs, keywords)
    else {
        return Err(malformed(row));
    };
    let refused = |message| crate::Error::Keyword {
        op: row.name,
        message,
    };
    let ranks = [kind_a.rank, kind_b.rank];
    let contraction = Contraction::of(axes)
        .filter(|c| (0..2).all(|side| c.axes(side, ranks[side]).is_some()))
        .ok_or_else(|| {
            refused(format!(
                "`axes = {}` does not fit operands of ranks {ranks:?}",
                axes.rust()
            ))
        })?;
    let result: Vec<u8> = O::kinds().iter().map(|kind| kind.rank).collect();
    let rank = row.rule.result_rank(&ranks, contraction.count(), false);
    if rank.map(|rank| vec![rank]) != Some(result.clone()) {
        return Err(refused(format!(
            "`axes = {}` of operands of ranks {ranks:?} gives no result of rank {result:?}",
            axes.rust()
        )));
    }
    let _per_op = crate::fused::Scope::per_op();
    let (a, free_a) = as_matrix(row, *a, contraction, 0)?;
    // `axes` fit both operands, checked above.
    let (b, free_b) = as_matrix(row, *b, contraction, 1)?;
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
    let free: Vec<i64> = free_a.iter().chain(&free_b).copied().collect();
    let rank = u8::try_from(free.len()).map_err(|_| malformed(row))?;
    if rank == 2 && product.shape(2)? == free {
        return O::from_cores(row, vec![product]);
    }
    O::run(
        step(row, &RESHAPE),
        &[Operand::Tensor(&product, matrix), Operand::Dims(&free)],
        &[],
    )
}

/// Operand `side` of a contraction (0: `a`, 1: `b`) as the matrix
/// `tf.tensordot` multiplies, `[free, contracted]` for `a` and
/// `[contracted, free]` for `b`, and its free sizes.
fn as_matrix<'a>(
    row: &'static Op,
    operand: Operand<'a>,
    contraction: Contraction<'_>,
    side: usize,
) -> Result<(Matrix<'a>, Vec<i64>)> {
    let Operand::Tensor(tensor, kind) = operand else {
        return Err(malformed(row));
    };
    let rank = usize::from(kind.rank);
    let shape = tensor.shape(rank)?;
    let axes = contraction
        .axes(side, kind.rank)
        .ok_or_else(|| malformed(row))?;
    let free: Vec<usize> = (0..rank).filter(|axis| !axes.contains(axis)).collect();
    let perm: Vec<i64> = match side {
        0 => free.iter().chain(&axes),
        _ => axes.iter().chain(&free),
    }
    .map(|axis| i64::try_from(*axis).unwrap_or(i64::MAX))
    .collect();
    let product = |axes: &[usize]| -> i64 { axes.iter().map(|axis| shape[*axis]).product() };
    let (free_size, contracted_size) = (product(&free), product(&axes));
    let matrix_shape = match side {
        0 => [free_size, contracted_size],
        _ => [contracted_size, free_size],
    };
    let free_sizes = free.iter().map(|axis| shape[*axis]).collect();
    let identity = perm.iter().zip(0_i64..).all(|(axis, index)| *axis == index);
    let moved = if identity {
        None
    } else {
        let perm = Value::Ints(kept::list(&perm));
        Some(run_row(step(row, &TRANSPOSE), &[operand], &[perm], kind)?)
    };
    let moved_shape: Vec<i64> = perm
        .iter()
        .filter_map(|axis| usize::try_from(*axis).ok().map(|axis| shape[axis]))
        .collect();
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
