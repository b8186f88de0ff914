//! Differential fuzzing of the op table against eager TensorFlow: random
//! cases (op, element type, shapes, keywords, values), drawn with a fixed
//! seed, run through the plain functions of `rxt_tf::ops` and through the
//! eager `tf.*` call, must give the same tensor bit for bit (dtype, shape,
//! NaN positions, the sign of zero), or both raise the same `tf.errors`
//! class, rxt-tf's message beginning `rxt-tf: <op> failed: `.
//!
//! Every op with a line in the fuzz table below is drawn (the summary names
//! the ops of the README's op table without one), on each element type its
//! row lists and each rank its rule takes: element-wise ops (float-only,
//! integer and bool ones, `leaky_relu`'s `alpha`); broadcasting binary ops
//! on two tensors of ranks 0–4 (shapes compatible most of the time,
//! incompatible sometimes), or on a tensor beside a run-time `Scalar` or a
//! literal on either side (integer `div` promoting to float64, comparisons
//! giving bool, integer division by zero and negative integer powers
//! raising, `i32::MIN` floordiv −1 wrapping); matmul of ranks
//! 2–4 with broadcasting batches and both transpose flags; `bias_add`;
//! reductions over random axes (negative, several, `keepdims`);
//! argmax/argmin with either output type; softmax, log_softmax and cumsum
//! on any axis; transpose by random permutations; reverse; casts between
//! every element type; expand_dims; squeeze of axes of size 1 (and, raising,
//! of other sizes); shape. Dimensions are 0–4; values include NaN, ±inf,
//! −0.0, subnormals, extremes, random bit patterns and integer edges.
//!
//! Left out, each where it is drawn, with why: −0.0 as a scalar or literal
//! (eager's constant cache mixes up ±0.0); int32 literals past i32 (eager
//! wraps them, rxt-tf raises). `tf.math.add(2, x)`
//! raises for `x` not int32 where `2 + x` (and rxt-tf) convert the literal
//! to `x`'s type, so add, sub, mul and div are written with their operators.
//!
//! `RXT_TF_FUZZ_CASES` sets the number of cases (default 10 000) and
//! `RXT_TF_FUZZ_SEED` the seed (decimal or `0x` hex); `RXT_TF_TEST_FUSED=1`
//! runs every case inside a fused scope (as `common::with_python` does for
//! every test). `--nocapture` shows a summary; `make fuzz` runs 200 000
//! cases in a release build.

mod common;

use std::cell::Cell;
use std::collections::BTreeMap;
use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe, PanicHookInfo};
use std::sync::Arc;
use std::time::Instant;

use common::{assert_matches_eager, python_error, to_python, with_python};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;
use rxt_tf::__private::{op, DType, FloatLiteral, IntLiteral, OpRow};
use rxt_tf::ops::{self, Scalar};
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
    /// Two operands broadcasting: tensors, or a tensor and a scalar or a
    /// literal on either side.
    Binary,
    /// `Binary` on bool tensors only: no literals.
    Logical,
    MatMul,
    BiasAdd,
    /// Axes (one or several) and `keepdims`.
    Reduce,
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
/// objects (after the result: a fused op reads them first).
macro_rules! finish {
    ($py:expr, $result:expr $(, $tensor:ident)*) => {{
        let output = native($py, $result);
        (output, vec![$(to_python($py, "an input", Ok($tensor))),*])
    }};
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
}

/// The keywords of a case.
#[derive(Clone, Debug)]
enum Keywords {
    None,
    Alpha(f64),
    /// `transpose_a`, `transpose_b`.
    Transpose(bool, bool),
    /// Axes and `keepdims`.
    Axes(Vec<i64>, bool),
    Axis(i64),
    /// `axis`, `exclusive`, `reverse`.
    Cumsum(i64, bool, bool),
    /// An axis and the index type.
    Index(i64, DType),
    /// The permutation, and whether eager omits it (the axes reversed).
    Perm(Vec<i64>, bool),
    /// The target or index type.
    To(DType),
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

/// xorshift64*, seeded through splitmix64: small and deterministic.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `low..=high`.
    fn within(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

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
    let ranks = (usize::from(op.ranks.0), usize::from(op.ranks.1));
    let rank = rng.within(ranks.0, ranks.1);
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
        Family::Reduce | Family::Reverse => {
            let n = rng.within(1, rank);
            let axes = distinct_axes(rng, rank, n);
            let keepdims = op.family == Family::Reduce && rng.chance(50);
            (single(rng), Keywords::Axes(axes, keepdims))
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
/// tensors (`tensors`, in order) and scalars.
fn eager_call<'py>(
    py: Python<'py>,
    case: &Case,
    tensors: Vec<Bound<'py, PyAny>>,
) -> (String, Vec<(&'static str, Bound<'py, PyAny>)>) {
    let mut tensors = tensors.into_iter();
    let names: &[&str] = if case.operands.len() == 1 {
        &["x"]
    } else {
        &["a", "b"]
    };
    let mut bound = Vec::new();
    let mut args = Vec::new();
    for (operand, &name) in case.operands.iter().zip(names) {
        let (value, text) = match operand {
            Operand::Tensor(_) => (tensors.next().expect("a tensor"), name.to_owned()),
            Operand::Scalar(input) => (
                input.python_scalar(py),
                format!("{}({name})", numpy_type(case.dtype)),
            ),
            Operand::Int(v) => (v.into_bound_py_any(py).expect("an int"), name.to_owned()),
            Operand::Float(v) => (v.into_bound_py_any(py).expect("a float"), name.to_owned()),
        };
        bound.push((name, value));
        args.push(text);
    }
    let args = args.join(", ");
    let f = case.op.python;
    let code = match &case.keywords {
        Keywords::None if f.len() == 1 => args.replace(", ", &format!(" {f} ")),
        Keywords::None => format!("{f}({args})"),
        Keywords::Alpha(alpha) => format!("{f}({args}, alpha={alpha:?})"),
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
        Keywords::Axes(axes, _) => format!("{f}({args}, axis={axes:?})"),
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
        Keywords::To(to) => format!("{f}({args}, tf.{})", to.name()),
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
            assert_matches_eager(py, &code, &native, &eager);
            Compared::Values
        }
        (Err(native), Err(eager)) => {
            let (class, message) = python_error(py, native);
            let (eager_class, eager_message) = python_error(py, eager);
            assert_eq!(
                class, eager_class,
                "{code}: rxt-tf raised {class}: {message}\neager raised {eager_class}: {eager_message}"
            );
            let prefix = format!("rxt-tf: {} failed: ", case.op.name);
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
    // Ops of two operands have more forms to cover: drawn twice as often.
    let weighted: Vec<&'static Op> = OPS
        .iter()
        .flat_map(|op| {
            let weight = match op.family {
                Family::Binary | Family::Logical | Family::MatMul => 2,
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
    for number in 0..cases {
        let op = rng.pick(&weighted);
        let case = draw(&mut rng, op);
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
                failures.push(format!("case {number}: {message}\n{case:?}"));
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
        "fuzz_ops: {cases} cases (seed {seed:#x}, {}) in {:.1} s: {values} compared values, \
         {errors} compared errors, {} differences",
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
    let fuzzed: Vec<&str> = OPS.iter().map(|op| op.name).collect();
    let missing: Vec<String> = readme_ops()
        .into_iter()
        .filter(|name| !fuzzed.contains(&name.as_str()))
        .collect();
    if !missing.is_empty() {
        eprintln!("  not fuzzed (no line in the fuzz table yet): {missing:?}");
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ from eager TensorFlow (case n again: \
         RXT_TF_FUZZ_SEED={seed:#x} RXT_TF_FUZZ_CASES=n+1); the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
