//! Ops of the table that run as several TensorFlow ops, composed as
//! TensorFlow's Python layer composes them, so results are bitwise eager's:
//! `clip_by_value`, `sort` and `argsort`, `eye`, the activations `gelu`,
//! `silu` and `hard_sigmoid`, and the statistics `moments`, `reduce_variance`, `reduce_std`,
//! `reduce_logsumexp` and `l2_normalize`, `batch_normalization`, and
//! `einsum` (of three operands, pairwise).

use rxt_tf_spec::axes::Contraction;
use rxt_tf_spec::ops::{
    ADD, DIV, EINSUM, ERFC, EXP, EXPAND_DIMS, EYE_DIAGONAL, IS_FINITE, LOG, MATMUL, MATRIX_DIAG,
    MAXIMUM, MINIMUM, MUL, NEG, POW, REDUCE_MAX, REDUCE_MEAN, REDUCE_SUM, RELU6, RESHAPE, RSQRT,
    SIGMOID, SQRT, SQUARE, SQUARED_DIFFERENCE, SQUEEZE, SUB, TANH, TOP_K, TRANSPOSE, WHERE,
};
use rxt_tf_spec::{DType, Op, Steps, TensorKind, Value, ValueKind};

use crate::eager::{kept, malformed, Call};
use crate::error::Result;
use crate::ops::dispatch::Outputs;
use crate::ops::execute::{run_row, run_row_many_swapped, Number, Operand};
use crate::tensor::Untyped;

/// Runs `row` if it is composed of several TensorFlow ops (`None`
/// otherwise: its own op runs it).
pub(crate) fn run<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Option<Result<O>> {
    match row.steps {
        Steps::One => None,
        Steps::Clip => Some(clip(row, inputs)),
        Steps::Sort => Some(sort(row, inputs, keywords)),
        Steps::Eye => Some(eye(row, inputs, keywords)),
        Steps::Gelu => Some(gelu(row, inputs, keywords)),
        Steps::Silu => Some(silu(row, inputs)),
        Steps::HardSigmoid => Some(hard_sigmoid(row, inputs)),
        Steps::Moments => Some(moments(row, inputs, keywords)),
        Steps::Variance => Some(variance(row, inputs, keywords)),
        Steps::Std => Some(std(row, inputs, keywords)),
        Steps::LogSumExp => Some(log_sum_exp(row, inputs, keywords)),
        Steps::L2Normalize => Some(l2_normalize(row, inputs, keywords)),
        Steps::Widened(wide) => Some(widened(row, wide, inputs, keywords)),
        Steps::BatchNormalization => Some(batch_normalization(row, inputs, keywords)),
        Steps::Einsum => Some(einsum(row, inputs, keywords)),
        Steps::Contract => Some(contract(row, inputs, keywords)),
    }
}

/// `op`, a step of the composite `row`, under `row`'s name: its errors,
/// per op and from a fused body, name the op called (`conv1d`, not the
/// `conv2d` it runs). Each (row, step) pair is made once and kept.
fn step(row: &'static Op, op: &'static Op) -> &'static Op {
    use std::sync::Mutex;
    type Steps = Vec<((usize, usize), &'static Op)>;
    static KNOWN: Mutex<Steps> = Mutex::new(Vec::new());
    if op.name == row.called() {
        return op;
    }
    let key = (
        std::ptr::from_ref(row) as usize,
        std::ptr::from_ref(op) as usize,
    );
    let mut known = KNOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, found)) = known.iter().find(|(k, _)| *k == key) {
        return found;
    }
    let named: &'static Op = Box::leak(Box::new(Op {
        name: row.called(),
        ..*op
    }));
    known.push((key, named));
    named
}

/// `clip_by_value` as `tf.clip_by_value` runs it: `minimum(x, hi)`, then
/// `maximum(…, lo)` (a `ClipByValue` kernel differs from it on NaN bounds
/// and on the sign of zero). Both ops are recorded in a fusing scope.
fn clip<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>]) -> Result<O> {
    let [x @ Operand::Tensor(_, kind), lo, hi] = inputs else {
        return Err(malformed(row));
    };
    let below = run_row(step(row, &MINIMUM), &[*x, *hi], &[], *kind)?;
    let clipped = [Operand::Tensor(&below, *kind), *lo];
    O::run(step(row, &MAXIMUM), &clipped, &[])
}

/// `sort` and `argsort` as `tf.sort` and `tf.argsort` run them: `TopKV2`
/// of the whole axis (moved last and back by a transpose), on `-x` when
/// ascending (`-x - 1` for integers, so the least integer stays in range),
/// negated back for the values. `TopKV2` gives two outputs, so it runs as
/// its own call in a fusing scope: the steps around it run per op too.
fn sort<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
    let [x @ Operand::Tensor(tensor, kind)] = inputs else {
        return Err(malformed(row));
    };
    // Checks the direction and the axis against the rank; gives the swap.
    let call = Call::plan(row, inputs, keywords)?;
    let (Some(Value::Int(axis)), Some(Value::Str(direction))) = (keywords.first(), keywords.get(1))
    else {
        return Err(malformed(row));
    };
    let _per_op = crate::fused::Scope::per_op();
    let rank = usize::from(kind.rank);
    let axis = if *axis < 0 {
        *axis + i64::from(kind.rank)
    } else {
        *axis
    };
    let length = usize::try_from(axis)
        .ok()
        .and_then(|axis| tensor.shape(rank).ok()?.get(axis).copied())
        .ok_or_else(|| malformed(row))?;
    let ascending = *direction == "ASCENDING";
    let integer = matches!(kind.dtype, DType::I32 | DType::I64);
    let keys = if ascending {
        Some(negated(row, tensor, *kind, integer)?)
    } else {
        None
    };
    let keys = keys
        .as_ref()
        .map_or(*x, |keys| Operand::Tensor(keys, *kind));
    let indices_kind = TensorKind {
        dtype: DType::I32,
        rank: kind.rank,
    };
    // The axis moved last and both outputs moved back, as every op on the
    // last axis only runs.
    let mut outputs = run_row_many_swapped(
        step(row, &TOP_K),
        &[keys],
        &[Value::Int(length), Value::Bool(true)],
        &[*kind, indices_kind],
        call.swap,
    )?
    .into_iter();
    let (values, indices) = (outputs.next(), outputs.next());
    let argsort = row.result_type == Some(DType::I32);
    let picked = match (argsort, values, indices) {
        (true, _, Some(indices)) => indices,
        (false, Some(values), _) => values,
        _ => return Err(malformed(row)),
    };
    let result = if ascending && !argsort {
        negated(row, &picked, *kind, integer)?
    } else {
        picked
    };
    O::from_cores(row, vec![result])
}

/// `-x`, or `-x - 1` for integers, as `tf.sort` flips the order.
fn negated(row: &'static Op, x: &Untyped, kind: TensorKind, integer: bool) -> Result<Untyped> {
    let negative = run_row(step(row, &NEG), &[Operand::Tensor(x, kind)], &[], kind)?;
    if !integer {
        return Ok(negative);
    }
    let one = Operand::Literal(Number::Int(1));
    run_row(
        step(row, &SUB),
        &[Operand::Tensor(&negative, kind), one],
        &[],
        kind,
    )
}

/// `eye(n)` as `tf.eye(n)` makes it: `n` ones of the element type on the
/// diagonal of `MatrixDiagV3`. Both ops are recorded in a fusing scope.
fn eye<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
    let ([Operand::Scalar(_, Number::Int(size))], [dtype @ Value::Type(element)]) =
        (inputs, keywords)
    else {
        return Err(malformed(row));
    };
    let diagonal_kind = TensorKind {
        dtype: *element,
        rank: 1,
    };
    let sizes = [*size];
    let diagonal = run_row(
        step(row, &EYE_DIAGONAL),
        &[Operand::Dims(&sizes)],
        &[*dtype, Value::Int(1)],
        diagonal_kind,
    )?;
    let defaults = [Value::Int(0), Value::Int(-1), Value::Int(-1), Value::Int(0)];
    O::run(
        step(row, &MATRIX_DIAG),
        &[Operand::Tensor(&diagonal, diagonal_kind)],
        &defaults,
    )
}

/// `tensordot(a, b, axes)` as `tf.tensordot` runs it on tensors whose
/// shapes it knows: `a` with its contracted axes moved last and `b` with
/// its moved first (each `Transpose` only where that is not already the
/// order), each reshaped to a matrix (only where it is not that shape),
/// one `MatMul`, and the product reshaped to the free sizes of `a` then `b`
/// (unless it has them). The sizes are read, so it runs per op in a fusing
/// scope.
fn contract<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
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

/// The single tensor operand of `row` and its kind.
fn tensor_operand<'a>(
    row: &'static Op,
    inputs: &[Operand<'a>],
) -> Result<(Operand<'a>, TensorKind)> {
    match inputs {
        [x @ Operand::Tensor(_, kind)] => Ok((*x, *kind)),
        _ => Err(malformed(row)),
    }
}

/// A constant as `math_ops.cast(c, dtype)` makes it from a Python float:
/// a float32 first, then cast (so a float64 holds the float32's value).
fn cast_constant(value: f64, dtype: DType) -> Operand<'static> {
    #[allow(clippy::cast_possible_truncation)]
    let single = f64::from(value as f32);
    Operand::Scalar(dtype, Number::Float(single))
}

/// A Python float beside a tensor: it takes the tensor's type.
fn literal(value: f64) -> Operand<'static> {
    Operand::Literal(Number::Float(value))
}

/// `tf.nn.gelu(x, approximate)`: `0.5 * x * erfc(-x * cast(√½))`, or
/// `0.5 * x * (1 + tanh(0.7978845608028654 * (x + cast(0.044715) * x³)))`.
fn gelu<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let [Value::Bool(approximate)] = keywords else {
        return Err(malformed(row));
    };
    let apply =
        |op: &'static Op, operands: &[Operand<'_>]| run_row(step(row, op), operands, &[], kind);
    let half = apply(&MUL, &[literal(0.5), x])?;
    let half = Operand::Tensor(&half, kind);
    if !*approximate {
        let negative = apply(&NEG, &[x])?;
        // `0.7071067811865476` in `tf.nn.gelu`: the same double.
        let root_half = cast_constant(std::f64::consts::FRAC_1_SQRT_2, kind.dtype);
        let scaled = apply(&MUL, &[Operand::Tensor(&negative, kind), root_half])?;
        let erfc = apply(&ERFC, &[Operand::Tensor(&scaled, kind)])?;
        return O::run(step(row, &MUL), &[half, Operand::Tensor(&erfc, kind)], &[]);
    }
    let cube = apply(&POW, &[x, Operand::Literal(Number::Int(3))])?;
    let coefficient = cast_constant(0.044_715, kind.dtype);
    let scaled_cube = apply(&MUL, &[coefficient, Operand::Tensor(&cube, kind)])?;
    let inner = apply(&ADD, &[x, Operand::Tensor(&scaled_cube, kind)])?;
    let scale = literal(0.797_884_560_802_865_4);
    let scaled = apply(&MUL, &[scale, Operand::Tensor(&inner, kind)])?;
    let tanh = apply(&TANH, &[Operand::Tensor(&scaled, kind)])?;
    let one_plus = apply(&ADD, &[literal(1.0), Operand::Tensor(&tanh, kind)])?;
    O::run(
        step(row, &MUL),
        &[half, Operand::Tensor(&one_plus, kind)],
        &[],
    )
}

/// `tf.nn.silu(x)`: `x * sigmoid(beta * x)` with `beta` a tensor of 1.
fn silu<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>]) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let beta = Operand::Scalar(kind.dtype, Number::Float(1.0));
    let scaled = run_row(step(row, &MUL), &[beta, x], &[], kind)?;
    let sigmoid = run_row(
        step(row, &SIGMOID),
        &[Operand::Tensor(&scaled, kind)],
        &[],
        kind,
    )?;
    O::run(step(row, &MUL), &[x, Operand::Tensor(&sigmoid, kind)], &[])
}

/// Keras's `hard_sigmoid` as its TensorFlow backend runs it:
/// `relu6(x + 3) / 6`, the constants of `x`'s element type.
fn hard_sigmoid<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>]) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let three = Operand::Scalar(kind.dtype, Number::Float(3.0));
    let shifted = run_row(step(row, &ADD), &[x, three], &[], kind)?;
    let clipped = run_row(
        step(row, &RELU6),
        &[Operand::Tensor(&shifted, kind)],
        &[],
        kind,
    )?;
    let six = Operand::Scalar(kind.dtype, Number::Float(6.0));
    O::run(
        step(row, &DIV),
        &[Operand::Tensor(&clipped, kind), six],
        &[],
    )
}

/// The axes keyword (first) and `keepdims` (second) of a reduction-like
/// row, and the number of axes.
fn axes_and_keepdims(row: &'static Op, keywords: &[Value]) -> Result<(Value, bool, u8)> {
    let (Some(axes), Some(Value::Bool(keepdims))) = (keywords.first(), keywords.get(1)) else {
        return Err(malformed(row));
    };
    Ok((*axes, *keepdims, axes_count(row, axes)?))
}

/// The number of axes an axes value names (one axis, or a list).
fn axes_count(row: &'static Op, axes: &Value) -> Result<u8> {
    match axes {
        Value::Int(_) => Ok(1),
        Value::Ints(axes) => u8::try_from(axes.len()).map_err(|_| malformed(row)),
        _ => Err(malformed(row)),
    }
}

/// `kind` with `count` axes reduced, unless they are kept.
fn reduced(kind: TensorKind, count: u8, keepdims: bool) -> TensorKind {
    let rank = match keepdims {
        true => kind.rank,
        false => kind.rank.saturating_sub(count),
    };
    TensorKind { rank, ..kind }
}

/// A reduction row (`Mean`, `Sum`, `Max`) of `x` (of `kind`) over `axes`.
fn reduce(
    op: &'static Op,
    x: Operand<'_>,
    axes: Value,
    keepdims: bool,
    kind: TensorKind,
    count: u8,
) -> Result<Untyped> {
    let keywords = [axes, Value::Bool(keepdims)];
    run_row(op, &[x], &keywords, reduced(kind, count, keepdims))
}

/// `t` (of `kind`, the reduced axes kept) without those `axes`.
fn squeezed(
    row: &'static Op,
    t: &Untyped,
    axes: Value,
    kind: TensorKind,
    count: u8,
) -> Result<Untyped> {
    let result = reduced(kind, count, false);
    run_row(
        step(row, &SQUEEZE),
        &[Operand::Tensor(t, kind)],
        &[axes],
        result,
    )
}

/// `tf.nn.moments(x, axes, keepdims)`: `mean = reduce_mean(x, axes, True)`,
/// `variance = reduce_mean(squared_difference(x, mean), axes, True)`, both
/// squeezed unless `keepdims` (`tf.nn.moments`' `stop_gradient`, an
/// identity here, is left out).
fn moments<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let (axes, keepdims, count) = axes_and_keepdims(row, keywords)?;
    let mean = reduce(step(row, &REDUCE_MEAN), x, axes, true, kind, count)?;
    let pair = [x, Operand::Tensor(&mean, kind)];
    let deviations = run_row(step(row, &SQUARED_DIFFERENCE), &pair, &[], kind)?;
    let deviations = Operand::Tensor(&deviations, kind);
    let variance = reduce(step(row, &REDUCE_MEAN), deviations, axes, true, kind, count)?;
    if keepdims {
        return O::from_cores(row, vec![mean, variance]);
    }
    let mean = squeezed(row, &mean, axes, kind, count)?;
    let variance = squeezed(row, &variance, axes, kind, count)?;
    O::from_cores(row, vec![mean, variance])
}

/// `tf.math.reduce_variance`: `reduce_mean(square(x - reduce_mean(x, axis,
/// True)), axis, keepdims)`; the result and its kind.
fn variance_of(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<(Untyped, TensorKind)> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let (axes, keepdims, count) = axes_and_keepdims(row, keywords)?;
    let mean = reduce(step(row, &REDUCE_MEAN), x, axes, true, kind, count)?;
    let deviation = run_row(
        step(row, &SUB),
        &[x, Operand::Tensor(&mean, kind)],
        &[],
        kind,
    )?;
    let squared = run_row(
        step(row, &SQUARE),
        &[Operand::Tensor(&deviation, kind)],
        &[],
        kind,
    )?;
    let squared = Operand::Tensor(&squared, kind);
    let variance = reduce(
        step(row, &REDUCE_MEAN),
        squared,
        axes,
        keepdims,
        kind,
        count,
    )?;
    Ok((variance, reduced(kind, count, keepdims)))
}

/// `reduce_variance`, as [`variance_of`].
fn variance<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
    let (variance, _) = variance_of(row, inputs, keywords)?;
    O::from_cores(row, vec![variance])
}

/// `tf.math.reduce_std`: `sqrt(reduce_variance(x, axis, keepdims))`.
fn std<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
    let (variance, kind) = variance_of(row, inputs, keywords)?;
    O::run(step(row, &SQRT), &[Operand::Tensor(&variance, kind)], &[])
}

/// `tf.math.reduce_logsumexp`: the maximum (kept dims) where finite, else
/// 0, taken out; `log(reduce_sum(exp(x - max), axis, keepdims))`; the
/// maximum added back (squeezed unless `keepdims`, where TensorFlow
/// reshapes it to the same shape).
fn log_sum_exp<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let (axes, keepdims, count) = axes_and_keepdims(row, keywords)?;
    let raw_max = reduce(step(row, &REDUCE_MAX), x, axes, true, kind, count)?;
    let raw_max = Operand::Tensor(&raw_max, kind);
    let flags = TensorKind {
        dtype: DType::Bool,
        ..kind
    };
    let finite = run_row(step(row, &IS_FINITE), &[raw_max], &[], flags)?;
    let zero = Operand::Literal(Number::Int(0));
    let choice = [Operand::Tensor(&finite, flags), raw_max, zero];
    let max = run_row(step(row, &WHERE), &choice, &[], kind)?;
    let shifted = run_row(
        step(row, &SUB),
        &[x, Operand::Tensor(&max, kind)],
        &[],
        kind,
    )?;
    let exp = run_row(
        step(row, &EXP),
        &[Operand::Tensor(&shifted, kind)],
        &[],
        kind,
    )?;
    let exp = Operand::Tensor(&exp, kind);
    let sum = reduce(step(row, &REDUCE_SUM), exp, axes, keepdims, kind, count)?;
    let result = reduced(kind, count, keepdims);
    let log = run_row(
        step(row, &LOG),
        &[Operand::Tensor(&sum, result)],
        &[],
        result,
    )?;
    let max = match keepdims {
        true => max,
        false => squeezed(row, &max, axes, kind, count)?,
    };
    let parts = [Operand::Tensor(&log, result), Operand::Tensor(&max, result)];
    O::run(step(row, &ADD), &parts, &[])
}

/// `tf.math.l2_normalize(x, axis, epsilon)`: `x * rsqrt(maximum(
/// reduce_sum(square(x), axis, True), epsilon))`.
fn l2_normalize<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (x, kind) = tensor_operand(row, inputs)?;
    let [axes, Value::Float(epsilon)] = keywords else {
        return Err(malformed(row));
    };
    let count = axes_count(row, axes)?;
    let squared = run_row(step(row, &SQUARE), &[x], &[], kind)?;
    let squared = Operand::Tensor(&squared, kind);
    let sum = reduce(step(row, &REDUCE_SUM), squared, *axes, true, kind, count)?;
    let floor = [Operand::Tensor(&sum, kind), literal(*epsilon)];
    let floor = run_row(step(row, &MAXIMUM), &floor, &[], kind)?;
    let inverse = run_row(
        step(row, &RSQRT),
        &[Operand::Tensor(&floor, kind)],
        &[],
        kind,
    )?;
    O::run(step(row, &MUL), &[x, Operand::Tensor(&inverse, kind)], &[])
}

/// A 1-D op (`conv1d`, `max_pool1d`) as TensorFlow runs it: the NWC input
/// widened to height 1 (`expand_dims` at axis 1; filters at axis 0), the
/// 2-D row `wide` with each size `s` as `[1, s]`, the height squeezed out.
fn widened<O: Outputs>(
    row: &'static Op,
    wide: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let Some(Operand::Tensor(_, kind)) = inputs.first() else {
        return Err(malformed(row));
    };
    let wide_kind = TensorKind {
        rank: kind.rank + 1,
        ..*kind
    };
    // The image at axis 1 (`-3` in `tf.nn.conv1d`: the same axis), the
    // filters at axis 0.
    let mut widened = Vec::with_capacity(inputs.len());
    for (input, axis) in inputs.iter().zip([1, 0]) {
        widened.push(run_row(
            step(row, &EXPAND_DIMS),
            &[*input],
            &[Value::Int(axis)],
            wide_kind,
        )?);
    }
    let wide_inputs: Vec<Operand<'_>> = widened
        .iter()
        .map(|tensor| Operand::Tensor(tensor, wide_kind))
        .collect();
    if wide_inputs.len() != wide.arity() || keywords.len() != wide.keywords.len() {
        return Err(malformed(row));
    }
    let wide_keywords: Vec<Value> = keywords
        .iter()
        .zip(wide.keywords)
        .map(|(value, keyword)| match (keyword.kind, value) {
            (ValueKind::Spatial, Value::Int(size)) => Value::Ints(kept::list(&[1, *size])),
            _ => *value,
        })
        .collect();
    let result = run_row(step(row, wide), &wide_inputs, &wide_keywords, wide_kind)?;
    O::run(
        step(row, &SQUEEZE),
        &[Operand::Tensor(&result, wide_kind)],
        &[Value::Int(1)],
    )
}

/// The kind of a broadcasting op's result on operands of `a` and `b`.
fn broadcast(a: TensorKind, b: TensorKind) -> TensorKind {
    TensorKind {
        rank: a.rank.max(b.rank),
        ..a
    }
}

/// `tf.nn.batch_normalization(x, mean, variance, offset, scale, epsilon)`:
/// `inv = rsqrt(variance + epsilon) * scale`, then `x * inv + (offset -
/// mean * inv)` (the casts there are of a type to itself: no op).
fn batch_normalization<O: Outputs>(
    row: &'static Op,
    inputs: &[Operand<'_>],
    keywords: &[Value],
) -> Result<O> {
    let (
        [x @ Operand::Tensor(_, x_kind), mean @ Operand::Tensor(_, mean_kind), variance @ Operand::Tensor(_, variance_kind), offset @ Operand::Tensor(_, offset_kind), scale @ Operand::Tensor(_, scale_kind)],
        [Value::Float(epsilon)],
    ) = (inputs, keywords)
    else {
        return Err(malformed(row));
    };
    let apply = |op: &'static Op, a: Operand<'_>, b: Operand<'_>, kind: TensorKind| {
        run_row(step(row, op), &[a, b], &[], kind)
    };
    let shifted = apply(&ADD, *variance, literal(*epsilon), *variance_kind)?;
    let inverse = run_row(
        step(row, &RSQRT),
        &[Operand::Tensor(&shifted, *variance_kind)],
        &[],
        *variance_kind,
    )?;
    let inverse_kind = broadcast(*variance_kind, *scale_kind);
    let inverse = apply(
        &MUL,
        Operand::Tensor(&inverse, *variance_kind),
        *scale,
        inverse_kind,
    )?;
    let inverse = Operand::Tensor(&inverse, inverse_kind);
    let scaled = apply(&MUL, *x, inverse, broadcast(*x_kind, inverse_kind))?;
    let centre_kind = broadcast(*mean_kind, inverse_kind);
    let centre = apply(&MUL, *mean, inverse, centre_kind)?;
    let shift_kind = broadcast(*offset_kind, centre_kind);
    let shift = apply(
        &SUB,
        *offset,
        Operand::Tensor(&centre, centre_kind),
        shift_kind,
    )?;
    let scaled_kind = broadcast(*x_kind, inverse_kind);
    O::run(
        step(row, &ADD),
        &[
            Operand::Tensor(&scaled, scaled_kind),
            Operand::Tensor(&shift, shift_kind),
        ],
        &[],
    )
}

/// `tf.einsum`, once the equation's subscripts are checked against the
/// operands' ranks and the result's (the plain function takes those from
/// its caller): the one place the equation is parsed on a call. One or two
/// operands are one `Einsum` on the resolved equation; three are
/// contracted pairwise ([`pairwise`]).
fn einsum<O: Outputs>(row: &'static Op, inputs: &[Operand<'_>], keywords: &[Value]) -> Result<O> {
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
