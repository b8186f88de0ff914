//! Differential fuzzing of the op table against eager TensorFlow: random
//! cases (op, element type, shapes, keywords, values), drawn with a fixed
//! seed, run through the plain functions of `rxt_tf::ops` and through the
//! eager `tf.*` call, must give the same tensor bit for bit (dtype, shape,
//! NaN positions, the sign of zero), or both raise the same `tf.errors`
//! class, rxt-tf's message beginning `rxt-tf: <op> failed: ` (the op as
//! called: `einsum` for the rows `einsum_one` and `einsum_three`).
//!
//! Every op of the guide's op reference (`guide/src/reference/ops.md`,
//! generated from `rxt_tf_spec::OPS`) has a line in the fuzz table
//! (`table.rs`; the test fails naming any op without one). Each run
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
//! The layers, on the float types their kernels take: `conv2d`, `depthwise_conv2d` and
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
//! (`Conv2D`, `DepthwiseConv2dNative`, and `Conv3D` on CPUs with AMX) or
//! raise AbortedError or kill the process with SIGFPE (`MaxPool`, and
//! `MaxPool3D` on CPUs with AMX), so those cases pad `"SAME"`. Not left
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
//! every test). `RXT_TF_TEST_LITERT=1` runs every case inside a litert
//! scope, of ordinary values (finite, within ±16, small integers: the
//! backend's tolerance is stated for those), compared within that
//! tolerance; the summary's last column counts the cases LiteRT ran (the
//! others fell back to TensorFlow); `RXT_TF_FUZZ_SWEEP=0` skips the sweep
//! of every form; `RXT_TF_FUZZ_TRACE=1` prints each case before it runs. `--nocapture` shows a summary; `make fuzz` runs 200 000
//! cases in a release build.

#[path = "../common/mod.rs"]
mod common;

#[macro_use]
mod dispatch;
#[macro_use]
mod runners;

mod cases;
mod draw;
mod eager;
mod einsum;
mod layers;
mod operands;
mod table;

use std::cell::Cell;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe, PanicHookInfo};
use std::sync::Arc;
use std::time::Instant;

use common::{assert_close_to_eager, assert_matches_eager, python_error, with_python, Rng};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::cases::Case;
use crate::draw::{draw, draw_form, forms};
use crate::eager::{eager, eager_call};
use crate::table::{Family, Op, OPS};

const DEFAULT_CASES: u64 = 10_000;
const DEFAULT_SEED: u64 = 0x00f0_22ed_2026_1201;

/// What a case compared.
enum Compared {
    Values,
    Errors,
}

/// Whether the cases run in a litert scope (`RXT_TF_TEST_LITERT=1`):
/// compared within the backend's tolerance, drawn of ordinary values.
fn litert() -> bool {
    std::env::var_os("RXT_TF_TEST_LITERT").is_some_and(|v| v == "1")
}

/// Compares one tensor as the run's mode does: bitwise, or within the
/// litert backend's tolerance.
fn compare<'py>(
    py: Python<'py>,
    what: &str,
    native: &Bound<'py, PyAny>,
    eager: &Bound<'py, PyAny>,
) {
    if litert() {
        assert_close_to_eager(py, what, native, eager);
    } else {
        assert_matches_eager(py, what, native, eager);
    }
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
                        compare(py, &format!("{code}[{i}]"), &native, &eager);
                    }
                }
                _ => compare(py, &code, &native, &eager),
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

/// The ops of the guide's op reference (generated from the op table).
fn reference_ops() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/guide/src/reference/ops.md");
    let reference = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let table = reference
        .split("<!-- codegen:ops begin")
        .nth(1)
        .and_then(|rest| rest.split("<!-- codegen:ops end").next())
        .expect("the op reference's table");
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
    /// Cases that ran through LiteRT (in a litert run).
    litert: u64,
}

/// The dispatch's frames (one arm per type and rank of every op) outgrow a
/// test thread's default stack in a debug build: the fuzz runs on its own.
const FUZZ_STACK_BYTES: usize = 256 << 20;

#[test]
fn random_cases_of_every_op_match_eager_tensorflow() {
    let fuzz = std::thread::Builder::new()
        .name("fuzz".into())
        .stack_size(FUZZ_STACK_BYTES)
        .spawn(fuzz_every_op);
    match fuzz.map(std::thread::JoinHandle::join) {
        Ok(Ok(())) => {}
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(error) => panic!("the fuzz thread did not start: {error}"),
    }
}

/// Every form once, then the random cases, each against eager TensorFlow.
fn fuzz_every_op() {
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
    let sweep = if setting("RXT_TF_FUZZ_SWEEP", 1) == 0 {
        Vec::new()
    } else {
        forms()
    };
    // `RXT_TF_FUZZ_TRACE=1` prints each case before it runs (to find one
    // that kills the process).
    let tracing = setting("RXT_TF_FUZZ_TRACE", 0) == 1;
    crate::draw::ORDINARY.store(litert(), std::sync::atomic::Ordering::Relaxed);
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
        if tracing {
            eprintln!("{label}: {case:?}");
        }
        let before = rxt_tf::fusion::stats().litert_calls;
        let outcome = caught(|| with_python(|py| check(py, &case)));
        let entry = tally.entry(case.op.name).or_default();
        entry.cases += 1;
        entry.litert += u64::from(rxt_tf::fusion::stats().litert_calls > before);
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
    let mode = if litert() {
        "litert, within tolerance"
    } else if fused {
        "fused"
    } else {
        "per op"
    };
    eprintln!(
        "fuzz_ops: {} forms and {cases} random cases (seed {seed:#x}, {}) in {:.1} s: {values} \
         compared values, {errors} compared errors, {} differences",
        sweep.len(),
        mode,
        elapsed.as_secs_f64(),
        failures.len()
    );
    eprintln!(
        "  {:<20} {:>7} {:>7} {:>7} {:>7}",
        "op", "cases", "values", "errors", "litert"
    );
    for (name, t) in &tally {
        eprintln!(
            "  {name:<20} {:>7} {:>7} {:>7} {:>7}",
            t.cases, t.values, t.errors, t.litert
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
    let missing: Vec<String> = reference_ops()
        .into_iter()
        .filter(|name| !fuzzed.contains(&name.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "ops of the op reference (rxt_tf_spec::OPS) without a line in the fuzz table: \
         {missing:?}"
    );
}
