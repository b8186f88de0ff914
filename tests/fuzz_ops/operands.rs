//! Drawing the operands and keywords of ops beyond one tensor: matmul,
//! squeeze and the ops that move and make data.

use rxt_tf::__private::DType;
use rxt_tf::{bf16, f16};

use crate::cases::{Input, Keywords, Operand, Values};
use crate::common::Rng;
use crate::draw::{
    broadcast_from, broadcast_pair, dim, float_literal, input, int_literal, misalign, one_axis,
    shape,
};

/// Two matmul operands with broadcasting batches; the inner dimensions or
/// the batches disagree sometimes.
pub(crate) fn matmul_operands(
    rng: &mut Rng,
    dtype: DType,
    ranks: (usize, usize),
) -> (Vec<Operand>, Keywords) {
    let (ra, rb) = (rng.within(ranks.0, ranks.1), rng.within(ranks.0, ranks.1));
    let (mut batch_a, mut batch_b) = broadcast_pair(rng, ra - 2, rb - 2);
    if rng.chance(4) {
        misalign(rng, &mut batch_a, &mut batch_b);
    }
    let (m, k, n) = (dim(rng), dim(rng), dim(rng));
    let kb = if rng.chance(6) { k + 1 } else { k };
    let (ta, tb) = (rng.chance(50), rng.chance(50));
    batch_a.extend(if ta { [k, m] } else { [m, k] });
    batch_b.extend(if tb { [n, kb] } else { [kb, n] });
    let operands = vec![
        Operand::Tensor(input(rng, dtype, batch_a)),
        Operand::Tensor(input(rng, dtype, batch_b)),
    ];
    (operands, Keywords::Transpose(ta, tb))
}

/// A tensor with axes of size 1, and some of them to squeeze (now and
/// then an axis of another size, which raises).
pub(crate) fn squeeze_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
) -> (Vec<Operand>, Keywords) {
    let shape: Vec<usize> = (0..rank)
        .map(|_| if rng.chance(50) { 1 } else { dim(rng) })
        .collect();
    let ones: Vec<usize> = (0..rank).filter(|&i| shape[i] == 1).collect();
    let mut chosen: Vec<usize> = ones.iter().copied().filter(|_| rng.chance(60)).collect();
    if chosen.is_empty() || rng.chance(8) {
        let others: Vec<usize> = (0..rank).filter(|i| !chosen.contains(i)).collect();
        if !others.is_empty() {
            chosen.push(rng.pick(&others));
        }
    }
    let axes = chosen
        .into_iter()
        .map(|a| {
            if rng.chance(50) {
                a as i64 - rank as i64
            } else {
                a as i64
            }
        })
        .collect();
    let operands = vec![Operand::Tensor(input(rng, dtype, shape))];
    (operands, Keywords::Axes(axes, false))
}

/// `axis` of a rank-`rank` tensor, written negative half the time.
pub(crate) fn signed_axis(rng: &mut Rng, axis: usize, rank: usize) -> i64 {
    if rng.chance(50) {
        axis as i64 - rank as i64
    } else {
        axis as i64
    }
}

/// Shuffles `items` in place.
pub(crate) fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

/// `n` sizes of a new tensor: 0–4 each, now and then a −1 (raises).
pub(crate) fn sizes(rng: &mut Rng, n: usize) -> Vec<i64> {
    let mut sizes: Vec<i64> = (0..n).map(|_| dim(rng) as i64).collect();
    if n > 0 && rng.chance(5) {
        sizes[rng.below(n)] = -1;
    }
    sizes
}

/// `where`'s condition and values: shapes broadcasting (sometimes not),
/// one value a run-time scalar or a literal now and then.
pub(crate) fn select_operands(rng: &mut Rng, dtype: DType) -> (Vec<Operand>, Keywords) {
    let ranks = [0; 3].map(|_| rng.within(0, usize::from(rxt_tf_spec::MAX_RANK)));
    let full = shape(rng, ranks.into_iter().max().unwrap_or(0));
    let mut shapes = ranks.map(|rank| broadcast_from(rng, &full, rank));
    if rng.chance(8) {
        let (i, j) = rng.pick(&[(0, 1), (0, 2), (1, 2)]);
        let (left, right) = shapes.split_at_mut(j);
        misalign(rng, &mut left[i], &mut right[0]);
    }
    let [c, a, b] = shapes;
    let mut values = vec![
        Operand::Tensor(input(rng, dtype, a)),
        Operand::Tensor(input(rng, dtype, b)),
    ];
    let other = match rng.below(100) {
        0..=64 => None,
        65..=79 => Some(Operand::Scalar(input(rng, dtype, vec![]))),
        80..=89 if dtype != DType::Bool => Some(Operand::Int(int_literal(rng, dtype))),
        _ if dtype.is_float() => Some(Operand::Float(float_literal(rng))),
        _ if dtype != DType::Bool => Some(Operand::Int(int_literal(rng, dtype))),
        _ => Some(Operand::Scalar(input(rng, dtype, vec![]))),
    };
    if let Some(other) = other {
        values[rng.below(2)] = other;
    }
    let mut operands = vec![Operand::Tensor(input(rng, DType::Bool, c))];
    operands.extend(values);
    (operands, Keywords::None)
}

/// A tensor and sizes of the same count of elements (one −1 now and then),
/// sometimes sizes that do not fit (raises).
pub(crate) fn reshape_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
) -> (Vec<Operand>, Keywords) {
    let shape = shape(rng, rank);
    let count: usize = shape.iter().product();
    let n = rng.within(0, usize::from(rxt_tf_spec::MAX_RANK));
    let mut sizes = vec![1_i64; n];
    if n > 0 {
        if count == 0 {
            sizes = (0..n).map(|_| rng.within(0, 4) as i64).collect();
            sizes[rng.below(n)] = 0;
        } else {
            let mut rest = count;
            for size in sizes.iter_mut().take(n - 1) {
                let divisors: Vec<usize> = (1..=rest.min(8))
                    .filter(|d| rest.is_multiple_of(*d))
                    .collect();
                let d = rng.pick(&divisors);
                *size = d as i64;
                rest /= d;
            }
            sizes[n - 1] = rest as i64;
            shuffle(rng, &mut sizes);
        }
        if rng.chance(30) {
            sizes[rng.below(n)] = -1;
        }
    }
    if n > 0 && rng.chance(8) {
        let i = rng.below(n);
        match rng.below(4) {
            0 => sizes[i] += 1,
            1 if n > 1 => {
                sizes[i] = -1;
                sizes[(i + 1) % n] = -1;
            }
            2 => sizes[i] = -2,
            // Of no elements, a size of i64::MAX is a valid (empty) result
            // NumPy cannot compare.
            _ if count == 0 => sizes[i] = -3,
            _ => sizes[i] = i64::MAX,
        }
    }
    let operands = vec![
        Operand::Tensor(input(rng, dtype, shape)),
        Operand::Dims(sizes),
    ];
    (operands, Keywords::None)
}

/// A tensor and sizes it broadcasts to: its own sizes or any where it has
/// size 1, and leading ones; now and then sizes it does not fit, fewer sizes
/// than its rank, or a negative size (raises).
pub(crate) fn broadcast_to_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
) -> (Vec<Operand>, Keywords) {
    let n = rng.within(rank, usize::from(rxt_tf_spec::MAX_RANK));
    let full = shape(rng, n);
    let from = broadcast_from(rng, &full, rank);
    let mut sizes: Vec<i64> = full.iter().map(|&d| d as i64).collect();
    if n > 0 && rng.chance(8) {
        let i = rng.below(n);
        match rng.below(3) {
            0 => sizes[i] += 2,
            1 => sizes[i] = -1,
            _ => {
                sizes.remove(i);
            }
        }
    }
    let operands = vec![
        Operand::Tensor(input(rng, dtype, from)),
        Operand::Dims(sizes),
    ];
    (operands, Keywords::None)
}

/// Params and int32 or int64 indices (for `lookup`, ids of the first axis),
/// with `batch_dims` leading axes alike; indices out of range, batches that
/// differ and an axis before `batch_dims` now and then (raises).
pub(crate) fn gather_operands(
    rng: &mut Rng,
    dtype: DType,
    lookup: bool,
) -> (Vec<Operand>, Keywords) {
    let (rank, index_rank, batch_dims) = loop {
        let (rank, index_rank) = (
            rng.within(1, usize::from(rxt_tf_spec::MAX_RANK)),
            rng.within(0, usize::from(rxt_tf_spec::MAX_RANK)),
        );
        let batch_dims = if lookup || rng.chance(60) {
            0
        } else {
            rng.within(0, index_rank.min(rank - 1))
        };
        if rank - 1 + index_rank - batch_dims <= usize::from(rxt_tf_spec::MAX_RANK) {
            break (rank, index_rank, batch_dims);
        }
    };
    let params = shape(rng, rank);
    let mut indices = params[..batch_dims].to_vec();
    indices.extend(shape(rng, index_rank - batch_dims));
    if batch_dims > 0 && rng.chance(5) {
        let i = rng.below(batch_dims);
        indices[i] = indices[i] % 4 + 1;
    }
    // An axis before `batch_dims` (raises) is written negative: eager's
    // `tf.gather` drops `batch_dims` for an axis of literally 0 (it gives
    // `tf.gather(x, i, axis=0)`), where rxt-tf passes both to `GatherV2`
    // (InvalidArgumentError "batch_dims (1) must be less than or equal to
    // axis (0)").
    let early = !lookup && batch_dims > 0 && rng.chance(10);
    let axis = if lookup {
        0
    } else if early {
        rng.below(batch_dims)
    } else {
        rng.within(batch_dims, rank - 1)
    };
    let size = params[axis] as i64;
    let count: usize = indices.iter().product();
    let mut ids: Vec<i64> = (0..count)
        .map(|_| rng.below(size.max(1) as usize) as i64)
        .collect();
    if count > 0 && rng.chance(6) {
        ids[rng.below(count)] = rng.pick(&[size, -1, size + 5, i64::from(i32::MAX)]);
    }
    let values = if rng.chance(50) {
        Values::I32(ids.iter().map(|&id| id as i32).collect())
    } else {
        Values::I64(ids)
    };
    let operands = vec![
        Operand::Tensor(input(rng, dtype, params)),
        Operand::Tensor(Input {
            shape: indices,
            values,
        }),
    ];
    let keywords = match (lookup, early) {
        (true, _) => Keywords::None,
        (false, true) => Keywords::Gather(axis as i64 - rank as i64, batch_dims),
        (false, false) => Keywords::Gather(signed_axis(rng, axis, rank), batch_dims),
    };
    (operands, keywords)
}

/// A tensor, a begin and sizes (−1: to the end) inside it; now and then a
/// window past an end (raises).
pub(crate) fn slice_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
    let shape = shape(rng, rank);
    let mut begin = Vec::with_capacity(rank);
    let mut size = Vec::with_capacity(rank);
    for &d in &shape {
        let b = rng.within(0, d);
        begin.push(b as i64);
        size.push(if rng.chance(25) {
            -1
        } else {
            rng.within(0, d - b) as i64
        });
    }
    if rng.chance(8) {
        let i = rng.below(rank);
        let d = shape[i] as i64;
        match rng.below(4) {
            0 => begin[i] = d + 1,
            1 => begin[i] = -1,
            2 => size[i] = d - begin[i] + 1,
            _ => size[i] = -2,
        }
    }
    let operands = vec![
        Operand::Tensor(input(rng, dtype, shape)),
        Operand::Dims(begin),
        Operand::Dims(size),
    ];
    (operands, Keywords::None)
}

/// 2–8 tensors of one rank to join along an axis (sizes along it differ)
/// or `stack` along a new one (one shape); now and then a size off the
/// axis differs (raises).
pub(crate) fn list_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
    stack: bool,
) -> (Vec<Operand>, Keywords) {
    let n = if rng.chance(60) {
        rng.within(2, 3)
    } else {
        rng.within(2, 8)
    };
    let base = shape(rng, rank);
    let axes = if stack { rank + 1 } else { rank };
    let axis = rng.below(axes);
    let mut shapes: Vec<Vec<usize>> = (0..n)
        .map(|_| {
            let mut shape = base.clone();
            if !stack {
                shape[axis] = dim(rng);
            }
            shape
        })
        .collect();
    if rank > 0 && rng.chance(8) {
        let (j, i) = (rng.below(n), rng.below(rank));
        if stack || i != axis {
            shapes[j][i] = shapes[j][i] % 4 + 1;
        }
    }
    let inputs = shapes.into_iter().map(|s| input(rng, dtype, s)).collect();
    let keywords = Keywords::Axis(signed_axis(rng, axis, axes));
    (vec![Operand::List(inputs)], keywords)
}

/// The kinds of an index's entries (`x[a:b:c, i, None, ...]`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    Range,
    Shrink,
    NewAxis,
    Ellipsis,
}

/// A tensor, begins, ends, strides and masks of Python's indexing: ranges
/// (either end masked now and then), integers, up to 2 new axes and an
/// ellipsis, at most one entry per axis; indices out of range and strides
/// of 0 now and then (raises).
pub(crate) fn index_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
    let shape = shape(rng, rank);
    let indexed = rng.within(0, rank);
    let mut entries: Vec<Entry> = (0..indexed)
        .map(|_| {
            if rng.chance(30) {
                Entry::Shrink
            } else {
                Entry::Range
            }
        })
        .collect();
    let shrunk = entries.iter().filter(|e| **e == Entry::Shrink).count();
    let new = if rng.chance(30) {
        rng.within(
            0,
            (usize::from(rxt_tf_spec::MAX_RANK) + shrunk - rank).min(2),
        )
    } else {
        0
    };
    for _ in 0..new {
        let at = rng.within(0, entries.len());
        entries.insert(at, Entry::NewAxis);
    }
    if rng.chance(30) {
        let at = rng.within(0, entries.len());
        entries.insert(at, Entry::Ellipsis);
    }
    // Entries before an ellipsis index the first axes, after it the last.
    let ellipsis = entries.iter().position(|e| *e == Entry::Ellipsis);
    let after = ellipsis.map_or(0, |at| {
        entries[at..]
            .iter()
            .filter(|e| matches!(e, Entry::Range | Entry::Shrink))
            .count()
    });
    let (mut front, mut back) = (0, rank - after);
    let (mut begin, mut end, mut strides) = (Vec::new(), Vec::new(), Vec::new());
    let mut masks = [0_i64; 5];
    for (i, entry) in entries.iter().enumerate() {
        let bit = 1 << i;
        let (b, e, s) = match entry {
            Entry::Ellipsis => {
                masks[2] |= bit;
                (0, 0, 1)
            }
            Entry::NewAxis => {
                masks[3] |= bit;
                (0, 0, 1)
            }
            Entry::Range | Entry::Shrink => {
                let axis = if ellipsis.is_some_and(|at| i > at) {
                    back += 1;
                    back - 1
                } else {
                    front += 1;
                    front - 1
                };
                let d = shape[axis] as i64;
                if *entry == Entry::Shrink {
                    masks[4] |= bit;
                    let b = if d == 0 || rng.chance(8) {
                        rng.pick(&[d, -d - 1])
                    } else {
                        rng.within(0, 2 * d as usize - 1) as i64 - d
                    };
                    let s = if rng.chance(5) { rng.pick(&[-1, 2]) } else { 1 };
                    (b, b + 1, s)
                } else {
                    for mask in &mut masks[..2] {
                        if rng.chance(25) {
                            *mask |= bit;
                        }
                    }
                    let mut bound = || rng.within(0, 2 * d as usize + 2) as i64 - (d + 1);
                    let (b, e) = (bound(), bound());
                    let s = if rng.chance(3) {
                        0
                    } else {
                        rng.pick(&[1, 1, 1, 2, 3, -1, -2])
                    };
                    (b, e, s)
                }
            }
        };
        begin.push(b);
        end.push(e);
        strides.push(s);
    }
    let operands = vec![
        Operand::Tensor(input(rng, dtype, shape)),
        Operand::Dims(begin),
        Operand::Dims(end),
        Operand::Dims(strides),
    ];
    (operands, Keywords::Masks(masks))
}

/// A tensor to sort, with ties half the time (see [`ties`]), an axis and a
/// direction. No axis out of range: both raise InvalidArgumentError, but
/// rxt-tf's before running ("does not fit a rank-r tensor") and eager's
/// from the `StridedSlice` of its shape, messages apart. No other
/// direction: both raise ValueError, rxt-tf's a keyword error before
/// running (its message not `rxt-tf: sort failed: …`).
pub(crate) fn sort_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
    let shape = shape(rng, rank);
    let mut x = input(rng, dtype, shape);
    if rng.chance(50) {
        const EDGES: [f64; 5] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0];
        match &mut x.values {
            Values::F32(v) => ties(rng, v, &EDGES.map(|edge| edge as f32)),
            Values::F64(v) => ties(rng, v, &EDGES),
            Values::BF16(v) => ties(rng, v, &EDGES.map(bf16::from_f64)),
            Values::F16(v) => ties(rng, v, &EDGES.map(f16::from_f64)),
            Values::I32(v) => ties(rng, v, &[i32::MIN, i32::MAX, 0, -1]),
            Values::I64(v) => ties(rng, v, &[i64::MIN, i64::MAX, 0, -1]),
            Values::Bool(_) => {}
        }
    }
    let axis = one_axis(rng, rank);
    let direction = rng.pick(&["ASCENDING", "DESCENDING"]);
    (vec![Operand::Tensor(x)], Keywords::Sort(axis, direction))
}

/// Most of `values` replaced by one of 1–3 values, each one of theirs or
/// one of `edges` (NaN, ±inf and ±0.0; the integer extremes): ties.
pub(crate) fn ties<T: Copy>(rng: &mut Rng, values: &mut [T], edges: &[T]) {
    if values.is_empty() {
        return;
    }
    let n = rng.within(1, 3);
    let pool: Vec<T> = (0..n)
        .map(|_| {
            if rng.chance(50) {
                values[rng.below(values.len())]
            } else {
                rng.pick(edges)
            }
        })
        .collect();
    for value in values.iter_mut() {
        if rng.chance(75) {
            *value = rng.pick(&pool);
        }
    }
}

/// `on_value` and `off_value` of `one_hot` (float32 after conversion).
pub(crate) const ONE_HOT_VALUES: &[f64] =
    &[1.0, 0.0, 5.0, -1.0, 0.5, -2.5, 0.1, 3.4e38, 1e-45, -7.25];

/// Indices (−1 and the depth, out of range, now and then), a depth (−1,
/// raising, now and then), values and an axis of the result.
pub(crate) fn one_hot_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
) -> (Vec<Operand>, Keywords) {
    let shape = shape(rng, rank);
    let depth = if rng.chance(5) {
        -1
    } else {
        rng.within(0, 4) as i64
    };
    let count: usize = shape.iter().product();
    let ids: Vec<i64> = (0..count)
        .map(|_| match rng.below(10) {
            0 => -1,
            1 => depth,
            2 => rng.pick(&[i64::from(i32::MAX), i64::from(i32::MIN)]),
            _ => rng.below(depth.max(1) as usize) as i64,
        })
        .collect();
    let values = if dtype == DType::I32 {
        Values::I32(ids.iter().map(|&id| id as i32).collect())
    } else {
        Values::I64(ids)
    };
    let (on, off) = if rng.chance(40) {
        (1.0, 0.0)
    } else {
        (rng.pick(ONE_HOT_VALUES), rng.pick(ONE_HOT_VALUES))
    };
    let axis = if rng.chance(60) {
        -1
    } else {
        rng.within(0, 2 * rank + 1) as i64 - (rank as i64 + 1)
    };
    let operands = vec![
        Operand::Tensor(Input { shape, values }),
        Operand::Size(depth),
    ];
    (operands, Keywords::OneHot(on, off, axis))
}

/// A `constant_values` for a tensor of `dtype` (exact in it; no −0.0, see
/// [`avoid_signed_zero_scalars`]).
pub(crate) fn pad_constant(rng: &mut Rng, dtype: DType) -> f64 {
    match dtype {
        DType::F32 | DType::F64 | DType::BF16 | DType::F16 => rng.pick(&[
            0.0,
            1.5,
            -2.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.1,
            1e30,
            3.4e38,
            1e-45,
            -7.0,
        ]),
        DType::I32 => rng.pick(&[0.0, 7.0, -3.0, 65_536.0, 2_147_483_647.0, -2_147_483_648.0]),
        // Integral floats up to i64's range (−2**63 found that rxt-tf took
        // none past ±9e15: fixed).
        DType::I64 => rng.pick(&[
            0.0,
            7.0,
            -3.0,
            1_099_511_627_776.0,
            -8_999_999_999_999_999.0,
            i64::MIN as f64,
        ]),
        DType::Bool => rng.pick(&[0.0, 1.0]),
    }
}

/// A tensor, paddings within what the mode mirrors (past it, raising, now
/// and then) and the mode.
pub(crate) fn mirror_pad_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
) -> (Vec<Operand>, Keywords) {
    let mode = rng.pick(&["REFLECT", "SYMMETRIC"]);
    let reflect = mode == "REFLECT";
    let shape = shape(rng, rank);
    let widest = |d: usize| if reflect { d as i64 - 1 } else { d as i64 };
    let mut paddings: Vec<[i64; 2]> = shape
        .iter()
        .map(|&d| [0; 2].map(|_| rng.within(0, widest(d).max(0) as usize) as i64))
        .collect();
    if rng.chance(8) {
        let i = rng.below(rank);
        paddings[i][rng.below(2)] = widest(shape[i]) + 1;
    }
    let operands = vec![
        Operand::Tensor(input(rng, dtype, shape)),
        Operand::Pairs(paddings),
    ];
    (operands, Keywords::Mode(mode))
}

/// A rank-0 tensor of `dtype` holding `value`.
pub(crate) fn scalar_input(dtype: DType, value: f64) -> Input {
    let values = match dtype {
        DType::F32 => Values::F32(vec![value as f32]),
        DType::F64 => Values::F64(vec![value]),
        DType::BF16 => Values::BF16(vec![bf16::from_f64(value)]),
        DType::F16 => Values::F16(vec![f16::from_f64(value)]),
        DType::I32 => Values::I32(vec![value as i32]),
        DType::I64 => Values::I64(vec![value as i64]),
        DType::Bool => Values::Bool(vec![value != 0.0]),
    };
    Input {
        shape: Vec::new(),
        values,
    }
}

/// `range`'s start, limit and delta, each a run-time scalar, a rank-0
/// tensor or a literal (an integer one for a whole number, a float one
/// beside floats); a limit the wrong way from the start, a delta of 0 and
/// NaN or ±inf now and then (raises).
pub(crate) fn range_operands(rng: &mut Rng, dtype: DType) -> (Vec<Operand>, Keywords) {
    let float = dtype.is_float();
    let start = if float {
        (rng.below(81) as f64 - 40.0) / 4.0
    } else {
        rng.below(21) as f64 - 10.0
    };
    let delta = match rng.below(100) {
        0..=3 => 0.0,
        _ if float => rng.pick(&[0.5, 0.25, 1.0, -0.5, -1.5, 0.1, -0.3, 2.0, 3.0, -1.0]),
        _ => rng.pick(&[1.0, 1.0, 2.0, 3.0, -1.0, -2.0, -4.0]),
    };
    let limit = if rng.chance(15) {
        rng.below(21) as f64 - 10.0
    } else {
        let jitter = if float {
            rng.pick(&[0.0, 0.125, -0.125])
        } else {
            rng.pick(&[0.0, 1.0, -1.0])
        };
        start + delta * rng.within(0, 8) as f64 + jitter
    };
    let mut values = [start, limit, delta];
    if float && rng.chance(3) {
        values[rng.below(3)] = rng.pick(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY]);
    }
    let operands = values
        .into_iter()
        .map(|value| match scalar_operand(rng, dtype, value) {
            // No float literal float32 does not hold beside float64 operands:
            // eager's `tf.range` converts each operand on its own (a
            // literal to float32) and then casts to the widest type, so
            // `tf.range(tf.constant(-8.75, tf.float64), -1, 0.1)` steps by
            // 0.10000000149011612, where rxt-tf steps by 0.1.
            Operand::Float(literal)
                if dtype == DType::F64 && f64::from(literal as f32) != literal =>
            {
                Operand::Scalar(scalar_input(dtype, value))
            }
            operand => operand,
        })
        .collect();
    (operands, Keywords::None)
}

/// `value` as a scalar operand beside others of `dtype`: a run-time scalar,
/// a rank-0 tensor, or a literal (an integer one for a whole number, a
/// float one for a float type).
pub(crate) fn scalar_operand(rng: &mut Rng, dtype: DType, value: f64) -> Operand {
    let whole = value.is_finite() && value.fract() == 0.0;
    match rng.below(100) {
        0..=19 if whole => Operand::Int(value as i64),
        20..=39 if dtype.is_float() => Operand::Float(value),
        40..=64 => Operand::Tensor(scalar_input(dtype, value)),
        _ => Operand::Scalar(scalar_input(dtype, value)),
    }
}

/// Two tensors whose last `n` and first `n` axes have one size each (now
/// and then one differs, which raises), and `n`: the result has rank at
/// most `MAX_RANK`.
pub(crate) fn contract_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
) -> (Vec<Operand>, Keywords) {
    let max = usize::from(rxt_tf_spec::MAX_RANK);
    let axes = rng.below(rank + 1);
    let other = rng.within(axes, (max + 2 * axes - rank).min(max));
    let shared: Vec<usize> = (0..axes).map(|_| dim(rng)).collect();
    let mut a: Vec<usize> = (0..rank - axes).map(|_| dim(rng)).collect();
    a.extend(&shared);
    let mut b = shared;
    b.extend((0..other - axes).map(|_| dim(rng)));
    if axes > 0 && rng.chance(6) {
        b[0] += 1;
    }
    let out = rank + other - 2 * axes;
    let operands = vec![
        Operand::Tensor(input(rng, dtype, a)),
        Operand::Tensor(input(rng, dtype, b)),
    ];
    (operands, Keywords::Contract(axes, out))
}

/// A tensor of `rank` (at least 2) and the diagonals `band_part` keeps
/// below and above the main one: all (-1), a few, now and then 9 (more
/// than a matrix of fewer rows or columns has, which raises).
pub(crate) fn band_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
    let shape = shape(rng, rank);
    let count = |rng: &mut Rng| rng.pick(&[-1, 0, 0, 1, 2]);
    let (mut lower, mut upper) = (count(rng), count(rng));
    if rng.chance(6) {
        if rng.chance(50) {
            lower = 9;
        } else {
            upper = 9;
        }
    }
    (
        vec![Operand::Tensor(input(rng, dtype, shape))],
        Keywords::Band(lower, upper),
    )
}
