//! Differential fuzzing of the op table against eager TensorFlow: random
//! cases (op, element type, shapes, keywords, values), drawn with a fixed
//! seed, run through the plain functions of `rxt_tf::ops` and through the
//! eager `tf.*` call, must give the same tensor bit for bit (dtype, shape,
//! NaN positions, the sign of zero), or both raise the same `tf.errors`
//! class, rxt-tf's message beginning `rxt-tf: <op> failed: ` (the op as
//! called: `einsum` for the rows `einsum_one` and `einsum_three`).
//!
//! Every op of the README's op table (`rxt_tf_spec::OPS`) has a line in the
//! fuzz table below (the test fails naming any op without one). Each run
//! first draws one case of every form, each op at each element type its row
//! lists and each rank its rule takes for its first operand, then the
//! random cases, each op drawn on its element types and ranks: element-wise
//! ops (float-only, integer and bool ones, `leaky_relu`'s `alpha`, `gelu`
//! exact or approximate); broadcasting binary ops on two tensors of ranks
//! 0–4 (shapes compatible most of the time, incompatible sometimes), or on
//! a tensor beside a run-time `Scalar` or a literal on either side (integer
//! `div` promoting to float64, comparisons giving bool, integer division by
//! zero and negative integer powers raising, `i32::MIN` floordiv −1
//! wrapping); matmul of ranks 2–4 with broadcasting batches and both
//! transpose flags; `bias_add`; reductions over random axes (negative,
//! several, `keepdims`), the float ones `reduce_variance`, `reduce_std` and
//! `reduce_logsumexp` among them; `moments` likewise, giving the mean and
//! the variance, compared tensor by tensor; `l2_normalize` along one axis
//! or several distinct ones, `epsilon` 0, 1e-12, 1e-6, 0.5 or 4;
//! argmax/argmin with either output type; softmax, log_softmax and cumsum
//! on any axis; transpose by random permutations; reverse; casts between
//! every element type; expand_dims; squeeze of axes of size 1 (and,
//! raising, of other sizes); shape.
//!
//! The ops that move and make data: `where` with a bool condition of rank
//! 0–4 and two values broadcasting with it (tensors, or a tensor beside a
//! scalar or a literal); `reshape` to 0–4 run-time sizes (one −1 often;
//! sizes that do not fit, two −1, −2 or i64::MAX raising); `tile` (0–3
//! times, −1 raising); `gather` by int32 or int64 indices of ranks 0–4 on
//! any axis with `batch_dims` 0–3 (indices out of range, batches that
//! differ and an axis before `batch_dims` raising) and `embedding_lookup`;
//! `slice` (windows past an end raising); `concat` and `stack` of 2–8
//! tensors on any axis (sizes off the axis differing, raising);
//! `strided_slice` with ranges (begins and ends past the ends, masked
//! ends, strides of ±1–3, 0 raising), integer indices (out of range
//! raising), up to 2 new axes and an ellipsis; `split` into 0–4 parts (0
//! and parts that do not divide raising), `split_v` by 1–4 sizes (one −1;
//! sizes that do not add up raising) and `unstack` (a wrong `num` raising),
//! each giving a list compared tensor by tensor; `top_k` (sorted or not,
//! `k` past the last axis raising) giving values and int32 indices;
//! `sort` and `argsort` on any axis in either direction, of elements with
//! many ties (NaN, ±inf, ±0.0 and the integer extremes among them);
//! `one_hot` of indices in and out of range, any depth (−1 raising), axis
//! and on/off values; `pad` with a constant and `mirror_pad` in both modes
//! (negative paddings and mirrors wider than the axis raising); `fill`
//! with a run-time scalar, a rank-0 tensor or a literal, `zeros` and
//! `ones` of every element type (a size of −1 raising); `eye` of sizes
//! 0–6 and every element type (negative sizes raising); `range` and
//! `clip_by_value` of run-time scalars, rank-0 tensors and literals mixed
//! (a zero delta and a limit the wrong way raising, NaN and ±inf; bounds
//! the wrong way round). Dimensions are 0–4; values include NaN, ±inf, −0.0,
//! subnormals, extremes, random bit patterns and integer edges.
//!
//! The layers, on float32 and float64: `conv2d`, `depthwise_conv2d` and
//! `conv1d` of NHWC images or NWC sequences (batches and channels 0–4,
//! spatial dimensions 0–5) by filters of sizes 1–3, of the image's input
//! depth (now and then not: raising, or a grouped convolution for a
//! divisor), with strides 1–3 and dilations 1–2, one size or a pair, and
//! either padding (filters wider than the image raising with `"VALID"`);
//! `max_pool2d`, `avg_pool2d`, `max_pool1d` and `avg_pool1d` with windows
//! and strides 1–3 likewise; `batch_normalization` of a tensor of rank 0–4
//! and a mean, a variance (negative now and then), an offset and a scale
//! of ranks up to its own (the first two of one rank, the others of one)
//! broadcasting into it (now and then not: raising, or wider than it),
//! `variance_epsilon` 0 to 3; `einsum` of two tensors, `einsum_one` of
//! one and `einsum_three` of three (`tf.einsum(equation, a, b, c)`), by
//! equations drawn at random or, a fifth of the time, from common uses
//! (matmuls, attention, traces, diagonals, transposes; of three, chains of
//! matmuls `ij,jk,kl->il`, batched attention `bqd,bkd,bkv->bqv`, bilinear
//! forms, Hadamard products `ij,ij,ij->ij`, outer products contracted
//! `i,j,ij->`): operands of 0–4 letters, each new, repeated in an operand
//! (diagonals `ii->i`, traces `ii->`) or shared with an earlier one
//! (contractions, `ij,ij->i` reductions, products), outer products and
//! transposes; the result implicit now and then (no `->`: the letters
//! appearing once, sorted, upper case first; not with `...` in several
//! operands) or any of the letters in any order; `...` in one operand or
//! several, anywhere in them and in the result, standing for 0 axes or
//! more, broadcasting (sizes equal or 1; now and then not, raising);
//! results of rank 4 at most; each letter one size 0–4 (now and then one
//! axis of a shared or repeated letter of another size, raising), so that
//! three operands are contracted pairwise in each of the orders
//! `tf.einsum`'s greedy path may pick for their sizes; spaces around `,`
//! and `->` now and then.
//!
//! Left out, each where it is drawn, with why: −0.0 as a scalar or literal
//! (eager's constant cache mixes up ±0.0); int32 literals past i32 (eager
//! wraps them, rxt-tf raises); `"VALID"` filters and max-pool windows wider
//! than a non-empty axis leaving no output (rather than a negative size,
//! which raises): TensorFlow's oneDNN kernels, which eager and rxt-tf run,
//! then give an output of the wrong size with unwritten elements
//! (`Conv2D`, `DepthwiseConv2dNative`) or raise AbortedError or kill the
//! process with SIGFPE (`MaxPool`), so those cases pad `"SAME"`. Not left
//! out, but known: oneDNN's batch matmul is wrong (or crashes) for
//! `[B ≥ 2, 1, M ≥ 5, K] × [K, N]` (TensorFlow issue 117700, unfixed in
//! 2.21), which some einsum equations with `...` reach (seed 3, 43,756
//! cases: `...njl,...j->...njl` on `[4, 3, 1, 3]` and `[1]`); eager and
//! rxt-tf then give different garbage. `tf.math.add(2, x)`
//! raises for `x` not int32 where `2 + x` (and rxt-tf) convert the literal
//! to `x`'s type, so add, sub, mul and div are written with their operators.
//! Differences from eager found here and left out where they are drawn:
//! `top_k` with a negative `k` and `sort` or `argsort` on an axis out of
//! range (rxt-tf raises ValueError before running, eager
//! InvalidArgumentError); `gather` with an axis of literally 0 before
//! `batch_dims` (eager's `tf.gather` then drops `batch_dims`);
//! float literals past float32 in `fill` (eager raises ValueError) and
//! float literals float32 does not hold in a float64 `range` (eager rounds
//! them to float32 first); an implicit einsum equation with `...` in two
//! operands or three (`"...ij,...jk"`: rxt-tf refuses it before running,
//! as the result would drop `...`; eager runs `...ij,...jk->ik`, which
//! raises InvalidArgumentError for broadcast axes and runs without them);
//! `einsum_three` whose pairwise contraction, in the order `tf.einsum`
//! picks for the sizes, would make a result past rank 4 (rxt-tf refuses it
//! with ValueError, eager runs it: drawn again).
//!
//! `RXT_TF_FUZZ_CASES` sets the number of cases (default 10 000) and
//! `RXT_TF_FUZZ_SEED` the seed (decimal or `0x` hex); `RXT_TF_TEST_FUSED=1`
//! runs every case inside a fused scope (as `common::with_python` does for
//! every test). `--nocapture` shows a summary; `make fuzz` runs 200 000
//! cases in a release build.

mod common;

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe, PanicHookInfo};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use common::{assert_matches_eager, python_error, to_python, with_python, Rng};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use rxt_tf::__private::{op, DType, FloatLiteral, IntLiteral, OpRow};
use rxt_tf::ops::{self, Dims, Pairs, Scalar, Size, TensorList};
use rxt_tf::{Element, Tensor};

const DEFAULT_CASES: u64 = 10_000;
const DEFAULT_SEED: u64 = 0x00f0_22ed_2026_1201;

// ---------------------------------------------------------------------------
// The ops: one line each, from the table's rows.

/// How an op's cases are drawn, run and written in Python.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// One tensor, no keywords.
    Unary,
    /// One float tensor and `alpha`.
    LeakyRelu,
    /// One float tensor and `approximate` (`gelu`).
    Gelu,
    /// Two operands broadcasting: tensors, or a tensor and a scalar or a
    /// literal on either side.
    Binary,
    /// `Binary` on bool tensors only: no literals.
    Logical,
    MatMul,
    BiasAdd,
    /// Axes (one or several) and `keepdims`.
    Reduce,
    /// Axes (one or several) and `keepdims`: the mean and the variance
    /// (`moments`).
    Moments,
    /// Axes (one or several) and `epsilon` (`l2_normalize`).
    L2Normalize,
    /// One axis and an index type.
    ArgReduce,
    /// One axis.
    AlongAxis,
    /// One axis, `exclusive` and `reverse`.
    Cumsum,
    /// Axes (one or several).
    Reverse,
    Transpose,
    Cast,
    ExpandDims,
    Squeeze,
    Shape,
    /// `where`: a bool condition and two values, all broadcasting (two
    /// tensors, or a tensor and a scalar or a literal on either side).
    Select,
    /// A tensor and a run-time list of sizes (`reshape`).
    Reshape,
    /// A tensor and one run-time integer per axis (`tile`).
    PerAxis,
    /// Params, indices, an axis and `batch_dims` (`gather`).
    Gather,
    /// A table and ids (`embedding_lookup`).
    Lookup,
    /// A tensor, a begin and sizes per axis (`slice`).
    Window,
    /// A list of tensors and an axis (`concat`).
    Join,
    /// A list of tensors and a new axis (`stack`).
    Stack,
    /// Begins, ends, strides and the five masks (`strided_slice`).
    Index,
    /// A count of equal parts and an axis: a list of tensors (`split`).
    Split,
    /// A count and an axis: a list of tensors (`unstack`).
    Unstack,
    /// A run-time list of sizes and an axis: a list of tensors
    /// (`split_v`).
    SplitSizes,
    /// `k` and `sorted`: values and indices (`top_k`).
    TopK,
    /// One axis and a direction (`sort`, `argsort`).
    Sort,
    /// Indices, a depth, `on_value`, `off_value` and an axis (`one_hot`).
    OneHot,
    /// A tensor, paddings and a constant (`pad`).
    Pad,
    /// A tensor, paddings and a mode (`mirror_pad`).
    MirrorPad,
    /// A run-time shape and a value (`fill`).
    Fill,
    /// A run-time shape and an element type (`zeros`, `ones`).
    Filled,
    /// A run-time size and an element type (`eye`).
    Eye,
    /// Start, limit and delta: scalars, rank-0 tensors or literals
    /// (`range`).
    Range,
    /// A tensor and two scalar bounds: run-time scalars, rank-0 tensors or
    /// literals (`clip_by_value`).
    Clip,
    /// An NHWC image, `[h, w, in, out]` filters, strides, padding and
    /// dilations (`conv2d`).
    Conv2d,
    /// An NHWC image, `[h, w, in, multiplier]` filters, strides and padding
    /// (`depthwise_conv2d`).
    DepthwiseConv2d,
    /// An NWC sequence, `[w, in, out]` filters, a stride, padding and a
    /// dilation (`conv1d`).
    Conv1d,
    /// An NHWC image, window sizes, strides and padding (`max_pool2d`,
    /// `avg_pool2d`).
    Pool2d,
    /// An NWC sequence, a window size, a stride and padding (`max_pool1d`,
    /// `avg_pool1d`).
    Pool1d,
    /// A tensor, four statistics broadcasting into it and
    /// `variance_epsilon` (`batch_normalization`).
    BatchNorm,
    /// An equation and two tensors whose shapes fit its subscripts
    /// (`einsum`).
    Einsum,
    /// An equation and one tensor (`einsum_one`).
    EinsumOne,
    /// An equation and three tensors, contracted pairwise
    /// (`einsum_three`).
    EinsumThree,
}

/// One op of the table, as the fuzzer draws it.
struct Op {
    name: &'static str,
    /// The element types of its row.
    dtypes: &'static [DType],
    /// The ranks its rule takes for its (first) operand.
    ranks: (u8, u8),
    family: Family,
    /// The eager function (`tf.math.maximum`), or the operator (`+`) of an
    /// op that has one: a literal beside a tensor takes the tensor's type
    /// in `2 + x`, as in `tf!`, where `tf.math.add(2, x)` converts the `2`
    /// on its own (int32) and raises for a tensor of another type.
    python: &'static str,
    /// The element types its dispatch below is written for.
    listed: &'static [DType],
    /// Runs a case through the op's plain function.
    run: Runner,
}

impl std::fmt::Debug for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Runs a case through its op's plain function: the result, read into
/// Python, and the case's tensors as Python objects. One function per op
/// (each a large match over types and ranks: kept apart, their stack frames
/// stay small in debug builds).
type Runner = for<'py> fn(Python<'py>, &Case) -> Native<'py>;

/// The element types of a dispatch list, as `DType`s.
macro_rules! dtypes {
    ([$($ty:ty),*]) => {
        [$(<$ty as Element>::DTYPE),*]
    };
}

/// The table: one line per op, `Marker: Family "eager function" => plain
/// function [element types]`. Expands to [`OPS`].
macro_rules! fuzz_table {
    ($($marker:ident: $family:ident $python:literal => $f:ident $types:tt;)+) => {
        /// Every op fuzzed, with its row's element types and ranks.
        const OPS: &[Op] = &[$(Op {
            name: <op::$marker as OpRow>::ROW.name,
            dtypes: <op::$marker as OpRow>::ROW.dtypes,
            ranks: <op::$marker as OpRow>::ROW.rule.ranks(0),
            family: Family::$family,
            python: $python,
            listed: &dtypes!($types),
            run: |py, case| run_family!($family, py, case, $f, $types),
        }),+];
    };
}

// ---------------------------------------------------------------------------
// Typed dispatch: run-time element types and ranks to the types of the API.

/// `$body` with the type `$T` the element type `$dtype` names, one of the
/// listed ones.
macro_rules! with_type {
    ($dtype:expr, [$($ty:ty),*], |$T:ident| $body:expr) => {{
        let dtype: DType = $dtype;
        $(if dtype == <$ty as Element>::DTYPE {
            type $T = $ty;
            $body
        } else)* {
            panic!("{dtype:?} is not an element type of this dispatch")
        }
    }};
}

/// `$body` with the constant `$R` the rank `$rank`, one of the listed ones.
macro_rules! with_rank {
    ($rank:expr, [$($r:literal),+], |$R:ident| $body:expr) => {
        match $rank {
            $($r => {
                const $R: usize = $r;
                $body
            })+
            rank => panic!("rank {rank} is not a rank of this dispatch"),
        }
    };
}

/// `$body` with `$R` the rank of a tensor, `$N` the number of axes and
/// `$axes` them as an array, for every rank 1–4 and count up to it.
macro_rules! with_axes {
    ($rank:expr, $list:expr, |$R:ident, $N:ident, $axes:ident| $body:expr) => {{
        let list: &[i64] = $list;
        match ($rank, list.len()) {
            (1, 1) => with_axes!(@ 1, 1, list, $R, $N, $axes, $body),
            (2, 1) => with_axes!(@ 2, 1, list, $R, $N, $axes, $body),
            (2, 2) => with_axes!(@ 2, 2, list, $R, $N, $axes, $body),
            (3, 1) => with_axes!(@ 3, 1, list, $R, $N, $axes, $body),
            (3, 2) => with_axes!(@ 3, 2, list, $R, $N, $axes, $body),
            (3, 3) => with_axes!(@ 3, 3, list, $R, $N, $axes, $body),
            (4, 1) => with_axes!(@ 4, 1, list, $R, $N, $axes, $body),
            (4, 2) => with_axes!(@ 4, 2, list, $R, $N, $axes, $body),
            (4, 3) => with_axes!(@ 4, 3, list, $R, $N, $axes, $body),
            (4, 4) => with_axes!(@ 4, 4, list, $R, $N, $axes, $body),
            (rank, n) => panic!("{n} axes of a rank-{rank} tensor"),
        }
    }};
    (@ $r:literal, $n:literal, $list:ident, $R:ident, $N:ident, $axes:ident, $body:expr) => {{
        const $R: usize = $r;
        const $N: usize = $n;
        let $axes: [i64; $n] = array($list);
        $body
    }};
}

/// `$body` with the constants `$C…` the values of `$key`, a tuple of
/// `usize`s, one of the listed combinations (`(1 0 0)` for `(1, 0, 0)`).
macro_rules! with_combo {
    ($key:expr, [$($combo:tt)+], |$($C:ident),+| $body:expr) => {
        with_combo!(@match $key, [$($combo)+], ($($C)+), $body)
    };
    (@match $key:expr, [$(($($v:literal)+))+], $names:tt, $body:expr) => {
        match $key {
            $(($($v),+) => with_combo!(@bind $names, ($($v)+), $body),)+
            key => panic!("{key:?} is not a combination of this dispatch"),
        }
    };
    (@bind ($($C:ident)+), ($($v:literal)+), $body:expr) => {{
        $(const $C: usize = $v;)+
        $body
    }};
}

/// The input `$input` as a `Tensor<$T, $R>`.
macro_rules! tensor {
    ($py:expr, $input:expr, $T:ident, $R:tt) => {
        Tensor::<$T, $R>::from_slice(
            $py,
            <$T as Host>::slice(&$input.values),
            array($input.shape.as_slice()),
        )
        .expect("an input tensor")
    };
}

/// `$body` with `$x` the input `$input` as a tensor of its element type
/// `$T` (one of `$types`) and rank `$R` (one of `$ranks`).
macro_rules! with_tensor {
    ($py:expr, $input:expr, $types:tt, $ranks:tt, |$x:ident: $T:ident, $R:ident| $body:expr) => {{
        let input: &Input = $input;
        with_type!(input.dtype(), $types, |$T| {
            with_rank!(input.rank(), $ranks, |$R| {
                let $x = tensor!($py, input, $T, $R);
                $body
            })
        })
    }};
}

/// The native result read into Python, then the input tensors as Python
/// objects (after the result: a fused op reads them first). `list`: a
/// result of several tensors, read as a Python list.
macro_rules! finish {
    (list $py:expr, $result:expr $(, $tensor:ident)*) => {{
        let output = native_list($py, $result);
        (output, vec![$(to_python($py, "an input", Ok($tensor))),*])
    }};
    ($py:expr, $result:expr $(, $tensor:ident)*) => {{
        let output = native($py, $result);
        (output, vec![$(to_python($py, "an input", Ok($tensor))),*])
    }};
}

/// `$body` with `$v` the operand `$operand` as its Rust value beside
/// others of element type `$T`: a run-time scalar or a rank-0 tensor of
/// `$T`, or a literal (a float literal with `floats` only).
macro_rules! with_scalar_operand {
    ($py:expr, $operand:expr, $T:ident, $kinds:ident, |$v:ident| $body:expr) => {
        match $operand {
            Operand::Scalar(s) => {
                let $v = Scalar(<$T as Host>::slice(&s.values)[0]);
                $body
            }
            Operand::Tensor(t) => {
                let $v = tensor!($py, t, $T, 0);
                $body
            }
            Operand::Int(n) => {
                let $v = IntLiteral(*n);
                $body
            }
            Operand::Float(x) => with_scalar_operand!(@float $kinds, x, |$v| $body),
            other => unreachable!("a scalar operand {other:?}"),
        }
    };
    (@float floats, $x:ident, |$v:ident| $body:expr) => {{
        let $v = FloatLiteral(*$x);
        $body
    }};
    (@float ints, $x:ident, |$v:ident| $body:expr) => {
        unreachable!("a float literal {} beside integers", $x)
    };
}

/// The tensors of a list operand as Python objects.
fn list_to_python<'py, T: Element, const R: usize>(
    py: Python<'py>,
    tensors: Vec<Tensor<T, R>>,
) -> Vec<Bound<'py, PyAny>>
where
    Tensor<T, R>: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    tensors
        .into_iter()
        .map(|t| to_python(py, "an input", Ok(t)))
        .collect()
}

/// A broadcasting binary op on the operand forms of `$case`: two tensors
/// of any ranks, or a tensor and a run-time scalar (`$types`), or with
/// `literals`, an integer literal (`$ints`) or a float literal (`$floats`),
/// on either side.
macro_rules! binary {
    ($py:expr, $case:expr, $f:ident, $types:tt $(, literals $ints:tt $floats:tt)?) => {{
        let case: &Case = $case;
        match (&case.operands[0], &case.operands[1]) {
            (Operand::Tensor(a), Operand::Tensor(b)) => with_type!(case.dtype, $types, |T| {
                with_rank!(a.rank(), [0, 1, 2, 3, 4], |RA| {
                    with_rank!(b.rank(), [0, 1, 2, 3, 4], |RB| {
                        let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                        finish!($py, ops::$f(&a, &b), a, b)
                    })
                })
            }),
            (Operand::Tensor(a), Operand::Scalar(s)) => {
                with_tensor!($py, a, $types, [0, 1, 2, 3, 4], |a: T, R| {
                    let s = Scalar(<T as Host>::slice(&s.values)[0]);
                    finish!($py, ops::$f(&a, &s), a)
                })
            }
            (Operand::Scalar(s), Operand::Tensor(b)) => {
                with_tensor!($py, b, $types, [0, 1, 2, 3, 4], |b: T, R| {
                    let s = Scalar(<T as Host>::slice(&s.values)[0]);
                    finish!($py, ops::$f(&s, &b), b)
                })
            }
            $((Operand::Tensor(a), Operand::Int(v)) => {
                with_tensor!($py, a, $ints, [0, 1, 2, 3, 4], |a: T, R| {
                    finish!($py, ops::$f(&a, &IntLiteral(*v)), a)
                })
            }
            (Operand::Int(v), Operand::Tensor(b)) => {
                with_tensor!($py, b, $ints, [0, 1, 2, 3, 4], |b: T, R| {
                    finish!($py, ops::$f(&IntLiteral(*v), &b), b)
                })
            }
            (Operand::Tensor(a), Operand::Float(v)) => {
                with_tensor!($py, a, $floats, [0, 1, 2, 3, 4], |a: T, R| {
                    finish!($py, ops::$f(&a, &FloatLiteral(*v)), a)
                })
            }
            (Operand::Float(v), Operand::Tensor(b)) => {
                with_tensor!($py, b, $floats, [0, 1, 2, 3, 4], |b: T, R| {
                    finish!($py, ops::$f(&FloatLiteral(*v), &b), b)
                })
            })?
            operands => unreachable!("operands {operands:?}"),
        }
    }};
}

/// `where` on the operand forms of `$case`: a bool condition and two
/// tensors of any ranks, or a tensor and a run-time scalar (`$types`), an
/// integer literal (`$ints`) or a float literal (`$floats`) on either side.
macro_rules! select {
    ($py:expr, $case:expr, $f:ident, $types:tt, $ints:tt, $floats:tt) => {{
        let case: &Case = $case;
        let c = case.tensor(0);
        match (&case.operands[1], &case.operands[2]) {
            (Operand::Tensor(a), Operand::Tensor(b)) => with_type!(case.dtype, $types, |T| {
                with_rank!(c.rank(), [0, 1, 2, 3, 4], |RC| {
                    with_rank!(a.rank(), [0, 1, 2, 3, 4], |RA| {
                        with_rank!(b.rank(), [0, 1, 2, 3, 4], |RB| {
                            let c = tensor!($py, c, bool, RC);
                            let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                            finish!($py, ops::$f(&c, &a, &b), c, a, b)
                        })
                    })
                })
            }),
            (Operand::Tensor(a), Operand::Scalar(s)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, a, $types, [0, 1, 2, 3, 4], |a: T, R| {
                        let s = Scalar(<T as Host>::slice(&s.values)[0]);
                        finish!($py, ops::$f(&c, &a, &s), c, a)
                    })
                })
            }
            (Operand::Scalar(s), Operand::Tensor(b)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, b, $types, [0, 1, 2, 3, 4], |b: T, R| {
                        let s = Scalar(<T as Host>::slice(&s.values)[0]);
                        finish!($py, ops::$f(&c, &s, &b), c, b)
                    })
                })
            }
            (Operand::Tensor(a), Operand::Int(v)) => with_rank!(c.rank(), [0, 1, 2, 3, 4], |RC| {
                let c = tensor!($py, c, bool, RC);
                with_tensor!($py, a, $ints, [0, 1, 2, 3, 4], |a: T, R| {
                    finish!($py, ops::$f(&c, &a, &IntLiteral(*v)), c, a)
                })
            }),
            (Operand::Int(v), Operand::Tensor(b)) => with_rank!(c.rank(), [0, 1, 2, 3, 4], |RC| {
                let c = tensor!($py, c, bool, RC);
                with_tensor!($py, b, $ints, [0, 1, 2, 3, 4], |b: T, R| {
                    finish!($py, ops::$f(&c, &IntLiteral(*v), &b), c, b)
                })
            }),
            (Operand::Tensor(a), Operand::Float(v)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, a, $floats, [0, 1, 2, 3, 4], |a: T, R| {
                        finish!($py, ops::$f(&c, &a, &FloatLiteral(*v)), c, a)
                    })
                })
            }
            (Operand::Float(v), Operand::Tensor(b)) => {
                with_rank!(c.rank(), [0, 1, 2, 3, 4], |RC| {
                    let c = tensor!($py, c, bool, RC);
                    with_tensor!($py, b, $floats, [0, 1, 2, 3, 4], |b: T, R| {
                        finish!($py, ops::$f(&c, &FloatLiteral(*v), &b), c, b)
                    })
                })
            }
            operands => unreachable!("operands {operands:?}"),
        }
    }};
}

/// The list operand `$i` of `$case` (a `Dims`, `Pairs` or tensor list).
macro_rules! operand {
    ($case:ident, $i:expr, $variant:ident) => {
        match &$case.operands[$i] {
            Operand::$variant(value) => value,
            other => unreachable!("operand {} is {other:?}", $i),
        }
    };
}

/// Runs `$case` through `ops::$f`, an op of `$family` on `$types`.
macro_rules! run_family {
    (Unary, $py:ident, $case:ident, $f:ident, $types:tt) => {
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            finish!($py, ops::$f(&x), x)
        })
    };
    (LeakyRelu, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Alpha(alpha) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            finish!($py, ops::$f(&x, alpha), x)
        })
    }};
    (Gelu, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Approximate(approximate) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            finish!($py, ops::$f(&x, approximate), x)
        })
    }};
    (Binary, $py:ident, $case:ident, $f:ident, $types:tt) => {
        binary!($py, $case, $f, $types, literals [f32, f64, i32, i64] [f32, f64])
    };
    (Logical, $py:ident, $case:ident, $f:ident, $types:tt) => {
        binary!($py, $case, $f, $types)
    };
    (MatMul, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Transpose(ta, tb) = $case.keywords else { unreachable!() };
        let (a, b) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_rank!(a.rank(), [2, 3, 4], |RA| {
            with_rank!(b.rank(), [2, 3, 4], |RB| {
                let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                finish!($py, ops::$f(&a, &b, ta, tb), a, b)
            })
        }))
    }};
    (BiasAdd, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let bias = $case.tensor(1);
        with_tensor!($py, $case.tensor(0), $types, [2, 3, 4], |x: T, R| {
            let bias = tensor!($py, bias, T, 1);
            finish!($py, ops::$f(&x, &bias), x, bias)
        })
    }};
    (Reduce, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axes(ref axes, keepdims) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            if keepdims {
                finish!($py, ops::$f::<N, true, _>(&x, axes), x)
            } else {
                finish!($py, ops::$f::<N, false, _>(&x, axes), x)
            }
        }))
    }};
    (Moments, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axes(ref axes, keepdims) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            let output = if keepdims {
                native_pair($py, ops::$f::<N, true, _>(&x, axes))
            } else {
                native_pair($py, ops::$f::<N, false, _>(&x, axes))
            };
            (output, vec![to_python($py, "an input", Ok(x))])
        }))
    }};
    (L2Normalize, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Epsilon(ref axes, epsilon) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            finish!($py, ops::$f::<N, _>(&x, axes, epsilon), x)
        }))
    }};
    (ArgReduce, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Index(axis, index) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            with_type!(index, [i32, i64], |I| finish!($py, ops::$f::<I, _>(&x, axis), x))
        })
    }};
    (AlongAxis, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axis(axis) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            finish!($py, ops::$f(&x, axis), x)
        })
    }};
    (Cumsum, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Cumsum(axis, exclusive, reverse) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            finish!($py, ops::$f(&x, axis, exclusive, reverse), x)
        })
    }};
    (Reverse, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axes(ref axes, _) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            finish!($py, ops::$f::<N, _>(&x, axes), x)
        }))
    }};
    (Transpose, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Perm(ref perm, _) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [2, 3, 4], |x: T, R| {
            let perm: [i64; R] = array(perm.as_slice());
            finish!($py, ops::$f(&x, perm), x)
        })
    }};
    (Cast, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::To(to) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            with_type!(to, [f32, f64, i32, i64, bool], |U| {
                finish!($py, ops::$f::<U, _>(&x), x)
            })
        })
    }};
    (ExpandDims, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axis(axis) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3], |x: T, R| {
            finish!($py, ops::$f(&x, axis), x)
        })
    }};
    (Squeeze, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axes(ref axes, _) = $case.keywords else { unreachable!() };
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| with_axes!(x.rank(), axes, |R, N, axes| {
            let x = tensor!($py, x, T, R);
            finish!($py, ops::$f::<N, _>(&x, axes), x)
        }))
    }};
    (Shape, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::To(to) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            with_type!(to, [i32, i64], |I| finish!($py, ops::$f::<I, _>(&x), x))
        })
    }};
    (Select, $py:ident, $case:ident, $f:ident, $types:tt) => {
        select!($py, $case, $f, $types, [f32, f64, i32, i64], [f32, f64])
    };
    (Reshape, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let sizes = operand!($case, 1, Dims);
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            with_rank!(sizes.len(), [0, 1, 2, 3, 4], |N| {
                let sizes = Dims::<N>(array(sizes));
                finish!($py, ops::$f(&x, &sizes), x)
            })
        })
    }};
    (PerAxis, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let multiples = operand!($case, 1, Dims);
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            let multiples = Dims::<R>(array(multiples));
            finish!($py, ops::$f(&x, &multiples), x)
        })
    }};
    (Gather, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Gather(axis, batch_dims) = $case.keywords else { unreachable!() };
        let (x, i) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_type!(i.dtype(), [i32, i64], |I| {
            // (params' rank, indices' rank, batch_dims): the result's rank
            // is at most 4.
            with_combo!((x.rank(), i.rank(), batch_dims), [
                (1 0 0) (1 1 0) (1 2 0) (1 3 0) (1 4 0) (2 0 0) (2 1 0) (2 1 1) (2 2 0) (2 2 1)
                (2 3 0) (2 3 1) (2 4 1) (3 0 0) (3 1 0) (3 1 1) (3 2 0) (3 2 1) (3 2 2) (3 3 1)
                (3 3 2) (3 4 2) (4 0 0) (4 1 0) (4 1 1) (4 2 1) (4 2 2) (4 3 2) (4 3 3) (4 4 3)
            ], |RP, RI, B| {
                let (x, i) = (tensor!($py, x, T, RP), tensor!($py, i, I, RI));
                finish!($py, ops::$f::<B, _, _>(&x, &i, axis), x, i)
            })
        }))
    }};
    (Lookup, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let (x, i) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_type!(i.dtype(), [i32, i64], |I| {
            with_combo!((x.rank(), i.rank()), [
                (1 0) (1 1) (1 2) (1 3) (1 4) (2 0) (2 1) (2 2) (2 3) (3 0) (3 1) (3 2) (4 0) (4 1)
            ], |RP, RI| {
                let (x, i) = (tensor!($py, x, T, RP), tensor!($py, i, I, RI));
                finish!($py, ops::$f(&x, &i), x, i)
            })
        }))
    }};
    (Window, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let (begin, size) = (operand!($case, 1, Dims), operand!($case, 2, Dims));
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            let (begin, size) = (Dims::<R>(array(begin)), Dims::<R>(array(size)));
            finish!($py, ops::$f(&x, &begin, &size), x)
        })
    }};
    (Join, $py:ident, $case:ident, $f:ident, $types:tt) => {
        run_family!(@list $py, $case, $f, $types, [1, 2, 3, 4])
    };
    (Stack, $py:ident, $case:ident, $f:ident, $types:tt) => {
        run_family!(@list $py, $case, $f, $types, [0, 1, 2, 3])
    };
    (@list $py:ident, $case:ident, $f:ident, $types:tt, $ranks:tt) => {{
        let Keywords::Axis(axis) = $case.keywords else { unreachable!() };
        let inputs = operand!($case, 0, List);
        with_type!($case.dtype, $types, |T| with_rank!(inputs[0].rank(), $ranks, |R| {
            let tensors: Vec<Tensor<T, R>> =
                inputs.iter().map(|input| tensor!($py, input, T, R)).collect();
            let output = with_rank!(tensors.len(), [2, 3, 4, 5, 6, 7, 8], |N| {
                let list = TensorList::new(std::array::from_fn::<_, N, _>(|i| &tensors[i]));
                native($py, ops::$f(&list, axis))
            });
            (output, list_to_python($py, tensors))
        }))
    }};
    (Index, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Masks(masks) = $case.keywords else { unreachable!() };
        let [begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask] = masks;
        let begin = operand!($case, 1, Dims);
        let (end, strides) = (operand!($case, 2, Dims), operand!($case, 3, Dims));
        let ellipsis = ellipsis_mask != 0;
        let new = new_axis_mask.count_ones() as usize;
        let shrink = shrink_axis_mask.count_ones() as usize;
        let indexed = begin.len() - new - usize::from(ellipsis);
        let x = $case.tensor(0);
        with_type!($case.dtype, $types, |T| {
            // (rank, indexed axes, shrunk axes, new axes): the result's rank
            // is at most 4; at most 2 new axes.
            with_combo!((x.rank(), indexed, shrink, new), [
                (0 0 0 0) (0 0 0 1) (0 0 0 2) (1 0 0 0) (1 0 0 1) (1 0 0 2) (1 1 0 0) (1 1 0 1)
                (1 1 0 2) (1 1 1 0) (1 1 1 1) (1 1 1 2) (2 0 0 0) (2 0 0 1) (2 0 0 2) (2 1 0 0)
                (2 1 0 1) (2 1 0 2) (2 1 1 0) (2 1 1 1) (2 1 1 2) (2 2 0 0) (2 2 0 1) (2 2 0 2)
                (2 2 1 0) (2 2 1 1) (2 2 1 2) (2 2 2 0) (2 2 2 1) (2 2 2 2) (3 0 0 0) (3 0 0 1)
                (3 1 0 0) (3 1 0 1) (3 1 1 0) (3 1 1 1) (3 1 1 2) (3 2 0 0) (3 2 0 1) (3 2 1 0)
                (3 2 1 1) (3 2 1 2) (3 2 2 0) (3 2 2 1) (3 2 2 2) (3 3 0 0) (3 3 0 1) (3 3 1 0)
                (3 3 1 1) (3 3 1 2) (3 3 2 0) (3 3 2 1) (3 3 2 2) (3 3 3 0) (3 3 3 1) (3 3 3 2)
                (4 0 0 0) (4 1 0 0) (4 1 1 0) (4 1 1 1) (4 2 0 0) (4 2 1 0) (4 2 1 1) (4 2 2 0)
                (4 2 2 1) (4 2 2 2) (4 3 0 0) (4 3 1 0) (4 3 1 1) (4 3 2 0) (4 3 2 1) (4 3 2 2)
                (4 3 3 0) (4 3 3 1) (4 3 3 2) (4 4 0 0) (4 4 1 0) (4 4 1 1) (4 4 2 0) (4 4 2 1)
                (4 4 2 2) (4 4 3 0) (4 4 3 1) (4 4 3 2) (4 4 4 0) (4 4 4 1) (4 4 4 2)
            ], |R, K, S, N| {
                let x = tensor!($py, x, T, R);
                macro_rules! index {
                    ($length:expr) => {{
                        const L: usize = $length;
                        let (b, e) = (Dims::<L>(array(begin)), Dims::<L>(array(end)));
                        let s = Dims::<L>(array(strides));
                        let result = ops::$f::<K, S, N, _, _, _, _>(
                            &x, &b, &e, &s, begin_mask, end_mask, ellipsis_mask,
                            new_axis_mask, shrink_axis_mask,
                        );
                        finish!($py, result, x)
                    }};
                }
                if ellipsis {
                    index!(K + N + 1)
                } else {
                    index!(K + N)
                }
            })
        })
    }};
    (Split, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Parts(parts, axis) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            with_rank!(parts, [0, 1, 2, 3, 4], |N| {
                finish!(list $py, ops::$f::<N, _>(&x, axis), x)
            })
        })
    }};
    (Unstack, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Parts(num, axis) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            with_rank!(num, [0, 1, 2, 3, 4, 5], |N| {
                finish!(list $py, ops::$f::<N, _>(&x, axis), x)
            })
        })
    }};
    (SplitSizes, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Axis(axis) = $case.keywords else { unreachable!() };
        let sizes = operand!($case, 1, Dims);
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            with_rank!(sizes.len(), [1, 2, 3, 4], |N| {
                let sizes = Dims::<N>(array(sizes));
                finish!(list $py, ops::$f(&x, &sizes, axis), x)
            })
        })
    }};
    (TopK, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::TopK(k, sorted) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            let output = native_pair($py, ops::$f(&x, k, sorted));
            (output, vec![to_python($py, "an input", Ok(x))])
        })
    }};
    (Sort, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Sort(axis, direction) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            finish!($py, ops::$f(&x, axis, direction), x)
        })
    }};
    (OneHot, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::OneHot(on, off, axis) = $case.keywords else { unreachable!() };
        let depth = *operand!($case, 1, Size);
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3], |x: T, R| {
            finish!($py, ops::$f(&x, &Size(depth), on, off, axis), x)
        })
    }};
    (Pad, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Constant(value) = $case.keywords else { unreachable!() };
        let paddings = operand!($case, 1, Pairs);
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            let paddings = Pairs::<R>(array(paddings));
            finish!($py, ops::$f(&x, &paddings, value), x)
        })
    }};
    (MirrorPad, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Mode(mode) = $case.keywords else { unreachable!() };
        let paddings = operand!($case, 1, Pairs);
        with_tensor!($py, $case.tensor(0), $types, [1, 2, 3, 4], |x: T, R| {
            let paddings = Pairs::<R>(array(paddings));
            finish!($py, ops::$f(&x, &paddings, mode), x)
        })
    }};
    (Fill, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let dims = operand!($case, 0, Dims);
        with_rank!(dims.len(), [0, 1, 2, 3, 4], |N| {
            let dims = Dims::<N>(array(dims));
            match &$case.operands[1] {
                Operand::Int(v) => finish!($py, ops::$f(&dims, &IntLiteral(*v))),
                Operand::Float(v) => finish!($py, ops::$f(&dims, &FloatLiteral(*v))),
                value => with_type!($case.dtype, $types, |T| {
                    with_scalar_operand!($py, value, T, ints, |v| {
                        let output = native($py, ops::$f(&dims, &v));
                        (output, v.leftover($py).into_iter().collect())
                    })
                }),
            }
        })
    }};
    (Filled, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let dims = operand!($case, 0, Dims);
        with_rank!(dims.len(), [0, 1, 2, 3, 4], |N| {
            let dims = Dims::<N>(array(dims));
            with_type!($case.dtype, $types, |U| finish!($py, ops::$f::<U, _>(&dims)))
        })
    }};
    (Eye, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let size = *operand!($case, 0, Size);
        with_type!($case.dtype, $types, |U| finish!($py, ops::$f::<U, _>(&Size(size))))
    }};
    (Range, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let [a, b, c] = [0, 1, 2].map(|i| &$case.operands[i]);
        macro_rules! range {
            ($kinds:ident, $T:ident) => {
                with_scalar_operand!($py, a, $T, $kinds, |a| {
                    with_scalar_operand!($py, b, $T, $kinds, |b| {
                        with_scalar_operand!($py, c, $T, $kinds, |c| {
                            let output = native($py, ops::$f(&a, &b, &c));
                            let inputs = [a.leftover($py), b.leftover($py), c.leftover($py)];
                            (output, inputs.into_iter().flatten().collect())
                        })
                    })
                })
            };
        }
        if $case.dtype.is_float() {
            with_type!($case.dtype, [f32, f64], |T| range!(floats, T))
        } else {
            with_type!($case.dtype, [i32, i64], |T| range!(ints, T))
        }
    }};
    (Clip, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let [lo, hi] = [1, 2].map(|i| &$case.operands[i]);
        macro_rules! clip {
            ($kinds:ident, $listed:tt) => {
                with_tensor!($py, $case.tensor(0), $listed, [0, 1, 2, 3, 4], |x: T, R| {
                    with_scalar_operand!($py, lo, T, $kinds, |lo| {
                        with_scalar_operand!($py, hi, T, $kinds, |hi| {
                            let output = native($py, ops::$f(&x, &lo, &hi));
                            let mut inputs = vec![to_python($py, "an input", Ok(x))];
                            inputs.extend([lo.leftover($py), hi.leftover($py)].into_iter().flatten());
                            (output, inputs)
                        })
                    })
                })
            };
        }
        if $case.dtype.is_float() {
            clip!(floats, [f32, f64])
        } else {
            clip!(ints, [i32, i64])
        }
    }};
    (Conv2d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { strides, padding, dilations, .. } = $case.keywords else {
            unreachable!()
        };
        let (x, filters) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| {
            let (x, filters) = (tensor!($py, x, T, 4), tensor!($py, filters, T, 4));
            finish!($py, ops::$f(&x, &filters, strides, padding, dilations), x, filters)
        })
    }};
    (DepthwiseConv2d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { strides, padding, .. } = $case.keywords else { unreachable!() };
        let (x, filters) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| {
            let (x, filters) = (tensor!($py, x, T, 4), tensor!($py, filters, T, 4));
            finish!($py, ops::$f(&x, &filters, strides, padding), x, filters)
        })
    }};
    (Conv1d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { strides, padding, dilations, .. } = $case.keywords else {
            unreachable!()
        };
        let (x, filters) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| {
            let (x, filters) = (tensor!($py, x, T, 3), tensor!($py, filters, T, 3));
            let result = ops::$f(&x, &filters, strides[0], padding, dilations[0]);
            finish!($py, result, x, filters)
        })
    }};
    (Pool2d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { ksize, strides, padding, .. } = $case.keywords else {
            unreachable!()
        };
        with_tensor!($py, $case.tensor(0), $types, [4], |x: T, R| {
            finish!($py, ops::$f(&x, ksize, strides, padding), x)
        })
    }};
    (Pool1d, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Spatial { ksize, strides, padding, .. } = $case.keywords else {
            unreachable!()
        };
        with_tensor!($py, $case.tensor(0), $types, [3], |x: T, R| {
            finish!($py, ops::$f(&x, ksize[0], strides[0], padding), x)
        })
    }};
    (BatchNorm, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::VarianceEpsilon(epsilon) = $case.keywords else { unreachable!() };
        let [x, mean, variance, offset, scale] = [0, 1, 2, 3, 4].map(|i| $case.tensor(i));
        with_type!($case.dtype, $types, |T| {
            // (x's rank, the mean's and the variance's, the offset's and the
            // scale's): each at most x's.
            with_combo!((x.rank(), mean.rank(), offset.rank()), [
                (0 0 0) (1 0 0) (1 0 1) (1 1 0) (1 1 1) (2 0 0) (2 0 1) (2 0 2) (2 1 0) (2 1 1)
                (2 1 2) (2 2 0) (2 2 1) (2 2 2) (3 0 0) (3 0 1) (3 0 2) (3 0 3) (3 1 0) (3 1 1)
                (3 1 2) (3 1 3) (3 2 0) (3 2 1) (3 2 2) (3 2 3) (3 3 0) (3 3 1) (3 3 2) (3 3 3)
                (4 0 0) (4 0 1) (4 0 2) (4 0 3) (4 0 4) (4 1 0) (4 1 1) (4 1 2) (4 1 3) (4 1 4)
                (4 2 0) (4 2 1) (4 2 2) (4 2 3) (4 2 4) (4 3 0) (4 3 1) (4 3 2) (4 3 3) (4 3 4)
                (4 4 0) (4 4 1) (4 4 2) (4 4 3) (4 4 4)
            ], |R, M, O| {
                let x = tensor!($py, x, T, R);
                let (mean, variance) = (tensor!($py, mean, T, M), tensor!($py, variance, T, M));
                let (offset, scale) = (tensor!($py, offset, T, O), tensor!($py, scale, T, O));
                let result = ops::$f(&x, &mean, &variance, &offset, &scale, epsilon);
                finish!($py, result, x, mean, variance, offset, scale)
            })
        })
    }};
    (Einsum, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Equation(equation, out) = $case.keywords else { unreachable!() };
        let (a, b) = ($case.tensor(0), $case.tensor(1));
        with_type!($case.dtype, $types, |T| with_rank!(out, [0, 1, 2, 3, 4], |OUT| {
            with_rank!(a.rank(), [0, 1, 2, 3, 4], |RA| {
                with_rank!(b.rank(), [0, 1, 2, 3, 4], |RB| {
                    let (a, b) = (tensor!($py, a, T, RA), tensor!($py, b, T, RB));
                    finish!($py, ops::$f::<OUT, RA, RB, _, _>(&a, &b, equation), a, b)
                })
            })
        }))
    }};
    (EinsumOne, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Equation(equation, out) = $case.keywords else { unreachable!() };
        with_tensor!($py, $case.tensor(0), $types, [0, 1, 2, 3, 4], |x: T, R| {
            with_rank!(out, [0, 1, 2, 3, 4], |OUT| {
                finish!($py, ops::$f::<OUT, R, _>(&x, equation), x)
            })
        })
    }};
    (EinsumThree, $py:ident, $case:ident, $f:ident, $types:tt) => {{
        let Keywords::Equation(equation, out) = $case.keywords else { unreachable!() };
        let (a, b, c) = ($case.tensor(0), $case.tensor(1), $case.tensor(2));
        with_type!($case.dtype, $types, |T| with_rank!(out, [0, 1, 2, 3, 4], |OUT| {
            with_rank!(a.rank(), [0, 1, 2, 3, 4], |RA| {
                let a = tensor!($py, a, T, RA);
                with_rank!(b.rank(), [0, 1, 2, 3, 4], |RB| {
                    let b = tensor!($py, b, T, RB);
                    with_rank!(c.rank(), [0, 1, 2, 3, 4], |RC| {
                        let c = tensor!($py, c, T, RC);
                        let result = ops::$f::<OUT, RA, RB, RC, _, _, _>(&a, &b, &c, equation);
                        finish!($py, result, a, b, c)
                    })
                })
            })
        }))
    }};
}

// The ops fuzzed: one line each (element types as the op table's rows).
fuzz_table! {
    MatmulOp: MatMul "tf.linalg.matmul" => matmul [f32, f64, i32, i64];
    ReluOp: Unary "tf.nn.relu" => relu [f32, f64, i32, i64];
    SigmoidOp: Unary "tf.math.sigmoid" => sigmoid [f32, f64];
    TanhOp: Unary "tf.math.tanh" => tanh [f32, f64];
    AbsOp: Unary "tf.math.abs" => abs [f32, f64, i32, i64];
    NegOp: Unary "tf.math.negative" => neg [f32, f64, i32, i64];
    SquareOp: Unary "tf.math.square" => square [f32, f64, i32, i64];
    ExpOp: Unary "tf.math.exp" => exp [f32, f64];
    LogOp: Unary "tf.math.log" => log [f32, f64];
    SqrtOp: Unary "tf.math.sqrt" => sqrt [f32, f64];
    RsqrtOp: Unary "tf.math.rsqrt" => rsqrt [f32, f64];
    Relu6Op: Unary "tf.nn.relu6" => relu6 [f32, f64, i32, i64];
    EluOp: Unary "tf.nn.elu" => elu [f32, f64];
    SoftplusOp: Unary "tf.math.softplus" => softplus [f32, f64];
    LeakyReluOp: LeakyRelu "tf.nn.leaky_relu" => leaky_relu [f32, f64];
    AddOp: Binary "+" => add [f32, f64, i32, i64];
    SubOp: Binary "-" => sub [f32, f64, i32, i64];
    MulOp: Binary "*" => mul [f32, f64, i32, i64];
    DivOp: Binary "/" => div [f32, f64, i32, i64];
    MaximumOp: Binary "tf.math.maximum" => maximum [f32, f64, i32, i64];
    MinimumOp: Binary "tf.math.minimum" => minimum [f32, f64, i32, i64];
    BiasAddOp: BiasAdd "tf.nn.bias_add" => bias_add [f32, f64, i32, i64];
    TransposeOp: Transpose "tf.transpose" => transpose [f32, f64, i32, i64, bool];
    ReduceMeanOp: Reduce "tf.math.reduce_mean" => reduce_mean [f32, f64, i32, i64];
    ReduceSumOp: Reduce "tf.math.reduce_sum" => reduce_sum [f32, f64, i32, i64];
    ReduceMaxOp: Reduce "tf.math.reduce_max" => reduce_max [f32, f64, i32, i64];
    ReduceMinOp: Reduce "tf.math.reduce_min" => reduce_min [f32, f64, i32, i64];
    SoftmaxOp: AlongAxis "tf.nn.softmax" => softmax [f32, f64];
    LogSoftmaxOp: AlongAxis "tf.nn.log_softmax" => log_softmax [f32, f64];
    ArgmaxOp: ArgReduce "tf.math.argmax" => argmax [f32, f64, i32, i64, bool];
    EqualOp: Binary "tf.math.equal" => equal [f32, f64, i32, i64, bool];
    NotEqualOp: Binary "tf.math.not_equal" => not_equal [f32, f64, i32, i64, bool];
    LessOp: Binary "tf.math.less" => less [f32, f64, i32, i64];
    LessEqualOp: Binary "tf.math.less_equal" => less_equal [f32, f64, i32, i64];
    GreaterOp: Binary "tf.math.greater" => greater [f32, f64, i32, i64];
    GreaterEqualOp: Binary "tf.math.greater_equal" => greater_equal [f32, f64, i32, i64];
    LogicalAndOp: Logical "tf.math.logical_and" => logical_and [bool];
    LogicalOrOp: Logical "tf.math.logical_or" => logical_or [bool];
    LogicalNotOp: Unary "tf.math.logical_not" => logical_not [bool];
    ZerosLikeOp: Unary "tf.zeros_like" => zeros_like [f32, f64, i32, i64, bool];
    OnesLikeOp: Unary "tf.ones_like" => ones_like [f32, f64, i32, i64, bool];
    IdentityOp: Unary "tf.identity" => identity [f32, f64, i32, i64, bool];
    SignOp: Unary "tf.math.sign" => sign [f32, f64, i32, i64];
    RoundOp: Unary "tf.math.round" => round [f32, f64];
    FloorOp: Unary "tf.math.floor" => floor [f32, f64];
    CeilOp: Unary "tf.math.ceil" => ceil [f32, f64];
    ReciprocalOp: Unary "tf.math.reciprocal" => reciprocal [f32, f64];
    Log1pOp: Unary "tf.math.log1p" => log1p [f32, f64];
    Expm1Op: Unary "tf.math.expm1" => expm1 [f32, f64];
    SinOp: Unary "tf.math.sin" => sin [f32, f64];
    CosOp: Unary "tf.math.cos" => cos [f32, f64];
    ErfOp: Unary "tf.math.erf" => erf [f32, f64];
    IsNanOp: Unary "tf.math.is_nan" => is_nan [f32, f64];
    IsFiniteOp: Unary "tf.math.is_finite" => is_finite [f32, f64];
    SquaredDifferenceOp: Binary "tf.math.squared_difference"
        => squared_difference [f32, f64, i32, i64];
    PowOp: Binary "tf.math.pow" => pow [f32, f64, i32, i64];
    FloordivOp: Binary "tf.math.floordiv" => floordiv [f32, f64, i32, i64];
    FloormodOp: Binary "tf.math.floormod" => floormod [f32, f64, i32, i64];
    ReduceProdOp: Reduce "tf.math.reduce_prod" => reduce_prod [f32, f64, i32, i64];
    ReduceAnyOp: Reduce "tf.math.reduce_any" => reduce_any [bool];
    ReduceAllOp: Reduce "tf.math.reduce_all" => reduce_all [bool];
    ArgminOp: ArgReduce "tf.math.argmin" => argmin [f32, f64, i32, i64, bool];
    CastOp: Cast "tf.cast" => cast [f32, f64, i32, i64, bool];
    ExpandDimsOp: ExpandDims "tf.expand_dims" => expand_dims [f32, f64, i32, i64, bool];
    ShapeOp: Shape "tf.shape" => shape [f32, f64, i32, i64, bool];
    SqueezeOp: Squeeze "tf.squeeze" => squeeze [f32, f64, i32, i64, bool];
    StopGradientOp: Unary "tf.stop_gradient" => stop_gradient [f32, f64, i32, i64, bool];
    CumsumOp: Cumsum "tf.math.cumsum" => cumsum [f32, f64, i32, i64];
    ReverseOp: Reverse "tf.reverse" => reverse [f32, f64, i32, i64, bool];
    WhereOp: Select "tf.where" => r#where [f32, f64, i32, i64, bool];
    ReshapeOp: Reshape "tf.reshape" => reshape [f32, f64, i32, i64, bool];
    TileOp: PerAxis "tf.tile" => tile [f32, f64, i32, i64, bool];
    GatherOp: Gather "tf.gather" => gather [f32, f64, i32, i64, bool];
    EmbeddingLookupOp: Lookup "tf.nn.embedding_lookup"
        => embedding_lookup [f32, f64, i32, i64, bool];
    SliceOp: Window "tf.slice" => slice [f32, f64, i32, i64, bool];
    ConcatOp: Join "tf.concat" => concat [f32, f64, i32, i64, bool];
    StackOp: Stack "tf.stack" => stack [f32, f64, i32, i64, bool];
    StridedSliceOp: Index "tf.strided_slice" => strided_slice [f32, f64, i32, i64, bool];
    SplitOp: Split "tf.split" => split [f32, f64, i32, i64, bool];
    UnstackOp: Unstack "tf.unstack" => unstack [f32, f64, i32, i64, bool];
    TopKOp: TopK "tf.math.top_k" => top_k [f32, f64, i32, i64];
    OneHotOp: OneHot "tf.one_hot" => one_hot [i32, i64];
    PadOp: Pad "tf.pad" => pad [f32, f64, i32, i64, bool];
    MirrorPadOp: MirrorPad "tf.pad" => mirror_pad [f32, f64, i32, i64, bool];
    FillOp: Fill "tf.fill" => fill [f32, f64, i32, i64, bool];
    ZerosOp: Filled "tf.zeros" => zeros [f32, f64, i32, i64, bool];
    OnesOp: Filled "tf.ones" => ones [f32, f64, i32, i64, bool];
    RangeOp: Range "tf.range" => range [f32, f64, i32, i64];
    SplitVOp: SplitSizes "tf.split" => split_v [f32, f64, i32, i64, bool];
    ClipByValueOp: Clip "tf.clip_by_value" => clip_by_value [f32, f64, i32, i64];
    SortOp: Sort "tf.sort" => sort [f32, f64, i32, i64];
    ArgsortOp: Sort "tf.argsort" => argsort [f32, f64, i32, i64];
    EyeOp: Eye "tf.eye" => eye [f32, f64, i32, i64, bool];
    SeluOp: Unary "tf.nn.selu" => selu [f32, f64];
    SoftsignOp: Unary "tf.nn.softsign" => softsign [f32, f64];
    ErfcOp: Unary "tf.math.erfc" => erfc [f32, f64];
    GeluOp: Gelu "tf.nn.gelu" => gelu [f32, f64];
    SiluOp: Unary "tf.nn.silu" => silu [f32, f64];
    SwishOp: Unary "tf.nn.swish" => swish [f32, f64];
    HardSigmoidOp: Unary "tf.keras.activations.hard_sigmoid" => hard_sigmoid [f32, f64];
    MomentsOp: Moments "tf.nn.moments" => moments [f32, f64];
    ReduceVarianceOp: Reduce "tf.math.reduce_variance" => reduce_variance [f32, f64];
    ReduceStdOp: Reduce "tf.math.reduce_std" => reduce_std [f32, f64];
    ReduceLogsumexpOp: Reduce "tf.math.reduce_logsumexp" => reduce_logsumexp [f32, f64];
    L2NormalizeOp: L2Normalize "tf.math.l2_normalize" => l2_normalize [f32, f64];
    BatchNormalizationOp: BatchNorm "tf.nn.batch_normalization"
        => batch_normalization [f32, f64];
    Conv2dOp: Conv2d "tf.nn.conv2d" => conv2d [f32, f64];
    DepthwiseConv2dOp: DepthwiseConv2d "tf.nn.depthwise_conv2d" => depthwise_conv2d [f32, f64];
    Conv1dOp: Conv1d "tf.nn.conv1d" => conv1d [f32, f64];
    MaxPool2dOp: Pool2d "tf.nn.max_pool2d" => max_pool2d [f32, f64];
    AvgPool2dOp: Pool2d "tf.nn.avg_pool2d" => avg_pool2d [f32, f64];
    MaxPool1dOp: Pool1d "tf.nn.max_pool1d" => max_pool1d [f32, f64];
    AvgPool1dOp: Pool1d "tf.nn.avg_pool1d" => avg_pool1d [f32, f64];
    EinsumOp: Einsum "tf.einsum" => einsum [f32, f64];
    EinsumOneOp: EinsumOne "tf.einsum" => einsum_one [f32, f64];
    EinsumThreeOp: EinsumThree "tf.einsum" => einsum_three [f32, f64];
}

/// The native result, and the case's tensors, as Python objects.
type Native<'py> = (PyResult<Bound<'py, PyAny>>, Vec<Bound<'py, PyAny>>);

/// An op's result read into Python (a fused op runs here), or its error as
/// the Python exception it converts to.
fn native<'py, O>(py: Python<'py>, result: rxt_tf::Result<O>) -> PyResult<Bound<'py, PyAny>>
where
    O: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    result.map_err(PyErr::from)?.into_pyobject(py)
}

/// An op's several results read into Python, as a list.
fn native_list<'py, O, const N: usize>(
    py: Python<'py>,
    result: rxt_tf::Result<[O; N]>,
) -> PyResult<Bound<'py, PyAny>>
where
    O: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    let items = result
        .map_err(PyErr::from)?
        .into_iter()
        .map(|item| item.into_pyobject(py))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, items)?.into_any())
}

/// An op's pair of results (`top_k`'s values and indices, `moments`'
/// mean and variance) read into Python, as a list.
fn native_pair<'py, A, B>(
    py: Python<'py>,
    result: rxt_tf::Result<(A, B)>,
) -> PyResult<Bound<'py, PyAny>>
where
    A: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
    B: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    let (a, b) = result.map_err(PyErr::from)?;
    let items = [a.into_pyobject(py)?, b.into_pyobject(py)?];
    Ok(PyList::new(py, items)?.into_any())
}

/// A scalar operand's Python object for eager, if it is a tensor (a
/// run-time scalar or a literal is written into the eager call instead).
trait Leftover<'py> {
    fn leftover(self, py: Python<'py>) -> Option<Bound<'py, PyAny>>;
}

impl<'py, T: Element> Leftover<'py> for Tensor<T, 0> {
    fn leftover(self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        Some(to_python(py, "an input", Ok(self)))
    }
}

impl<'py, T> Leftover<'py> for Scalar<T> {
    fn leftover(self, _: Python<'py>) -> Option<Bound<'py, PyAny>> {
        None
    }
}

impl<'py> Leftover<'py> for IntLiteral {
    fn leftover(self, _: Python<'py>) -> Option<Bound<'py, PyAny>> {
        None
    }
}

impl<'py> Leftover<'py> for FloatLiteral {
    fn leftover(self, _: Python<'py>) -> Option<Bound<'py, PyAny>> {
        None
    }
}

/// `items` as an array of `N` (the length the dispatch chose).
fn array<T: Copy + std::fmt::Debug, const N: usize>(items: &[T]) -> [T; N] {
    items
        .try_into()
        .unwrap_or_else(|_| panic!("{items:?} has not {N} items"))
}

// ---------------------------------------------------------------------------
// Cases.

/// The elements of a tensor, row-major.
#[derive(Clone, Debug)]
enum Values {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
}

/// Element types whose values a [`Values`] holds.
trait Host: Element {
    fn slice(values: &Values) -> &[Self];
}

macro_rules! host {
    ($($ty:ty: $variant:ident),+) => {$(
        impl Host for $ty {
            fn slice(values: &Values) -> &[Self] {
                match values {
                    Values::$variant(values) => values,
                    other => panic!("{other:?} are not {}", stringify!($ty)),
                }
            }
        }
    )+};
}

host!(f32: F32, f64: F64, i32: I32, i64: I64, bool: Bool);

/// A tensor's shape and elements.
#[derive(Clone, Debug)]
struct Input {
    shape: Vec<usize>,
    values: Values,
}

impl Input {
    fn dtype(&self) -> DType {
        match self.values {
            Values::F32(_) => DType::F32,
            Values::F64(_) => DType::F64,
            Values::I32(_) => DType::I32,
            Values::I64(_) => DType::I64,
            Values::Bool(_) => DType::Bool,
        }
    }

    fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The first element as a Python number.
    fn python_scalar<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        let number = match &self.values {
            Values::F32(v) => f64::from(v[0]).into_bound_py_any(py),
            Values::F64(v) => v[0].into_bound_py_any(py),
            Values::I32(v) => v[0].into_bound_py_any(py),
            Values::I64(v) => v[0].into_bound_py_any(py),
            Values::Bool(v) => v[0].into_bound_py_any(py),
        };
        number.expect("a Python number")
    }
}

/// One operand of a case.
#[derive(Clone, Debug)]
enum Operand {
    Tensor(Input),
    /// `rxt_tf::ops::Scalar` (eager: a NumPy scalar of the element type).
    Scalar(Input),
    /// An integer literal (eager: a Python `int`).
    Int(i64),
    /// A float literal (eager: a Python `float`).
    Float(f64),
    /// A list of tensors of one element type and rank (`TensorList`).
    List(Vec<Input>),
    /// A run-time list of integers (`Dims`; eager: a Python list).
    Dims(Vec<i64>),
    /// Run-time pairs of integers (`Pairs`; eager: a nested Python list).
    Pairs(Vec<[i64; 2]>),
    /// A run-time integer (`Size`; eager: a Python `int`).
    Size(i64),
}

/// The keywords of a case.
#[derive(Clone, Debug)]
enum Keywords {
    None,
    Alpha(f64),
    /// `gelu`'s `approximate`.
    Approximate(bool),
    /// `transpose_a`, `transpose_b`.
    Transpose(bool, bool),
    /// Axes and `keepdims`.
    Axes(Vec<i64>, bool),
    /// Axes and `epsilon`.
    Epsilon(Vec<i64>, f64),
    Axis(i64),
    /// `axis`, `exclusive`, `reverse`.
    Cumsum(i64, bool, bool),
    /// An axis and the index type.
    Index(i64, DType),
    /// The permutation, and whether eager omits it (the axes reversed).
    Perm(Vec<i64>, bool),
    /// The target or index type.
    To(DType),
    /// `axis` and `batch_dims`.
    Gather(i64, usize),
    /// The number of parts (`split`'s `num_split`, `unstack`'s `num`) and
    /// `axis`.
    Parts(usize, i64),
    /// `k` and `sorted`.
    TopK(i64, bool),
    /// `axis` and `direction`.
    Sort(i64, &'static str),
    /// `on_value`, `off_value` and `axis`.
    OneHot(f64, f64, i64),
    /// `constant_values`.
    Constant(f64),
    /// `mode`.
    Mode(&'static str),
    /// `begin_mask`, `end_mask`, `ellipsis_mask`, `new_axis_mask` and
    /// `shrink_axis_mask`.
    Masks([i64; 5]),
    /// The window's sizes (pools), the strides, the padding and the
    /// dilations (convolutions): one size or a pair each (the 1-D forms:
    /// one).
    Spatial {
        ksize: &'static [i64],
        strides: &'static [i64],
        padding: &'static str,
        dilations: &'static [i64],
    },
    /// `variance_epsilon`.
    VarianceEpsilon(f64),
    /// An einsum equation (kept for the life of the process, as the plain
    /// functions take it) and the rank of its result.
    Equation(&'static str, usize),
}

#[derive(Clone, Debug)]
struct Case {
    op: &'static Op,
    dtype: DType,
    operands: Vec<Operand>,
    keywords: Keywords,
}

impl Case {
    /// Operand `i`, a tensor.
    fn tensor(&self, i: usize) -> &Input {
        match &self.operands[i] {
            Operand::Tensor(input) => input,
            other => panic!("operand {i} is {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------
// Drawing cases.

const F32_EDGES: &[f32] = &[
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

const F64_EDGES: &[f64] = &[
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

const I32_EDGES: &[i32] = &[
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

const I64_EDGES: &[i64] = &[
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

fn f32_value(rng: &mut Rng) -> f32 {
    match rng.below(20) {
        // Multiples of 1/128 in ±15.6: exact, with ties for round.
        0..=11 => (rng.below(4001) as f32 - 2000.0) / 128.0,
        12..=16 => rng.pick(F32_EDGES),
        17..=18 => rng.below(21) as f32 - 10.0,
        _ => f32::from_bits(rng.next() as u32),
    }
}

fn f64_value(rng: &mut Rng) -> f64 {
    match rng.below(20) {
        0..=11 => (rng.below(4001) as f64 - 2000.0) / 128.0,
        12..=16 => rng.pick(F64_EDGES),
        17..=18 => rng.below(21) as f64 - 10.0,
        _ => f64::from_bits(rng.next()),
    }
}

fn i32_value(rng: &mut Rng) -> i32 {
    match rng.below(20) {
        0..=13 => rng.below(21) as i32 - 10,
        14..=17 => rng.pick(I32_EDGES),
        _ => rng.next() as i32,
    }
}

fn i64_value(rng: &mut Rng) -> i64 {
    match rng.below(20) {
        0..=13 => rng.below(21) as i64 - 10,
        14..=17 => rng.pick(I64_EDGES),
        _ => rng.next() as i64,
    }
}

/// `count` random elements of `dtype`.
fn values(rng: &mut Rng, dtype: DType, count: usize) -> Values {
    match dtype {
        DType::F32 => Values::F32((0..count).map(|_| f32_value(rng)).collect()),
        DType::F64 => Values::F64((0..count).map(|_| f64_value(rng)).collect()),
        DType::I32 => Values::I32((0..count).map(|_| i32_value(rng)).collect()),
        DType::I64 => Values::I64((0..count).map(|_| i64_value(rng)).collect()),
        DType::Bool => Values::Bool((0..count).map(|_| rng.chance(50)).collect()),
    }
}

/// A tensor of `dtype` and `shape` with random elements.
fn input(rng: &mut Rng, dtype: DType, shape: Vec<usize>) -> Input {
    let count = shape.iter().product();
    Input {
        values: values(rng, dtype, count),
        shape,
    }
}

/// A dimension: 0 now and then, 1 often, else 2–4.
fn dim(rng: &mut Rng) -> usize {
    match rng.below(100) {
        0..=4 => 0,
        5..=29 => 1,
        _ => rng.within(2, 4),
    }
}

fn shape(rng: &mut Rng, rank: usize) -> Vec<usize> {
    (0..rank).map(|_| dim(rng)).collect()
}

/// The trailing `rank` dimensions of `full`, some of them 1 (broadcast).
fn broadcast_from(rng: &mut Rng, full: &[usize], rank: usize) -> Vec<usize> {
    full[full.len() - rank..]
        .iter()
        .map(|&d| if rng.chance(25) { 1 } else { d })
        .collect()
}

/// Makes `a` and `b` fail to broadcast at one aligned dimension, if they
/// share one.
fn misalign(rng: &mut Rng, a: &mut [usize], b: &mut [usize]) {
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
fn broadcast_pair(rng: &mut Rng, ra: usize, rb: usize) -> (Vec<usize>, Vec<usize>) {
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
fn int_literal(rng: &mut Rng, dtype: DType) -> i64 {
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
fn float_literal(rng: &mut Rng) -> f64 {
    match rng.below(10) {
        0..=5 => (rng.below(4001) as f64 - 2000.0) / 128.0,
        6..=7 => rng.pick(F64_EDGES),
        8 => f64::from(rng.pick(F32_EDGES)),
        _ => rng.next() as i64 as f64 / 1e9,
    }
}

/// The operands of a broadcasting op on `dtype`.
fn binary_operands(rng: &mut Rng, dtype: DType, ranks: (usize, usize)) -> Vec<Operand> {
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
fn distinct_axes(rng: &mut Rng, rank: usize, n: usize) -> Vec<i64> {
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
fn one_axis(rng: &mut Rng, rank: usize) -> i64 {
    distinct_axes(rng, rank, 1)[0]
}

/// A zero for −0.0 in scalars and literals: eager TensorFlow caches the
/// constants it makes of Python and NumPy scalars by value, and 0.0 == −0.0,
/// so whichever zero a process converts first stands for both afterwards
/// (`x * -0.0` gives +0.0 products after `x * 0.0`, or the reverse); rxt-tf
/// keeps the sign. Tensors keep their −0.0 elements.
fn avoid_signed_zero_scalars(case: &mut Case) {
    for operand in &mut case.operands {
        match operand {
            Operand::Scalar(input) => match &mut input.values {
                Values::F32(v) => v.iter_mut().filter(|x| **x == 0.0).for_each(|x| *x = 0.0),
                Values::F64(v) => v.iter_mut().filter(|x| **x == 0.0).for_each(|x| *x = 0.0),
                _ => {}
            },
            Operand::Float(v) if *v == 0.0 => *v = 0.0,
            _ => {}
        }
    }
}

/// A random case of `op`.
fn draw(rng: &mut Rng, op: &'static Op) -> Case {
    let dtype = rng.pick(op.dtypes);
    let rank = rng.within(usize::from(op.ranks.0), usize::from(op.ranks.1));
    draw_form(rng, op, dtype, rank)
}

/// Every form of the table: each op at each of its element types and each
/// rank its rule takes for its first operand (ops of two or three operands
/// draw the others' ranks).
fn forms() -> Vec<(&'static Op, DType, usize)> {
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
fn draw_form(rng: &mut Rng, op: &'static Op, dtype: DType, rank: usize) -> Case {
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
            let n = rng.within(0, 4);
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
            let n = rng.within(0, 4);
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
        Family::Conv2d | Family::DepthwiseConv2d | Family::Conv1d => {
            conv_operands(rng, op.family, dtype)
        }
        Family::Pool2d | Family::Pool1d => {
            let max = op.name.starts_with("max_");
            pool_operands(rng, op.family == Family::Pool1d, max, dtype)
        }
        Family::BatchNorm => batch_norm_operands(rng, dtype, rank),
        Family::Einsum => einsum_operands(rng, dtype, rank, 2),
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

/// Two matmul operands with broadcasting batches; the inner dimensions or
/// the batches disagree sometimes.
fn matmul_operands(rng: &mut Rng, dtype: DType, ranks: (usize, usize)) -> (Vec<Operand>, Keywords) {
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
fn squeeze_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
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
fn signed_axis(rng: &mut Rng, axis: usize, rank: usize) -> i64 {
    if rng.chance(50) {
        axis as i64 - rank as i64
    } else {
        axis as i64
    }
}

/// Shuffles `items` in place.
fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

/// `n` sizes of a new tensor: 0–4 each, now and then a −1 (raises).
fn sizes(rng: &mut Rng, n: usize) -> Vec<i64> {
    let mut sizes: Vec<i64> = (0..n).map(|_| dim(rng) as i64).collect();
    if n > 0 && rng.chance(5) {
        sizes[rng.below(n)] = -1;
    }
    sizes
}

/// `where`'s condition and values: shapes broadcasting (sometimes not),
/// one value a run-time scalar or a literal now and then.
fn select_operands(rng: &mut Rng, dtype: DType) -> (Vec<Operand>, Keywords) {
    let ranks = [0; 3].map(|_| rng.within(0, 4));
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
fn reshape_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
    let shape = shape(rng, rank);
    let count: usize = shape.iter().product();
    let n = rng.within(0, 4);
    let mut sizes = vec![1_i64; n];
    if n > 0 {
        if count == 0 {
            sizes = (0..n).map(|_| rng.within(0, 4) as i64).collect();
            sizes[rng.below(n)] = 0;
        } else {
            let mut rest = count;
            for size in sizes.iter_mut().take(n - 1) {
                let divisors: Vec<usize> = (1..=rest.min(8)).filter(|d| rest % d == 0).collect();
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

/// Params and int32 or int64 indices (for `lookup`, ids of the first axis),
/// with `batch_dims` leading axes alike; indices out of range, batches that
/// differ and an axis before `batch_dims` now and then (raises).
fn gather_operands(rng: &mut Rng, dtype: DType, lookup: bool) -> (Vec<Operand>, Keywords) {
    let (rank, index_rank, batch_dims) = loop {
        let (rank, index_rank) = (rng.within(1, 4), rng.within(0, 4));
        let batch_dims = if lookup || rng.chance(60) {
            0
        } else {
            rng.within(0, index_rank.min(rank - 1))
        };
        if rank - 1 + index_rank - batch_dims <= 4 {
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
fn slice_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
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
fn list_operands(
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
enum Entry {
    Range,
    Shrink,
    NewAxis,
    Ellipsis,
}

/// A tensor, begins, ends, strides and masks of Python's indexing: ranges
/// (either end masked now and then), integers, up to 2 new axes and an
/// ellipsis, at most one entry per axis; indices out of range and strides
/// of 0 now and then (raises).
fn index_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
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
        rng.within(0, (4 + shrunk - rank).min(2))
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
/// direction. No axis out of range: rxt-tf refuses it before running
/// (ValueError, "does not fit a rank-r tensor"), eager's `tf.sort` raises
/// InvalidArgumentError (from the `StridedSlice` of its shape). No other
/// direction: both raise ValueError, rxt-tf's a keyword error before
/// running (its message not `rxt-tf: sort failed: …`).
fn sort_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
    let shape = shape(rng, rank);
    let mut x = input(rng, dtype, shape);
    if rng.chance(50) {
        const EDGES: [f64; 5] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0];
        match &mut x.values {
            Values::F32(v) => ties(rng, v, &EDGES.map(|edge| edge as f32)),
            Values::F64(v) => ties(rng, v, &EDGES),
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
fn ties<T: Copy>(rng: &mut Rng, values: &mut [T], edges: &[T]) {
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
const ONE_HOT_VALUES: &[f64] = &[1.0, 0.0, 5.0, -1.0, 0.5, -2.5, 0.1, 3.4e38, 1e-45, -7.25];

/// Indices (−1 and the depth, out of range, now and then), a depth (−1,
/// raising, now and then), values and an axis of the result.
fn one_hot_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
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
fn pad_constant(rng: &mut Rng, dtype: DType) -> f64 {
    match dtype {
        DType::F32 | DType::F64 => rng.pick(&[
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
fn mirror_pad_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
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
fn scalar_input(dtype: DType, value: f64) -> Input {
    let values = match dtype {
        DType::F32 => Values::F32(vec![value as f32]),
        DType::F64 => Values::F64(vec![value]),
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
fn range_operands(rng: &mut Rng, dtype: DType) -> (Vec<Operand>, Keywords) {
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
fn scalar_operand(rng: &mut Rng, dtype: DType, value: f64) -> Operand {
    let whole = value.is_finite() && value.fract() == 0.0;
    match rng.below(100) {
        0..=19 if whole => Operand::Int(value as i64),
        20..=39 if dtype.is_float() => Operand::Float(value),
        40..=64 => Operand::Tensor(scalar_input(dtype, value)),
        _ => Operand::Scalar(scalar_input(dtype, value)),
    }
}

/// Sizes along the spatial axes of an image: one (for both axes, or the
/// one axis of a sequence) or a pair.
const SPATIAL: &[&[i64]] = &[
    &[1],
    &[2],
    &[3],
    &[1, 1],
    &[1, 2],
    &[1, 3],
    &[2, 1],
    &[2, 2],
    &[2, 3],
    &[3, 1],
    &[3, 2],
    &[3, 3],
];

/// Spatial sizes of 1 to `most`: one (always, for a sequence) or a pair.
fn spatial(rng: &mut Rng, most: i64, sequence: bool) -> &'static [i64] {
    let sizes: Vec<&'static [i64]> = SPATIAL
        .iter()
        .copied()
        .filter(|sizes| sizes.iter().all(|&size| size <= most))
        .filter(|sizes| !sequence || sizes.len() == 1)
        .collect();
    rng.pick(&sizes)
}

/// A spatial dimension of an image: 0 now and then, else 1–5.
fn spatial_dim(rng: &mut Rng) -> usize {
    match rng.below(100) {
        0..=4 => 0,
        5..=19 => 1,
        _ => rng.within(2, 5),
    }
}

/// An NHWC image, or an NWC sequence: a batch and channels of 0–4 and
/// spatial dimensions of 0–5.
fn image(rng: &mut Rng, sequence: bool) -> Vec<usize> {
    let axes = if sequence { 1 } else { 2 };
    let mut shape = vec![dim(rng)];
    shape.extend((0..axes).map(|_| spatial_dim(rng)));
    shape.push(dim(rng));
    shape
}

/// `"SAME"` or `"VALID"`.
fn padding(rng: &mut Rng) -> &'static str {
    rng.pick(&["SAME", "VALID"])
}

/// The size along spatial axis `axis` (from 0) of `sizes`, one for every
/// axis or one per axis.
fn along(sizes: &[i64], axis: usize) -> i64 {
    sizes[axis.min(sizes.len() - 1)]
}

/// Whether a `"VALID"` window (or dilated filter) of `size` with `stride`
/// along an axis of `length` elements is oneDNN's quirk: wider than the
/// axis, which is not empty, and leaving no output (not a negative size,
/// which raises): TensorFlow's oneDNN `Conv2D` and `DepthwiseConv2dNative`
/// then give an output of the wrong size, its elements never written, and
/// its `MaxPool` raises AbortedError or dies of SIGFPE (its `AvgPool` and
/// TensorFlow's own kernels give the empty output).
fn onednn_empty_window(length: usize, size: i64, stride: i64) -> bool {
    let length = length as i64;
    length > 0 && size > length && length - size + stride > -stride
}

/// `padding`, or `"SAME"` for a `"VALID"` one leaving oneDNN's quirk (see
/// [`onednn_empty_window`]) along an axis of `x` (NHWC or NWC) for
/// windows of `sizes` (or dilated filters) and `strides`.
fn avoid_onednn_empty_windows(
    padding: &'static str,
    x: &[usize],
    sizes: &[i64],
    strides: &[i64],
) -> &'static str {
    let axes = x.len() - 2;
    let quirk = (0..axes)
        .any(|axis| onednn_empty_window(x[1 + axis], along(sizes, axis), along(strides, axis)));
    if padding == "VALID" && quirk {
        "SAME"
    } else {
        padding
    }
}

/// An image and filters of kernel sizes 1–3 (the filters' input depth the
/// image's channels, now and then not: raises, but for a divisor of them,
/// a grouped convolution), strides 1–3 and dilations 1–2, or for
/// `depthwise_conv2d` strides mostly alike along both axes (TensorFlow's
/// own kernel takes no others; oneDNN's does) and no dilations. No
/// `"VALID"` filter leaving oneDNN's quirk (see [`onednn_empty_window`]):
/// `"SAME"` instead.
fn conv_operands(rng: &mut Rng, family: Family, dtype: DType) -> (Vec<Operand>, Keywords) {
    let sequence = family == Family::Conv1d;
    let x = image(rng, sequence);
    let channels = x[x.len() - 1];
    let depth = if rng.chance(10) {
        rng.pick(&[channels + 1, channels * 2 + 1, channels / 2, 0])
    } else {
        channels
    };
    let axes = if sequence { 1 } else { 2 };
    let kernel: Vec<i64> = (0..axes).map(|_| rng.within(1, 3) as i64).collect();
    let ones: &'static [i64] = if rng.chance(50) { &[1] } else { &[1, 1] };
    let strides = if rng.chance(40) {
        if sequence {
            &[1]
        } else {
            ones
        }
    } else if family == Family::DepthwiseConv2d && rng.chance(80) {
        const ALIKE: &[&[i64]] = &[&[2], &[3], &[2, 2], &[3, 3]];
        rng.pick(ALIKE)
    } else {
        spatial(rng, 3, sequence)
    };
    let dilations: &'static [i64] = if family == Family::DepthwiseConv2d || rng.chance(50) {
        &[1]
    } else {
        spatial(rng, 2, sequence)
    };
    let dilated: Vec<i64> = (0..axes)
        .map(|axis| (kernel[axis] - 1) * along(dilations, axis) + 1)
        .collect();
    let padding = avoid_onednn_empty_windows(padding(rng), &x, &dilated, strides);
    let mut filters: Vec<usize> = kernel.iter().map(|&k| k as usize).collect();
    filters.extend([depth, dim(rng)]);
    let operands = vec![
        Operand::Tensor(input(rng, dtype, x)),
        Operand::Tensor(input(rng, dtype, filters)),
    ];
    let keywords = Keywords::Spatial {
        ksize: &[],
        strides,
        padding,
        dilations,
    };
    (operands, keywords)
}

/// An image and windows of sizes 1–3 and strides 1–3 (windows wider than
/// the image raise with `"VALID"`, or give an empty result); for the max
/// pools no `"VALID"` window leaving oneDNN's quirk (see
/// [`onednn_empty_window`]): `"SAME"` instead.
fn pool_operands(
    rng: &mut Rng,
    sequence: bool,
    max: bool,
    dtype: DType,
) -> (Vec<Operand>, Keywords) {
    let x = image(rng, sequence);
    let (ksize, strides) = (spatial(rng, 3, sequence), spatial(rng, 3, sequence));
    let mut padding = padding(rng);
    if max {
        padding = avoid_onednn_empty_windows(padding, &x, ksize, strides);
    }
    let keywords = Keywords::Spatial {
        ksize,
        strides,
        padding,
        dilations: &[],
    };
    (vec![Operand::Tensor(input(rng, dtype, x))], keywords)
}

/// A tensor of rank `rank` and its mean, variance, offset and scale: the
/// mean and the variance of one rank, the offset and the scale of one rank,
/// each at most `rank`, their shapes broadcasting into the tensor's (now
/// and then not: raises, or broadcasting it wider); a variance that is not
/// negative mostly; `variance_epsilon` 0, 1e-12, 1e-5, 1e-3, 0.5 or 3.
fn batch_norm_operands(rng: &mut Rng, dtype: DType, rank: usize) -> (Vec<Operand>, Keywords) {
    let x = shape(rng, rank);
    let (m, o) = (rng.within(0, rank), rng.within(0, rank));
    let mut shapes = [m, m, o, o].map(|rank| broadcast_from(rng, &x, rank));
    if rng.chance(8) {
        let stat = &mut shapes[rng.below(4)];
        if !stat.is_empty() {
            let i = rng.below(stat.len());
            stat[i] = stat[i] % 4 + 1;
        }
    }
    let mut operands = vec![Operand::Tensor(input(rng, dtype, x))];
    operands.extend(shapes.map(|shape| Operand::Tensor(input(rng, dtype, shape))));
    if rng.chance(85) {
        if let Operand::Tensor(variance) = &mut operands[2] {
            match &mut variance.values {
                Values::F32(v) => v.iter_mut().for_each(|x| *x = x.abs()),
                Values::F64(v) => v.iter_mut().for_each(|x| *x = x.abs()),
                _ => unreachable!("a float variance"),
            }
        }
    }
    let epsilon = rng.pick(&[1e-3, 1e-5, 0.0, 1e-12, 0.5, 3.0]);
    (operands, Keywords::VarianceEpsilon(epsilon))
}

/// The subscripts of an einsum operand or result, as drawn: the letters,
/// and where `...` stands among them (before the letter of that index).
#[derive(Clone, Debug)]
struct Subscripts {
    letters: Vec<char>,
    ellipsis: Option<usize>,
}

impl Subscripts {
    /// The subscripts written `text` (`"ij"`, `"...ij"`, `"i...j"`).
    fn parse(text: &str) -> Subscripts {
        match text.split_once("...") {
            Some((before, after)) => Subscripts {
                letters: before.chars().chain(after.chars()).collect(),
                ellipsis: Some(before.len()),
            },
            None => Subscripts {
                letters: text.chars().collect(),
                ellipsis: None,
            },
        }
    }

    fn text(&self) -> String {
        let mut text: String = self.letters.iter().collect();
        if let Some(at) = self.ellipsis {
            text.insert_str(at, "...");
        }
        text
    }
}

/// An einsum equation as drawn: each operand's subscripts and the number
/// of axes its `...` stands for, and the result's subscripts (`None`:
/// implicit, no `->`).
#[derive(Clone, Debug)]
struct EinsumForm {
    operands: Vec<Subscripts>,
    broadcast: Vec<usize>,
    result: Option<Subscripts>,
}

impl EinsumForm {
    /// The result's subscripts; without `->`, as `tf.einsum` makes them:
    /// the letters appearing once in all the operands, sorted (upper case
    /// first), after `...` where one operand has it.
    fn result(&self) -> Subscripts {
        if let Some(result) = &self.result {
            return result.clone();
        }
        let all: Vec<char> = self
            .operands
            .iter()
            .flat_map(|s| s.letters.clone())
            .collect();
        let mut once: Vec<char> = all
            .iter()
            .copied()
            .filter(|c| all.iter().filter(|d| *d == c).count() == 1)
            .collect();
        once.sort_unstable();
        let ellipses = self
            .operands
            .iter()
            .filter(|s| s.ellipsis.is_some())
            .count();
        Subscripts {
            letters: once,
            ellipsis: (ellipses == 1).then_some(0),
        }
    }

    /// The result's rank: its letters, and with `...` the most axes an
    /// operand's `...` stands for.
    fn result_rank(&self) -> usize {
        let result = self.result();
        let broadcast = self.broadcast.iter().copied().max().unwrap_or(0);
        result.letters.len()
            + if result.ellipsis.is_some() {
                broadcast
            } else {
                0
            }
    }

    /// The equation, with spaces around `,` and `->` when `spaced`
    /// (`tf.einsum` drops them).
    fn text(&self, spaced: bool) -> String {
        let (comma, arrow) = if spaced { (", ", " -> ") } else { (",", "->") };
        let inputs: Vec<String> = self.operands.iter().map(Subscripts::text).collect();
        let mut text = inputs.join(comma);
        if let Some(result) = &self.result {
            text.push_str(arrow);
            text.push_str(&result.text());
        }
        text
    }
}

/// The labels of random einsum equations, shuffled for each: two upper
/// case ones among them, which an implicit result sorts first; enough for
/// three operands of 4 new letters each.
const EINSUM_LABELS: [char; 12] = ['i', 'j', 'k', 'l', 'm', 'n', 'b', 'q', 'p', 'r', 'A', 'Z'];

/// Equations of common uses of two operands, drawn now and then beside
/// random ones (the axes each `...` stands for drawn).
const EINSUM_USES: &[&str] = &[
    "ij,jk->ik",
    "ij,jk",
    "ij,kj->ik",
    "ji,jk->ki",
    "bij,bjk->bik",
    "bqhd,bkhd->bhqk",
    "bhqk,bkhd->bqhd",
    "...ij,jk->...ik",
    "...ij,jk",
    "...ij,...jk->...ik",
    "ij,...jk->...ik",
    "b...j,...jk->b...k",
    "...i,...i->...",
    "...,...->...",
    "ij,ij->i",
    "ij,ij->",
    "ij,ij->ij",
    "bi,bi->b",
    "i,i->",
    "i,i",
    "i,j->ij",
    "i,j",
    "ij,k->ijk",
    ",ij->ij",
    ",",
    "ii,i->i",
];

/// Equations of common uses of one operand: diagonals, traces, transposes,
/// sums.
const EINSUM_ONE_USES: &[&str] = &[
    "ii->i",
    "ii->",
    "ii",
    "iiii->i",
    "iij->ji",
    "ij->ji",
    "ji",
    "ij->j",
    "ij->i",
    "ijk->kji",
    "ijkl->lkji",
    "bij->b",
    "i->",
    "->",
    "",
    "i...->...i",
    "...ii->...i",
    "...ij->...ji",
    "...ij->...",
    "...",
    "...->...",
];

/// Equations of common uses of three operands: chains of matmuls,
/// attention, bilinear forms, Hadamard products, outer products then
/// contractions, implicit results, `...` in one, two or all three.
const EINSUM_THREE_USES: &[&str] = &[
    "ij,jk,kl->il",
    "ij,jk,kl",
    "ij,jk,kl->li",
    "ij,kj,kl->il",
    "ji,jk,lk->il",
    "bij,bjk,bkl->bil",
    "bij,jk,bkl->bil",
    "bqd,bkd,bkv->bqv",
    "bhqd,bhkd,bhkv->bhqv",
    "bn,anm,bm->ba",
    "ij,ij,ij->ij",
    "ij,ij,ij->",
    "ij,ij,ij",
    "i,i,i->i",
    "i,j,ij->",
    "i,j,ij",
    "i,ij,j->",
    "i,j,k->ijk",
    "i,j,k",
    "ij,j,j->i",
    ",i,i->",
    ",,->",
    "ii,ij,j->i",
    "...ij,...jk,kl->...il",
    "...ij,...jk,...kl->...il",
    "...ij,jk,kl",
    "...ij,jk,kl->...il",
    "ij,...jk,kl->...il",
    "...i,...i,...i->...",
    "b...i,i...,...->b...",
];

/// One of the common uses of `operands` operands whose first operand fits
/// `rank`, the `...` of its other operands (if any) standing for a drawn
/// number of axes (`None`: none fits).
fn einsum_use(rng: &mut Rng, rank: usize, operands: usize) -> Option<EinsumForm> {
    let uses = match operands {
        1 => EINSUM_ONE_USES,
        2 => EINSUM_USES,
        _ => EINSUM_THREE_USES,
    };
    let fitting: Vec<EinsumForm> = uses
        .iter()
        .filter_map(|text| {
            let (inputs, result) = match text.split_once("->") {
                Some((inputs, result)) => (inputs, Some(Subscripts::parse(result))),
                None => (*text, None),
            };
            let operands: Vec<Subscripts> = inputs.split(',').map(Subscripts::parse).collect();
            let letters = operands[0].letters.len();
            let broadcast = match operands[0].ellipsis {
                Some(_) => rank.checked_sub(letters)?,
                None => (rank == letters).then_some(0)?,
            };
            let mut form = EinsumForm {
                broadcast: vec![broadcast; operands.len()],
                operands,
                result,
            };
            form.broadcast[1..].fill(0);
            (form.result_rank() <= 4).then_some(form)
        })
        .collect();
    if fitting.is_empty() {
        return None;
    }
    let mut form = fitting[rng.below(fitting.len())].clone();
    // The other operands' `...`: any number of axes their letters and the
    // result's leave.
    let result = form.result().letters.len();
    for k in 1..form.operands.len() {
        if form.operands[k].ellipsis.is_some() {
            let letters = form.operands[k].letters.len().max(result);
            form.broadcast[k] = rng.within(0, 4 - letters);
        }
    }
    Some(form)
}

/// A random einsum equation of `operands` operands, the first of `rank`:
/// each operand's letters new, repeated in it (a diagonal, a trace) or,
/// after the first, shared with an earlier operand (a contraction, a
/// product); `...` in none, one, several or all, standing for 0 axes or
/// more; the result implicit now and then (not with `...` in several
/// operands), or the letters kept, in any order (a transpose, an outer
/// product), after, between or before `...`; of rank 4 at most.
fn random_einsum(rng: &mut Rng, rank: usize, operands: usize) -> EinsumForm {
    let mut labels = EINSUM_LABELS;
    shuffle(rng, &mut labels);
    let mut fresh = labels.into_iter();
    let ellipses: Vec<bool> = match (rng.chance(30), operands) {
        (false, _) => vec![false; operands],
        (true, 1) => vec![true],
        (true, 2) => match rng.below(4) {
            0 => vec![true, false],
            1 => vec![false, true],
            _ => vec![true, true],
        },
        // Any of the operands, at least one.
        (true, _) => {
            let mask = 1 + rng.below((1 << operands) - 1);
            (0..operands).map(|k| mask >> k & 1 == 1).collect()
        }
    };
    let mut form = EinsumForm {
        operands: Vec::new(),
        broadcast: Vec::new(),
        result: None,
    };
    for (k, &ellipsis) in ellipses.iter().enumerate() {
        let rank = if k == 0 { rank } else { rng.within(0, 4) };
        let broadcast = if ellipsis { rng.within(0, rank) } else { 0 };
        // The letters of the operands before (with repeats: a letter of
        // several of them drawn more often).
        let earlier: Vec<char> = form
            .operands
            .iter()
            .flat_map(|s| s.letters.clone())
            .collect();
        let mut letters: Vec<char> = Vec::new();
        for _ in 0..rank - broadcast {
            let letter = match rng.below(100) {
                0..=11 if !letters.is_empty() => rng.pick(&letters),
                12..=61 if !earlier.is_empty() => rng.pick(&earlier),
                _ => fresh.next().expect("a fresh label"),
            };
            letters.push(letter);
        }
        let at = ellipsis.then(|| {
            if rng.chance(70) {
                0
            } else {
                rng.within(0, letters.len())
            }
        });
        form.operands.push(Subscripts {
            letters,
            ellipsis: at,
        });
        form.broadcast.push(broadcast);
    }
    let room = 4 - form.broadcast.iter().copied().max().unwrap_or(0);
    // Implicit: not with `...` in several operands (the result would drop
    // it, which rxt-tf refuses before running).
    let several = ellipses.iter().filter(|e| **e).count() > 1;
    if !several && rng.chance(25) && form.result().letters.len() <= room {
        return form;
    }
    let mut letters: Vec<char> = Vec::new();
    for s in &form.operands {
        for &c in &s.letters {
            if !letters.contains(&c) {
                letters.push(c);
            }
        }
    }
    if rng.chance(70) {
        shuffle(rng, &mut letters);
    }
    let keep = if rng.chance(30) {
        letters.len()
    } else {
        rng.within(0, letters.len())
    };
    letters.truncate(keep.min(room));
    let at = ellipses.iter().any(|e| *e).then(|| {
        if rng.chance(70) {
            0
        } else {
            rng.within(0, letters.len())
        }
    });
    form.result = Some(Subscripts {
        letters,
        ellipsis: at,
    });
    form
}

/// An einsum equation of `operands` operands (a common use a fifth of the
/// time, else random) and tensors of `dtype` whose shapes fit it, the
/// first of `rank`: each letter one size 0–4 (for three operands, the
/// order `tf.einsum` contracts them in follows), the axes of `...` in
/// several operands broadcasting (equal or 1; now and then two not:
/// raises); now and then one axis of a letter that appears more than once
/// of another size (raises). Spaces around `,` and `->` now and then.
/// Three operands whose contraction in `tf.einsum`'s order would make a
/// result past rank 4 are drawn again ([`einsum_pairs_fit`]).
fn einsum_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
    operands: usize,
) -> (Vec<Operand>, Keywords) {
    loop {
        let form = match rng.chance(20) {
            true => einsum_use(rng, rank, operands),
            false => None,
        };
        let form = form.unwrap_or_else(|| random_einsum(rng, rank, operands));
        let shapes = einsum_shapes(rng, &form);
        if operands == 3 && !einsum_pairs_fit(&form.text(false), &shapes) {
            continue;
        }
        let equation = kept_equation(form.text(rng.chance(5)));
        let operands = shapes
            .into_iter()
            .map(|shape| Operand::Tensor(input(rng, dtype, shape)))
            .collect();
        return (operands, Keywords::Equation(equation, form.result_rank()));
    }
}

/// The operands' shapes for `form`: each letter one size, the axes of
/// `...` broadcasting; now and then not (see [`einsum_operands`]).
fn einsum_shapes(rng: &mut Rng, form: &EinsumForm) -> Vec<Vec<usize>> {
    let mut sizes: BTreeMap<char, usize> = BTreeMap::new();
    for s in &form.operands {
        for &c in &s.letters {
            sizes.entry(c).or_insert_with(|| dim(rng));
        }
    }
    let broadcast: Vec<Vec<usize>> = match (form.operands.as_slice(), form.broadcast.as_slice()) {
        ([a, b], &[ea, eb]) if a.ellipsis.is_some() && b.ellipsis.is_some() => {
            let (a, b) = broadcast_pair(rng, ea, eb);
            vec![a, b]
        }
        // Three operands: the axes of each `...` trailing ones of one
        // shape, some of them 1; now and then two that do not broadcast.
        ([_, _, _], counts) => {
            let full = shape(rng, counts.iter().copied().max().unwrap_or(0));
            let mut axes: Vec<Vec<usize>> = counts
                .iter()
                .map(|&e| broadcast_from(rng, &full, e))
                .collect();
            let with: Vec<usize> = (0..counts.len())
                .filter(|&k| form.operands[k].ellipsis.is_some())
                .collect();
            if with.len() > 1 && rng.chance(8) {
                let i = rng.below(with.len());
                let j = (i + 1 + rng.below(with.len() - 1)) % with.len();
                let (i, j) = (with[i.min(j)], with[i.max(j)]);
                let (before, after) = axes.split_at_mut(j);
                misalign(rng, &mut before[i], &mut after[0]);
            }
            axes
        }
        (_, counts) => counts.iter().map(|&e| shape(rng, e)).collect(),
    };
    let mut shapes: Vec<Vec<usize>> = form
        .operands
        .iter()
        .zip(broadcast)
        .map(|(s, broadcast)| {
            let mut shape: Vec<usize> = s.letters.iter().map(|c| sizes[c]).collect();
            if let Some(at) = s.ellipsis {
                shape.splice(at..at, broadcast);
            }
            shape
        })
        .collect();
    if rng.chance(6) {
        // The axes of letters that appear more than once.
        let all: Vec<char> = form
            .operands
            .iter()
            .flat_map(|s| s.letters.clone())
            .collect();
        let mut axes: Vec<(usize, usize)> = Vec::new();
        for (k, s) in form.operands.iter().enumerate() {
            for (i, c) in s.letters.iter().enumerate() {
                if all.iter().filter(|d| *d == c).count() > 1 {
                    let after = s.ellipsis.is_some_and(|at| i >= at);
                    axes.push((k, if after { i + form.broadcast[k] } else { i }));
                }
            }
        }
        if !axes.is_empty() {
            let (k, axis) = axes[rng.below(axes.len())];
            shapes[k][axis] = (shapes[k][axis] + rng.within(1, 4)) % 5;
        }
    }
    shapes
}

/// Whether each pairwise contraction `tf.einsum` runs for `equation` (of
/// three operands) on operands of `shapes`, in the order it picks for
/// their sizes (`rxt_tf_spec::einsum::order`, checked against TensorFlow's
/// own path finder by `tests/einsum_order.rs`), gives a result of rank 4
/// at most. A larger one rxt-tf refuses before running it (ValueError,
/// `rxt-tf: einsum: … whose result would have more than 4 axes`), where
/// eager runs it: such cases are left out.
fn einsum_pairs_fit(equation: &str, shapes: &[Vec<usize>]) -> bool {
    use rxt_tf_spec::einsum::{order, parse};
    let Ok(parsed) = parse(equation, shapes.len()) else {
        return true;
    };
    let dims: Vec<Vec<i64>> = shapes
        .iter()
        .map(|shape| shape.iter().map(|&d| d as i64).collect())
        .collect();
    let views: Vec<&[i64]> = dims.iter().map(Vec::as_slice).collect();
    let contractions = order::contractions(&parsed, &views);
    let Some((_, earlier)) = contractions.split_last() else {
        return true;
    };
    // The ranks of the operands still to contract, as the runtime keeps
    // them: the pair's removed, its result's appended.
    let mut ranks: Vec<u8> = shapes.iter().map(|shape| shape.len() as u8).collect();
    earlier.iter().all(|contraction| {
        let taken: Vec<u8> = contraction
            .positions
            .iter()
            .map(|&position| ranks.remove(position))
            .collect();
        let rank = parse(&contraction.equation, taken.len())
            .ok()
            .and_then(|pair| pair.result_rank(&taken));
        rank.inspect(|&rank| ranks.push(rank)).is_some()
    })
}

/// `equation`, kept for the life of the process (the plain functions take
/// a `&'static str`), each distinct one once.
fn kept_equation(equation: String) -> &'static str {
    static KEPT: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = kept.get(equation.as_str()) {
        return found;
    }
    let leaked: &'static str = Box::leak(equation.into_boxed_str());
    kept.insert(leaked);
    leaked
}

// ---------------------------------------------------------------------------
// The eager side.

/// The NumPy scalar type of `dtype`.
fn numpy_type(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 => "np.float32",
        DType::F64 => "np.float64",
        DType::I32 => "np.int32",
        DType::I64 => "np.int64",
        DType::Bool => "np.bool_",
    }
}

fn python_bool(flag: bool) -> &'static str {
    if flag {
        "True"
    } else {
        "False"
    }
}

/// The eager expression of `case`, and the names it uses: the case's
/// tensors (`tensors`, in order, those of a list too) and scalars.
fn eager_call<'py>(
    py: Python<'py>,
    case: &Case,
    tensors: Vec<Bound<'py, PyAny>>,
) -> (String, Vec<(&'static str, Bound<'py, PyAny>)>) {
    let mut tensors = tensors.into_iter();
    let names: &[&str] = if case.operands.len() == 1 {
        &["x"]
    } else {
        &["a", "b", "c", "d", "e"]
    };
    let mut bound = Vec::new();
    let mut args = Vec::new();
    for (operand, &name) in case.operands.iter().zip(names) {
        let text = match operand {
            Operand::Tensor(_) => {
                bound.push((name, tensors.next().expect("a tensor")));
                name.to_owned()
            }
            Operand::Scalar(input) => {
                bound.push((name, input.python_scalar(py)));
                format!("{}({name})", numpy_type(input.dtype()))
            }
            Operand::Int(v) => {
                bound.push((name, v.into_bound_py_any(py).expect("an int")));
                name.to_owned()
            }
            Operand::Float(v) => {
                bound.push((name, v.into_bound_py_any(py).expect("a float")));
                name.to_owned()
            }
            Operand::List(inputs) => {
                const ITEMS: [&str; 8] = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"];
                let items = &ITEMS[..inputs.len()];
                for &item in items {
                    bound.push((item, tensors.next().expect("a tensor of the list")));
                }
                format!("[{}]", items.join(", "))
            }
            // An empty Python list converts to float32, which no index list
            // of `tf.strided_slice` takes: a NumPy array of rxt-tf's int64.
            Operand::Dims(dims) if case.op.family == Family::Index => {
                format!("np.array({dims:?}, np.int64)")
            }
            Operand::Dims(dims) => format!("{dims:?}"),
            Operand::Pairs(pairs) => format!("{pairs:?}"),
            Operand::Size(size) => size.to_string(),
        };
        args.push(text);
    }
    let args = args.join(", ");
    let f = case.op.python;
    let code = match &case.keywords {
        Keywords::None if f.len() == 1 => args.replace(", ", &format!(" {f} ")),
        Keywords::None => format!("{f}({args})"),
        Keywords::Alpha(alpha) => format!("{f}({args}, alpha={alpha:?})"),
        Keywords::Approximate(approximate) => {
            format!("{f}({args}, approximate={})", python_bool(*approximate))
        }
        Keywords::Transpose(ta, tb) => format!(
            "{f}({args}, transpose_a={}, transpose_b={})",
            python_bool(*ta),
            python_bool(*tb)
        ),
        Keywords::Axes(axes, keepdims) if case.op.family == Family::Reduce => {
            format!(
                "{f}({args}, axis={axes:?}, keepdims={})",
                python_bool(*keepdims)
            )
        }
        // `tf.nn.moments`' tuple, as rxt-tf's pair.
        Keywords::Axes(axes, keepdims) if case.op.family == Family::Moments => {
            format!(
                "list({f}({args}, axes={axes:?}, keepdims={}))",
                python_bool(*keepdims)
            )
        }
        Keywords::Axes(axes, _) => format!("{f}({args}, axis={axes:?})"),
        // One axis as an integer, several as a list.
        Keywords::Epsilon(axes, epsilon) => match axes.as_slice() {
            [axis] => format!("{f}({args}, axis={axis}, epsilon={epsilon:?})"),
            axes => format!("{f}({args}, axis={axes:?}, epsilon={epsilon:?})"),
        },
        Keywords::Axis(axis) if case.op.family == Family::ExpandDims => {
            format!("{f}({args}, {axis})")
        }
        Keywords::Axis(axis) => format!("{f}({args}, axis={axis})"),
        Keywords::Cumsum(axis, exclusive, reverse) => format!(
            "{f}({args}, axis={axis}, exclusive={}, reverse={})",
            python_bool(*exclusive),
            python_bool(*reverse)
        ),
        Keywords::Index(axis, index) => {
            format!("{f}({args}, axis={axis}, output_type=tf.{})", index.name())
        }
        Keywords::Perm(_, true) => format!("{f}({args})"),
        Keywords::Perm(perm, false) => format!("{f}({args}, perm={perm:?})"),
        Keywords::To(to) if case.op.family == Family::Shape => {
            format!("{f}({args}, out_type=tf.{})", to.name())
        }
        Keywords::To(to) if case.op.family == Family::Eye => {
            format!("{f}({args}, dtype=tf.{})", to.name())
        }
        Keywords::To(to) => format!("{f}({args}, tf.{})", to.name()),
        Keywords::Gather(axis, batch_dims) => {
            format!("{f}({args}, axis={axis}, batch_dims={batch_dims})")
        }
        // A list of tensors, as rxt-tf's array.
        Keywords::Parts(parts, axis) if case.op.family == Family::Split => {
            format!("list({f}({args}, {parts}, axis={axis}))")
        }
        Keywords::Parts(num, axis) => format!("{f}({args}, num={num}, axis={axis})"),
        // `TopKV2`'s named tuple, as rxt-tf's pair.
        Keywords::TopK(k, sorted) => {
            format!("list({f}({args}, k={k}, sorted={}))", python_bool(*sorted))
        }
        Keywords::Sort(axis, direction) => {
            format!("{f}({args}, axis={axis}, direction='{direction}')")
        }
        Keywords::OneHot(on, off, axis) => {
            format!("{f}({args}, on_value={on:?}, off_value={off:?}, axis={axis})")
        }
        Keywords::Constant(value) => {
            let value = match case.dtype {
                DType::F32 | DType::F64 => value.into_bound_py_any(py),
                DType::I32 | DType::I64 => (*value as i64).into_bound_py_any(py),
                DType::Bool => (*value != 0.0).into_bound_py_any(py),
            };
            bound.push(("v", value.expect("a Python number")));
            format!("{f}({args}, constant_values=v)")
        }
        Keywords::Mode(mode) => format!("{f}({args}, mode='{mode}')"),
        Keywords::Masks([begin, end, ellipsis, new_axis, shrink_axis]) => format!(
            "{f}({args}, begin_mask={begin}, end_mask={end}, ellipsis_mask={ellipsis}, \
             new_axis_mask={new_axis}, shrink_axis_mask={shrink_axis})"
        ),
        Keywords::Spatial {
            ksize,
            strides,
            padding,
            dilations,
        } => match case.op.family {
            Family::Conv2d => format!(
                "{f}({args}, strides={strides:?}, padding='{padding}', dilations={dilations:?})"
            ),
            // `tf.nn.depthwise_conv2d` takes the four strides of NHWC.
            Family::DepthwiseConv2d => {
                let (h, w) = (strides[0], strides[strides.len() - 1]);
                format!("{f}({args}, strides=[1, {h}, {w}, 1], padding='{padding}')")
            }
            Family::Conv1d => format!(
                "{f}({args}, stride={}, padding='{padding}', dilations={})",
                strides[0], dilations[0]
            ),
            Family::Pool2d => {
                format!("{f}({args}, ksize={ksize:?}, strides={strides:?}, padding='{padding}')")
            }
            Family::Pool1d => format!(
                "{f}({args}, ksize={}, strides={}, padding='{padding}')",
                ksize[0], strides[0]
            ),
            family => unreachable!("spatial keywords of {family:?}"),
        },
        Keywords::VarianceEpsilon(epsilon) => {
            format!("{f}({args}, variance_epsilon={epsilon:?})")
        }
        Keywords::Equation(equation, _) => format!("{f}({equation:?}, {args})"),
    };
    (code, bound)
}

/// Evaluates `code` with `tf`, `np` and `names` in scope; eager's exception
/// is returned, not raised.
fn eager<'py>(
    py: Python<'py>,
    code: &str,
    names: &[(&str, Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyAny>> {
    let globals = PyDict::new(py);
    globals.set_item("tf", py.import("tensorflow")?)?;
    globals.set_item("np", py.import("numpy")?)?;
    for (name, value) in names {
        globals.set_item(*name, value)?;
    }
    let code = CString::new(code).expect("no NUL");
    py.eval(&code, Some(&globals), None)
}

// ---------------------------------------------------------------------------
// Checking.

/// What a case compared.
enum Compared {
    Values,
    Errors,
}

/// Runs `case` both ways and compares; panics on a difference.
fn check(py: Python<'_>, case: &Case) -> Compared {
    let (native, tensors) = (case.op.run)(py, case);
    let (code, names) = eager_call(py, case, tensors);
    let eager = eager(py, &code, &names);
    match (native, eager) {
        (Ok(native), Ok(eager)) => {
            match (native.cast::<PyList>(), eager.cast::<PyList>()) {
                // Several tensors (`split`, `unstack`, `top_k`, `moments`):
                // each.
                (Ok(natives), Ok(eagers)) => {
                    assert_eq!(
                        natives.len(),
                        eagers.len(),
                        "{code}: rxt-tf gave {natives}, eager {eagers}"
                    );
                    for (i, (native, eager)) in natives.iter().zip(eagers.iter()).enumerate() {
                        assert_matches_eager(py, &format!("{code}[{i}]"), &native, &eager);
                    }
                }
                _ => assert_matches_eager(py, &code, &native, &eager),
            }
            Compared::Values
        }
        (Err(native), Err(eager)) => {
            let (class, message) = python_error(py, native);
            let (eager_class, eager_message) = python_error(py, eager);
            assert_eq!(
                class, eager_class,
                "{code}: rxt-tf raised {class}: {message}\neager raised {eager_class}: {eager_message}"
            );
            // Errors name the op as written: `einsum` of one or three
            // operands is the row `einsum_one` or `einsum_three`, called
            // `einsum` (`Op::called`).
            let name = rxt_tf_spec::lookup(case.op.name).map_or(case.op.name, |row| row.called());
            let prefix = format!("rxt-tf: {name} failed: ");
            assert!(
                message.starts_with(&prefix),
                "{code}: rxt-tf's message {message:?} does not begin {prefix:?}"
            );
            Compared::Errors
        }
        (Ok(native), Err(eager)) => {
            let (class, message) = python_error(py, eager);
            panic!("{code}: eager raised {class}: {message}\nrxt-tf gave {native}")
        }
        (Err(native), Ok(eager)) => {
            let (class, message) = python_error(py, native);
            panic!("{code}: rxt-tf raised {class}: {message}\neager gave {eager}")
        }
    }
}

/// A `u64` from the environment (decimal, or hex after `0x`), or `default`.
fn setting(name: &str, default: u64) -> u64 {
    let Ok(text) = std::env::var(name) else {
        return default;
    };
    let digits = text.trim().replace('_', "");
    let parsed = match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => digits.parse(),
    };
    parsed.unwrap_or_else(|err| panic!("{name}={text:?}: {err}"))
}

/// The ops of the README's op table (generated from the op table).
fn readme_ops() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let table = readme
        .split("<!-- codegen:ops begin")
        .nth(1)
        .and_then(|rest| rest.split("<!-- codegen:ops end").next())
        .expect("the README's op table");
    table
        .lines()
        .filter_map(|line| line.strip_prefix("| `tf!("))
        .filter_map(|rest| rest.split('(').next())
        .map(str::to_owned)
        .collect()
}

thread_local! {
    /// Whether a panic on this thread is a case's difference, caught and
    /// reported with the others at the end rather than printed at once.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, catching its panic without printing it.
fn caught<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    QUIET.set(true);
    let outcome = catch_unwind(AssertUnwindSafe(f));
    QUIET.set(false);
    outcome
}

/// Per op: cases, and how many compared values and errors.
#[derive(Default)]
struct Tally {
    cases: u64,
    values: u64,
    errors: u64,
}

#[test]
fn random_cases_of_every_op_match_eager_tensorflow() {
    let cases = setting("RXT_TF_FUZZ_CASES", DEFAULT_CASES);
    let seed = setting("RXT_TF_FUZZ_SEED", DEFAULT_SEED);
    for op in OPS {
        assert_eq!(
            op.listed, op.dtypes,
            "{}: the fuzz table's element types are not the op table's",
            op.name
        );
    }
    // Ops of two operands, `where`, `gather`, `strided_slice`, `conv2d`,
    // `batch_normalization`, `einsum` and `einsum_three` have more forms to
    // cover: drawn twice as often.
    let weighted: Vec<&'static Op> = OPS
        .iter()
        .flat_map(|op| {
            let weight = match op.family {
                Family::Binary
                | Family::Logical
                | Family::MatMul
                | Family::Select
                | Family::Gather
                | Family::Index
                | Family::Conv2d
                | Family::BatchNorm
                | Family::Einsum
                | Family::EinsumThree => 2,
                _ => 1,
            };
            std::iter::repeat_n(op, weight)
        })
        .collect();
    let mut rng = Rng::new(seed);
    let mut tally: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let started = Instant::now();
    let hook: Arc<dyn Fn(&PanicHookInfo<'_>) + Send + Sync> = Arc::from(std::panic::take_hook());
    let printing = Arc::clone(&hook);
    std::panic::set_hook(Box::new(move |info| {
        if !QUIET.get() {
            printing(info);
        }
    }));
    // Every form once, then the random cases.
    let sweep = forms();
    let drawn = (0..cases).map(|number| (format!("case {number}"), None));
    let swept = sweep.iter().map(|&(op, dtype, rank)| {
        let form = format!("form {} {dtype:?} rank {rank}", op.name);
        (form, Some((op, dtype, rank)))
    });
    for (label, form) in swept.chain(drawn) {
        let case = match form {
            Some((op, dtype, rank)) => draw_form(&mut rng, op, dtype, rank),
            None => {
                let op = rng.pick(&weighted);
                draw(&mut rng, op)
            }
        };
        let outcome = caught(|| with_python(|py| check(py, &case)));
        let entry = tally.entry(case.op.name).or_default();
        entry.cases += 1;
        match outcome {
            Ok(Compared::Values) => entry.values += 1,
            Ok(Compared::Errors) => entry.errors += 1,
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                failures.push(format!("{label}: {message}\n{case:?}"));
            }
        }
    }
    std::panic::set_hook(Box::new(move |info| hook(info)));
    let elapsed = started.elapsed();

    let (values, errors) = tally
        .values()
        .fold((0, 0), |(v, e), t| (v + t.values, e + t.errors));
    let fused = std::env::var_os("RXT_TF_TEST_FUSED").is_some_and(|v| v == "1");
    eprintln!(
        "fuzz_ops: {} forms and {cases} random cases (seed {seed:#x}, {}) in {:.1} s: {values} \
         compared values, {errors} compared errors, {} differences",
        sweep.len(),
        if fused { "fused" } else { "per op" },
        elapsed.as_secs_f64(),
        failures.len()
    );
    eprintln!(
        "  {:<20} {:>7} {:>7} {:>7}",
        "op", "cases", "values", "errors"
    );
    for (name, t) in &tally {
        eprintln!(
            "  {name:<20} {:>7} {:>7} {:>7}",
            t.cases, t.values, t.errors
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} forms and cases differ from eager TensorFlow (the forms run first, every \
         time; random case n again: RXT_TF_FUZZ_SEED={seed:#x} RXT_TF_FUZZ_CASES=n+1); the \
         first:\n{}",
        failures.len(),
        sweep.len() as u64 + cases,
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    let fuzzed: Vec<&str> = OPS.iter().map(|op| op.name).collect();
    let missing: Vec<String> = readme_ops()
        .into_iter()
        .filter(|name| !fuzzed.contains(&name.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "ops of the README's op table (rxt_tf_spec::OPS) without a line in the fuzz table: \
         {missing:?}"
    );
}
