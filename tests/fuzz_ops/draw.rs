//! Drawing cases: values, shapes, and every form of an op.

use rxt_tf::__private::DType;
use rxt_tf::{bf16, f16};

use crate::cases::{Case, Input, Keywords, Operand, Values};
use crate::common::Rng;
use crate::einsum::einsum_operands;
use crate::layers::{batch_norm_operands, conv_operands, fused_batch_norm_operands, pool_operands};
use crate::operands::{
    band_operands, broadcast_to_operands, contract_operands, gather_operands, index_operands,
    list_operands, matmul_operands, mirror_pad_operands, one_hot_operands, pad_constant,
    range_operands, reshape_operands, scalar_operand, select_operands, signed_axis, sizes,
    slice_operands, sort_operands, squeeze_operands,
};
use crate::table::{Family, Op, OPS};

pub(crate) const F32_EDGES: &[f32] = &[
    f32::NAN,
    -f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.5,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    1e-45,
    -1e-40,
    1e30,
    -1e-30,
    88.8,
    -104.0,
    16_777_217.0,
    2_147_483_648.0,
    -9.3e18,
];

pub(crate) const F64_EDGES: &[f64] = &[
    f64::NAN,
    -f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.5,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    5e-324,
    -1e-310,
    1e300,
    -1e-300,
    709.8,
    -745.2,
    9_007_199_254_740_993.0,
    2_147_483_648.0,
    -9.3e18,
    3.4e38,
    1e-45,
];

pub(crate) const I32_EDGES: &[i32] = &[
    0,
    1,
    -1,
    2,
    31,
    32,
    i32::MAX,
    i32::MIN,
    i32::MAX - 1,
    i32::MIN + 1,
    46_341,
    -46_341,
    65_536,
    1 << 30,
    16_777_217,
];

pub(crate) const I64_EDGES: &[i64] = &[
    0,
    1,
    -1,
    2,
    63,
    64,
    i64::MAX,
    i64::MIN,
    i64::MAX - 1,
    i64::MIN + 1,
    3_037_000_500,
    -3_037_000_500,
    i32::MAX as i64 + 1,
    i32::MIN as i64 - 1,
    1 << 53,
    (1 << 53) + 1,
    (1 << 60) + (1 << 36) + 1,
];

/// Draw ordinary values only: finite floats within ±16 and small
/// integers, in tensors and as Python literals (the litert run).
pub(crate) static ORDINARY: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Whether only ordinary values are drawn.
fn ordinary() -> bool {
    ORDINARY.load(std::sync::atomic::Ordering::Relaxed)
}

pub(crate) fn f32_value(rng: &mut Rng) -> f32 {
    if ordinary() {
        return (rng.below(4001) as f32 - 2000.0) / 128.0;
    }
    match rng.below(20) {
        // Multiples of 1/128 in ±15.6: exact, with ties for round.
        0..=11 => (rng.below(4001) as f32 - 2000.0) / 128.0,
        12..=16 => rng.pick(F32_EDGES),
        17..=18 => rng.below(21) as f32 - 10.0,
        _ => f32::from_bits(rng.next() as u32),
    }
}

pub(crate) fn f64_value(rng: &mut Rng) -> f64 {
    if ordinary() {
        return (rng.below(4001) as f64 - 2000.0) / 128.0;
    }
    match rng.below(20) {
        0..=11 => (rng.below(4001) as f64 - 2000.0) / 128.0,
        12..=16 => rng.pick(F64_EDGES),
        17..=18 => rng.below(21) as f64 - 10.0,
        _ => f64::from_bits(rng.next()),
    }
}

/// A bfloat16: a float32 drawing rounded (its edges overflow, flush or
/// tie), or any bits.
pub(crate) fn bf16_value(rng: &mut Rng) -> bf16 {
    if ordinary() {
        return bf16::from_f32(f32_value(rng));
    }
    match rng.below(20) {
        0..=18 => bf16::from_f32(f32_value(rng)),
        _ => bf16::from_bits(rng.next() as u16),
    }
}

/// A float16, as [`bf16_value`] (float32's edges past 65504 are infinite).
pub(crate) fn f16_value(rng: &mut Rng) -> f16 {
    if ordinary() {
        return f16::from_f32(f32_value(rng));
    }
    match rng.below(20) {
        0..=18 => f16::from_f32(f32_value(rng)),
        _ => f16::from_bits(rng.next() as u16),
    }
}

pub(crate) fn i32_value(rng: &mut Rng) -> i32 {
    if ordinary() {
        return rng.below(21) as i32 - 10;
    }
    match rng.below(20) {
        0..=13 => rng.below(21) as i32 - 10,
        14..=17 => rng.pick(I32_EDGES),
        _ => rng.next() as i32,
    }
}

pub(crate) fn i64_value(rng: &mut Rng) -> i64 {
    if ordinary() {
        return rng.below(21) as i64 - 10;
    }
    match rng.below(20) {
        0..=13 => rng.below(21) as i64 - 10,
        14..=17 => rng.pick(I64_EDGES),
        _ => rng.next() as i64,
    }
}

/// `count` random elements of `dtype`.
pub(crate) fn values(rng: &mut Rng, dtype: DType, count: usize) -> Values {
    match dtype {
        DType::F32 => Values::F32((0..count).map(|_| f32_value(rng)).collect()),
        DType::F64 => Values::F64((0..count).map(|_| f64_value(rng)).collect()),
        DType::BF16 => Values::BF16((0..count).map(|_| bf16_value(rng)).collect()),
        DType::F16 => Values::F16((0..count).map(|_| f16_value(rng)).collect()),
        DType::I32 => Values::I32((0..count).map(|_| i32_value(rng)).collect()),
        DType::I64 => Values::I64((0..count).map(|_| i64_value(rng)).collect()),
        DType::Bool => Values::Bool((0..count).map(|_| rng.chance(50)).collect()),
    }
}

/// A tensor of `dtype` and `shape` with random elements.
pub(crate) fn input(rng: &mut Rng, dtype: DType, shape: Vec<usize>) -> Input {
    let count = shape.iter().product();
    Input {
        values: values(rng, dtype, count),
        shape,
    }
}

/// A dimension: 0 now and then, 1 often, else 2–4.
pub(crate) fn dim(rng: &mut Rng) -> usize {
    match rng.below(100) {
        0..=4 => 0,
        5..=29 => 1,
        _ => rng.within(2, 4),
    }
}

pub(crate) fn shape(rng: &mut Rng, rank: usize) -> Vec<usize> {
    (0..rank).map(|_| dim(rng)).collect()
}

/// The trailing `rank` dimensions of `full`, some of them 1 (broadcast).
pub(crate) fn broadcast_from(rng: &mut Rng, full: &[usize], rank: usize) -> Vec<usize> {
    full[full.len() - rank..]
        .iter()
        .map(|&d| if rng.chance(25) { 1 } else { d })
        .collect()
}

/// Makes `a` and `b` fail to broadcast at one aligned dimension, if they
/// share one.
pub(crate) fn misalign(rng: &mut Rng, a: &mut [usize], b: &mut [usize]) {
    let shared = a.len().min(b.len());
    if shared == 0 {
        return;
    }
    let back = 1 + rng.below(shared);
    let (i, j) = (a.len() - back, b.len() - back);
    let (x, y) = rng.pick(&[(2, 3), (0, 2), (4, 3), (3, 0)]);
    a[i] = x;
    b[j] = y;
}

/// Two broadcasting shapes of ranks `ra` and `rb`; incompatible sometimes.
pub(crate) fn broadcast_pair(rng: &mut Rng, ra: usize, rb: usize) -> (Vec<usize>, Vec<usize>) {
    let full = shape(rng, ra.max(rb));
    let mut a = broadcast_from(rng, &full, ra);
    let mut b = broadcast_from(rng, &full, rb);
    if rng.chance(8) {
        misalign(rng, &mut a, &mut b);
    }
    (a, b)
}

/// An integer literal for a tensor of `dtype`: small mostly, sometimes an
/// edge of i32 or i64.
pub(crate) fn int_literal(rng: &mut Rng, dtype: DType) -> i64 {
    if ordinary() {
        return rng.below(21) as i64 - 10;
    }
    let literal = match rng.below(10) {
        0..=6 => rng.below(21) as i64 - 10,
        // Not past i32 for an int32 tensor: eager wraps such a literal
        // (`tf.constant(2**40, tf.int32)` is 0, `x + 2**31` adds -2**31)
        // where rxt-tf raises ValueError ("does not fit a int32 tensor").
        _ if dtype == DType::I32 => i64::from(rng.pick(I32_EDGES)),
        7 => i64::from(rng.pick(I32_EDGES)),
        _ => rng.pick(I64_EDGES),
    };
    // A literal whose float32 is not the float32 of its float64 (such as
    // 2**60 + 2**36 + 1, for a float32 tensor) found that rxt-tf rounded
    // once where eager rounds through a double; both round twice now.
    if dtype == DType::F32 && rng.below(4) == 0 {
        return (1 << 60) + (1 << 36) + 1;
    }
    literal
}

/// A float literal (any f64: for a float32 tensor it rounds).
pub(crate) fn float_literal(rng: &mut Rng) -> f64 {
    if ordinary() {
        // Not an edge either: `floordiv(x, 3.4e38)` is -0 in TensorFlow,
        // which flushes the quotient's subnormals to zero, and -1 in LiteRT.
        return (rng.below(4001) as f64 - 2000.0) / 128.0;
    }
    match rng.below(10) {
        0..=5 => (rng.below(4001) as f64 - 2000.0) / 128.0,
        6..=7 => rng.pick(F64_EDGES),
        8 => f64::from(rng.pick(F32_EDGES)),
        _ => rng.next() as i64 as f64 / 1e9,
    }
}

/// The operands of a broadcasting op on `dtype`.
pub(crate) fn binary_operands(rng: &mut Rng, dtype: DType, ranks: (usize, usize)) -> Vec<Operand> {
    let rank = |rng: &mut Rng| rng.within(ranks.0, ranks.1);
    let tensor = |rng: &mut Rng| {
        let rank = rank(rng);
        let shape = shape(rng, rank);
        Operand::Tensor(input(rng, dtype, shape))
    };
    let other = match rng.below(100) {
        0..=64 => {
            let (ra, rb) = (rank(rng), rank(rng));
            let (a, b) = broadcast_pair(rng, ra, rb);
            return vec![
                Operand::Tensor(input(rng, dtype, a)),
                Operand::Tensor(input(rng, dtype, b)),
            ];
        }
        65..=79 => Operand::Scalar(input(rng, dtype, vec![])),
        80..=89 if dtype != DType::Bool => Operand::Int(int_literal(rng, dtype)),
        _ if dtype.is_float() => Operand::Float(float_literal(rng)),
        _ if dtype != DType::Bool => Operand::Int(int_literal(rng, dtype)),
        _ => Operand::Scalar(input(rng, dtype, vec![])),
    };
    let tensor = tensor(rng);
    if rng.chance(50) {
        vec![tensor, other]
    } else {
        vec![other, tensor]
    }
}

/// `n` distinct axes of a rank-`rank` tensor, each negative half the time.
pub(crate) fn distinct_axes(rng: &mut Rng, rank: usize, n: usize) -> Vec<i64> {
    let mut all: Vec<i64> = (0..rank as i64).collect();
    let mut axes = Vec::with_capacity(n);
    for _ in 0..n {
        let axis = all.remove(rng.below(all.len()));
        axes.push(if rng.chance(50) {
            axis - rank as i64
        } else {
            axis
        });
    }
    axes
}

/// One axis of a rank-`rank` tensor, negative half the time.
pub(crate) fn one_axis(rng: &mut Rng, rank: usize) -> i64 {
    distinct_axes(rng, rank, 1)[0]
}

/// A zero for −0.0 in scalars and literals: eager TensorFlow caches the
/// constants it makes of Python and NumPy scalars by value, and 0.0 == −0.0,
/// so whichever zero a process converts first stands for both afterwards
/// (`x * -0.0` gives +0.0 products after `x * 0.0`, or the reverse); rxt-tf
/// keeps the sign. Tensors keep their −0.0 elements.
pub(crate) fn avoid_signed_zero_scalars(case: &mut Case) {
    for operand in &mut case.operands {
        match operand {
            Operand::Scalar(input) => match &mut input.values {
                Values::F32(v) => v.iter_mut().filter(|x| **x == 0.0).for_each(|x| *x = 0.0),
                Values::F64(v) => v.iter_mut().filter(|x| **x == 0.0).for_each(|x| *x = 0.0),
                Values::BF16(v) => v
                    .iter_mut()
                    .filter(|x| x.to_f32() == 0.0)
                    .for_each(|x| *x = bf16::ZERO),
                Values::F16(v) => v
                    .iter_mut()
                    .filter(|x| x.to_f32() == 0.0)
                    .for_each(|x| *x = f16::ZERO),
                _ => {}
            },
            Operand::Float(v) if *v == 0.0 => *v = 0.0,
            _ => {}
        }
    }
}

/// A random case of `op`.
pub(crate) fn draw(rng: &mut Rng, op: &'static Op) -> Case {
    let dtype = rng.pick(op.dtypes);
    let rank = rng.within(usize::from(op.ranks.0), usize::from(op.ranks.1));
    draw_form(rng, op, dtype, rank)
}

/// Every form of the table: each op at each of its element types and each
/// rank its rule takes for its first operand (ops of two or three operands
/// draw the others' ranks).
pub(crate) fn forms() -> Vec<(&'static Op, DType, usize)> {
    OPS.iter()
        .flat_map(|op| {
            op.dtypes.iter().flat_map(move |&dtype| {
                (usize::from(op.ranks.0)..=usize::from(op.ranks.1))
                    .map(move |rank| (op, dtype, rank))
            })
        })
        .collect()
}

/// A case of `op` at `dtype` whose first operand has `rank` (where the op
/// has a tensor operand), its shapes, values and keywords drawn.
pub(crate) fn draw_form(rng: &mut Rng, op: &'static Op, dtype: DType, rank: usize) -> Case {
    // (Bool `pad` found that the plain function's `f64` `constant_values`
    // could not become a bool constant: fixed, 0.0 and 1.0 now do.)
    let ranks = (usize::from(op.ranks.0), usize::from(op.ranks.1));
    // One tensor of `rank`.
    let single = |rng: &mut Rng| {
        let shape = shape(rng, rank);
        vec![Operand::Tensor(input(rng, dtype, shape))]
    };
    let (operands, keywords) = match op.family {
        Family::Unary => (single(rng), Keywords::None),
        Family::LeakyRelu => {
            let alpha = rng.pick(&[0.2, 0.0, 0.1, -0.5, 1.0, 1.5, 3.0, 1e-3, -1e30]);
            (single(rng), Keywords::Alpha(alpha))
        }
        Family::Gelu => (single(rng), Keywords::Approximate(rng.chance(50))),
        Family::Binary | Family::Logical => (binary_operands(rng, dtype, ranks), Keywords::None),
        Family::MatMul => matmul_operands(rng, dtype, ranks),
        Family::BiasAdd => {
            let x = shape(rng, rank);
            let last = x[rank - 1];
            let bias = if rng.chance(8) { last + 1 } else { last };
            let operands = vec![
                Operand::Tensor(input(rng, dtype, x)),
                Operand::Tensor(input(rng, dtype, vec![bias])),
            ];
            (operands, Keywords::None)
        }
        Family::Reduce | Family::Moments | Family::Reverse => {
            let n = rng.within(1, rank);
            let axes = distinct_axes(rng, rank, n);
            let keepdims = op.family != Family::Reverse && rng.chance(50);
            (single(rng), Keywords::Axes(axes, keepdims))
        }
        Family::L2Normalize => {
            // One axis half the time, else one or several.
            let n = if rng.chance(50) {
                1
            } else {
                rng.within(1, rank)
            };
            let axes = distinct_axes(rng, rank, n);
            let epsilon = rng.pick(&[1e-12, 1e-6, 0.5, 0.0, 4.0]);
            (single(rng), Keywords::Epsilon(axes, epsilon))
        }
        Family::ArgReduce => {
            let index = rng.pick(&[DType::I32, DType::I64]);
            let axis = one_axis(rng, rank);
            (single(rng), Keywords::Index(axis, index))
        }
        Family::AlongAxis => {
            let axis = one_axis(rng, rank);
            (single(rng), Keywords::Axis(axis))
        }
        Family::Cumsum => {
            let axis = one_axis(rng, rank);
            let keywords = Keywords::Cumsum(axis, rng.chance(50), rng.chance(50));
            (single(rng), keywords)
        }
        Family::Transpose => {
            // Omitted in eager a fifth of the time: the axes reversed.
            let omitted = rng.chance(20);
            let mut perm: Vec<i64> = (0..rank as i64).rev().collect();
            if !omitted {
                for i in (1..rank).rev() {
                    perm.swap(i, rng.below(i + 1));
                }
            }
            (single(rng), Keywords::Perm(perm, omitted))
        }
        Family::Cast => {
            let to = rng.pick(DType::ALL);
            (single(rng), Keywords::To(to))
        }
        Family::Shape => {
            let to = rng.pick(&[DType::I32, DType::I64]);
            (single(rng), Keywords::To(to))
        }
        Family::ExpandDims => {
            let axis = rng.within(0, 2 * rank + 1) as i64 - (rank as i64 + 1);
            (single(rng), Keywords::Axis(axis))
        }
        Family::Squeeze => squeeze_operands(rng, dtype, rank),
        Family::Select => select_operands(rng, dtype),
        Family::Reshape => reshape_operands(rng, dtype, rank),
        Family::BroadcastTo => broadcast_to_operands(rng, dtype, rank),
        Family::PerAxis => {
            let multiples = (0..rank)
                .map(|_| match rng.below(100) {
                    0..=4 => -1,
                    5..=14 => 0,
                    15..=69 => 1,
                    70..=89 => 2,
                    _ => 3,
                })
                .collect();
            let mut operands = single(rng);
            operands.push(Operand::Dims(multiples));
            (operands, Keywords::None)
        }
        Family::Gather => gather_operands(rng, dtype, false),
        Family::Lookup => gather_operands(rng, dtype, true),
        Family::Window => slice_operands(rng, dtype, rank),
        Family::Join => list_operands(rng, dtype, rank, false),
        Family::Stack => list_operands(rng, dtype, rank, true),
        Family::Index => index_operands(rng, dtype, rank),
        Family::Split => {
            let mut shape = shape(rng, rank);
            let axis = rng.below(rank);
            let parts = if rng.chance(2) { 0 } else { rng.within(1, 4) };
            // Parts that divide the axis mostly; now and then not (raises).
            if parts > 0 && rng.chance(85) {
                shape[axis] = parts * rng.within(0, 2);
            }
            let operands = vec![Operand::Tensor(input(rng, dtype, shape))];
            (
                operands,
                Keywords::Parts(parts, signed_axis(rng, axis, rank)),
            )
        }
        Family::Unstack => {
            let shape = shape(rng, rank);
            let axis = rng.below(rank);
            let size = shape[axis];
            // The axis' size, or now and then one more or less (raises).
            let num = match rng.below(100) {
                0..=3 => size + 1,
                4..=7 if size > 0 => size - 1,
                _ => size,
            };
            let operands = vec![Operand::Tensor(input(rng, dtype, shape))];
            (operands, Keywords::Parts(num, signed_axis(rng, axis, rank)))
        }
        Family::TopK => {
            let shape = shape(rng, rank);
            let last = shape[rank - 1];
            // No negative `k`: rxt-tf refuses it before running (ValueError,
            // "`k` must be a non-negative integer literal"), eager's kernel
            // raises InvalidArgumentError.
            let k = if rng.chance(8) {
                last as i64 + 1
            } else {
                rng.within(0, last) as i64
            };
            let operands = vec![Operand::Tensor(input(rng, dtype, shape))];
            (operands, Keywords::TopK(k, rng.chance(50)))
        }
        Family::Sort => sort_operands(rng, dtype, rank),
        Family::OneHot => one_hot_operands(rng, dtype, rank),
        Family::Pad => {
            let mut paddings: Vec<[i64; 2]> = (0..rank)
                .map(|_| [rng.within(0, 2) as i64, rng.within(0, 2) as i64])
                .collect();
            if rng.chance(5) {
                paddings[rng.below(rank)][rng.below(2)] = -1;
            }
            let constant = pad_constant(rng, dtype);
            let mut operands = single(rng);
            operands.push(Operand::Pairs(paddings));
            (operands, Keywords::Constant(constant))
        }
        Family::MirrorPad => mirror_pad_operands(rng, dtype, rank),
        Family::Fill => {
            let n = rng.within(0, usize::from(rxt_tf_spec::MAX_RANK));
            let dims = Operand::Dims(sizes(rng, n));
            let value = match rng.below(10) {
                0..=2 if dtype == DType::I32 => Operand::Int(int_literal(rng, dtype)),
                // Within float32's range: eager converts `tf.fill(dims, 1e300)`'s
                // literal on its own, as float32, and raises ValueError
                // ("Can't convert Python sequence with a value out of
                // range"), where rxt-tf fills with inf.
                0..=2 if dtype == DType::F32 => {
                    let literal = float_literal(rng);
                    if literal.abs() > f64::from(f32::MAX) {
                        Operand::Float(f64::from(literal as f32))
                    } else {
                        Operand::Float(literal)
                    }
                }
                3..=5 => Operand::Tensor(input(rng, dtype, vec![])),
                _ => Operand::Scalar(input(rng, dtype, vec![])),
            };
            (vec![dims, value], Keywords::None)
        }
        Family::Filled => {
            let n = rng.within(0, usize::from(rxt_tf_spec::MAX_RANK));
            (vec![Operand::Dims(sizes(rng, n))], Keywords::To(dtype))
        }
        Family::Eye => {
            // 0–6, now and then negative (raises).
            let size = if rng.chance(6) {
                rng.pick(&[-1, -2, -5])
            } else {
                rng.within(0, 6) as i64
            };
            (vec![Operand::Size(size)], Keywords::To(dtype))
        }
        Family::Range => range_operands(rng, dtype),
        Family::SplitSizes => {
            let mut shape = shape(rng, rank);
            let axis = rng.below(rank);
            let n = rng.within(1, 4);
            let mut sizes: Vec<i64> = (0..n).map(|_| rng.within(0, 3) as i64).collect();
            shape[axis] = sizes.iter().sum::<i64>() as usize;
            if rng.chance(25) {
                sizes[rng.below(n)] = -1;
            }
            // Sizes that do not add up to the axis now and then (raises).
            if rng.chance(8) {
                let i = rng.below(n);
                match rng.below(3) {
                    0 => sizes[i] += 1,
                    1 if n > 1 => {
                        sizes[i] = -1;
                        sizes[(i + 1) % n] = -1;
                    }
                    _ => sizes[i] = -2,
                }
            }
            let operands = vec![
                Operand::Tensor(input(rng, dtype, shape)),
                Operand::Dims(sizes),
            ];
            (operands, Keywords::Axis(signed_axis(rng, axis, rank)))
        }
        Family::Clip => {
            let float = dtype.is_float();
            let bound = |rng: &mut Rng| {
                if float {
                    (rng.below(49) as f64 - 24.0) / 4.0
                } else {
                    rng.below(21) as f64 - 10.0
                }
            };
            let (mut lo, mut hi) = (bound(rng), bound(rng));
            // Bounds the wrong way round now and then, a NaN bound and
            // 0.0 bounds (where a `ClipByValue` kernel differed from
            // eager's `maximum(minimum(x, hi), lo)`, which rxt-tf now runs:
            // NaN everywhere for a NaN bound, +0.0 for −0.0 on eager's
            // vectorized path).
            if lo > hi && rng.chance(80) {
                (lo, hi) = (hi, lo);
            }
            if float && rng.chance(5) {
                lo = f64::NAN;
            }
            let mut operands = single(rng);
            operands.extend([lo, hi].map(|value| scalar_operand(rng, dtype, value)));
            (operands, Keywords::None)
        }
        Family::Conv2d | Family::DepthwiseConv2d | Family::Conv1d | Family::Conv3d => {
            conv_operands(rng, op.family, dtype)
        }
        Family::Pool2d | Family::Pool1d | Family::Pool3d => {
            let max = op.name.starts_with("max_");
            let axes = match op.family {
                Family::Pool1d => 1,
                Family::Pool2d => 2,
                _ => 3,
            };
            pool_operands(rng, axes, max, dtype)
        }
        Family::BatchNorm => batch_norm_operands(rng, dtype, rank),
        Family::FusedBatchNorm => fused_batch_norm_operands(rng, dtype),
        Family::Einsum => einsum_operands(rng, dtype, rank, 2),
        Family::Contract => contract_operands(rng, dtype, rank),
        Family::BandPart => band_operands(rng, dtype, rank),
        Family::EinsumOne => einsum_operands(rng, dtype, rank, 1),
        Family::EinsumThree => einsum_operands(rng, dtype, rank, 3),
    };
    let mut case = Case {
        op,
        dtype,
        operands,
        keywords,
    };
    avoid_signed_zero_scalars(&mut case);
    case
}
