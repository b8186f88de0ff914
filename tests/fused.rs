//! Fused execution: traces run as one TensorFlow call, compared with the
//! per-op path and with eager TensorFlow; the trace cache (builds, eviction,
//! removal from the context), errors in the middle of a chain, reads inside
//! a fused scope, threads, memory, and both ways of turning fusion off.

mod common;

use common::{eval_with, patterned, rss, serial, tensor1, tensor2, with_python};
use pyo3::prelude::*;
use rxt_tf::fusion::{self, Scope};
use rxt_tf::ops::Scalar;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D};

fn seed_chain(
    x: &TensorF32Cpu2D,
    w: &TensorF32Cpu2D,
    b: &TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    let h = tf!(matmul(x, w))?;
    let a = tf!(relu(h))?;
    let y = tf!(a + b)?;
    tf!(reduce_mean(y, axis = 1))
}

/// The seed chain as an `#[inference]` function (fused by default).
#[rxt_tf::inference]
fn fused_inference(
    x: TensorF32Cpu2D,
    w: TensorF32Cpu2D,
    b: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    seed_chain(&x, &w, &b)
}

/// The same, per op.
#[rxt_tf::inference(fuse = false)]
fn per_op_inference(
    x: TensorF32Cpu2D,
    w: TensorF32Cpu2D,
    b: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu1D> {
    seed_chain(&x, &w, &b)
}

struct Inputs<'py> {
    objects: [Bound<'py, PyAny>; 3],
    x: TensorF32Cpu2D,
    w: TensorF32Cpu2D,
    b: TensorF32Cpu1D,
}

fn inputs(py: Python<'_>) -> Inputs<'_> {
    let (x_obj, x) = tensor2(
        py,
        "tf.constant(np.array([[1.5, -2.0, 0.0, -0.0, 1.0, 2.0, 3.0, -4.0], \
         [np.nan, 3.25, -np.inf, 7.0, 0.5, 0.5, 0.5, 0.5], \
         [np.inf, -1e-30, 1e30, -5.5, 1.0, 0.0, -1.0, 2.0]], dtype=np.float32))",
    );
    let (w_obj, w) = tensor2(py, "tf.random.stateless_normal([8, 4], seed=[1, 2])");
    let (b_obj, b) = tensor1(py, "tf.constant([0.5, -0.0, -1.0, 2.0])");
    Inputs {
        objects: [x_obj, w_obj, b_obj],
        x,
        w,
        b,
    }
}

fn eager_seed_chain<'py>(py: Python<'py>, i: &Inputs<'py>) -> Bound<'py, PyAny> {
    let [x, w, b] = &i.objects;
    eval_with(
        py,
        "tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)) + b, axis=1)",
        &[("x", x), ("w", w), ("b", b)],
    )
}

fn bitwise_equal(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> bool {
    eval_with(
        py,
        "a.numpy().tobytes() == b.numpy().tobytes()",
        &[("a", a), ("b", b)],
    )
    .extract()
    .unwrap_or(false)
}

/// The seed chain with an optional bias: each presence pattern its own trace.
#[rxt_tf::inference]
fn optional_bias(
    x: &TensorF32Cpu2D,
    w: &TensorF32Cpu2D,
    b: Option<&TensorF32Cpu1D>,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let h = tf!(relu(tf!(matmul(x, w))?))?;
    match b {
        Some(b) => tf!(h + b),
        None => Ok(h),
    }
}

#[test]
fn an_optional_operand_traces_each_presence_pattern() {
    let _serial = serial();
    with_python(|py| {
        let i = inputs(py);
        let [x, w, b] = &i.objects;
        let with = eval_with(
            py,
            "tf.nn.relu(tf.matmul(x, w)) + b",
            &[("x", x), ("w", w), ("b", b)],
        );
        let without = eval_with(py, "tf.nn.relu(tf.matmul(x, w))", &[("x", x), ("w", w)]);
        for round in 0..3 {
            let some = optional_bias(&i.x, &i.w, Some(&i.b)).expect("with a bias");
            let none = optional_bias(&i.x, &i.w, None).expect("without");
            let some = some.into_pyobject(py).expect("to Python");
            let none = none.into_pyobject(py).expect("to Python");
            assert!(
                bitwise_equal(py, &some, &with),
                "round {round}: with a bias"
            );
            assert!(bitwise_equal(py, &none, &without), "round {round}: without");
        }
    });
}

#[test]
fn fused_equals_per_op_bitwise_and_eager() {
    let _serial = serial();
    with_python(|py| {
        let i = inputs(py);
        let before = fusion::stats();
        let fused = common::to_python(
            py,
            "fused",
            fused_inference(
                i.x.try_clone().expect("x"),
                i.w.try_clone().expect("w"),
                i.b.try_clone().expect("b"),
            ),
        );
        let after = fusion::stats();
        assert!(
            after.builds <= before.builds + 1,
            "one trace, at most one build"
        );
        assert_eq!(after.replays, before.replays, "the fused call ran");
        let again = common::to_python(
            py,
            "fused again",
            fused_inference(
                i.x.try_clone().expect("x"),
                i.w.try_clone().expect("w"),
                i.b.try_clone().expect("b"),
            ),
        );
        assert_eq!(fusion::stats().builds, after.builds, "the trace is cached");
        assert!(bitwise_equal(py, &fused, &again));
        let per_op = common::to_python(
            py,
            "per op",
            per_op_inference(
                i.x.try_clone().expect("x"),
                i.w.try_clone().expect("w"),
                i.b.try_clone().expect("b"),
            ),
        );
        assert_eq!(
            fusion::stats().builds,
            after.builds,
            "fuse = false builds nothing"
        );
        assert!(bitwise_equal(py, &fused, &per_op), "{fused} != {per_op}");
        common::assert_matches_eager(py, "seed chain", &fused, &eager_seed_chain(py, &i));
    });
}

fn patterned_eager(x: &[f32], bits: u32, depth: u32) -> Vec<f32> {
    with_python(|py| {
        let data = TensorF32Cpu2D::from_slice(py, x, [1, x.len()]).expect("x");
        let _per_op = Scope::per_op();
        patterned(&data, bits, depth)
            .expect("per op")
            .to_vec()
            .expect("read")
    })
}

#[test]
fn each_path_is_one_trace_built_once() {
    let _serial = serial();
    with_python(|py| {
        let x = TensorF32Cpu2D::from_slice(py, &[0.25, -1.0, 2.0], [1, 3]).expect("x");
        let before = fusion::stats();
        for round in 0..5 {
            for bits in 0..4 {
                let _scope = Scope::fused();
                let fused = patterned(&x, bits, 2)
                    .expect("fused")
                    .to_vec()
                    .expect("read");
                if round == 0 {
                    assert_eq!(fused, patterned_eager(&[0.25, -1.0, 2.0], bits, 2));
                }
            }
        }
        let after = fusion::stats();
        assert_eq!(after.builds - before.builds, 4, "4 paths, each built once");
        assert_eq!(after.replays, before.replays);
    });
}

#[test]
fn the_cache_evicts_the_least_recent_and_leaves_the_context() {
    let _serial = serial();
    with_python(|py| {
        let x = TensorF32Cpu2D::from_slice(py, &[0.25, -1.0], [1, 2]).expect("x");
        let traces = fusion::TRACE_CAPACITY as u32 + 44;
        let before = fusion::stats();
        for bits in 0..traces {
            let _scope = Scope::fused();
            patterned(&x, bits, 9)
                .expect("fused")
                .to_vec()
                .expect("read");
        }
        let after = fusion::stats();
        assert_eq!(after.builds - before.builds, u64::from(traces));
        assert!(after.evictions - before.evictions >= 44, "{after:?}");
        assert!(after.cached <= fusion::TRACE_CAPACITY, "{after:?}");
        assert!(
            after.in_context <= fusion::TRACE_CAPACITY as u64,
            "{after:?}"
        );
        // The first trace was evicted: it is built again, and still right.
        let again = {
            let _scope = Scope::fused();
            patterned(&x, 0, 9).expect("fused").to_vec().expect("read")
        };
        assert_eq!(fusion::stats().builds, after.builds + 1);
        assert_eq!(again, patterned_eager(&[0.25, -1.0], 0, 9));
        // The most recent one was not.
        {
            let _scope = Scope::fused();
            patterned(&x, traces - 1, 9)
                .expect("fused")
                .to_vec()
                .expect("read");
        }
        assert_eq!(fusion::stats().builds, after.builds + 1);
    });
}

#[test]
fn an_error_mid_chain_is_the_per_op_error_naming_the_op() {
    let _serial = serial();
    with_python(|py| {
        let i = inputs(py);
        let (_, square) = tensor2(py, "tf.ones([3, 3])");
        // `good` is made before the failing op; `bad` depends on it, and
        // `later` is made after it but does not depend on it: as per op,
        // only `bad` gets the failing op's error.
        type Three = (TensorF32Cpu2D, TensorF32Cpu2D, TensorF32Cpu2D);
        let chain = |x: &TensorF32Cpu2D| -> rxt_tf::Result<Three> {
            let good = tf!(relu(x))?;
            let good = tf!(sigmoid(good))?;
            let wrong = tf!(matmul(good, i.w))?; // [3, 3] @ [8, 4]: inner sizes differ
            let bad = tf!(tanh(wrong))?;
            let later = tf!(abs(x))?;
            Ok((good, bad, later))
        };
        let before = fusion::stats();
        let (fused_good, fused_bad, fused_later) = {
            let _scope = Scope::fused();
            // Recorded without error: the shapes are checked when it runs.
            let (good, bad, later) = chain(&square).expect("recorded");
            (good.to_vec(), bad.to_vec(), later.to_vec())
        };
        assert!(fusion::stats().replays > before.replays, "replayed per op");
        let (per_op_good, per_op_later, per_op_err) = {
            let _scope = Scope::per_op();
            let good = tf!(sigmoid(tf!(relu(square)).expect("relu"))).expect("sigmoid");
            let later = tf!(abs(square)).expect("abs");
            (
                good.to_vec(),
                later.to_vec(),
                chain(&square).expect_err("matmul fails"),
            )
        };
        // Each tensor gets what the per-op path gives it.
        assert_eq!(
            fused_good.expect("good is computed"),
            per_op_good.expect("good")
        );
        let fused_err = fused_bad.expect_err("matmul fails");
        assert_eq!(fused_err, per_op_err);
        assert_eq!(
            fused_later.expect("independent of the failing op"),
            per_op_later.expect("abs")
        );
        let (class, message) = common::python_error(py, PyErr::from(fused_err));
        assert_eq!(class, "InvalidArgumentError");
        assert!(message.starts_with("rxt-tf: matmul failed: "), "{message}");
        // The scope goes on: a later op starts a new trace and runs.
        let _scope = Scope::fused();
        let fine = seed_chain(&i.x, &i.w, &i.b).expect("recorded");
        let native = common::to_python(py, "after the error", Ok(fine));
        common::assert_matches_eager(py, "after the error", &native, &eager_seed_chain(py, &i));
    });
}

#[test]
fn run_time_scalars_are_inputs_whatever_their_values() {
    let _serial = serial();
    with_python(|py| {
        let x = TensorF32Cpu2D::from_slice(py, &[1.0, -2.0], [1, 2]).expect("x");
        let run = |a: f32, b: f32| {
            let _scope = Scope::fused();
            tf!(tf!(x * Scalar(a)).expect("mul") + Scalar(b))
                .expect("add")
                .to_vec()
                .expect("read")
        };
        let before = fusion::stats();
        assert_eq!(run(2.0, 2.0), vec![4.0, -2.0]);
        assert_eq!(run(3.0, -1.0), vec![2.0, -7.0]);
        assert!(fusion::stats().builds - before.builds <= 1, "one trace");
    });
}

#[test]
fn reading_inside_a_fused_scope_runs_what_is_pending() {
    let _serial = serial();
    with_python(|py| {
        let i = inputs(py);
        let before = fusion::stats();
        let result = {
            let _scope = Scope::fused();
            let h = tf!(matmul(i.x, i.w)).expect("matmul");
            let builds = fusion::stats().builds;
            assert_eq!(format!("{h:?}"), "TensorF32Cpu2D { pending: true }");
            assert_eq!(fusion::stats().builds, builds, "Debug runs nothing");
            let shape = h.shape().expect("shape"); // runs the first trace
            assert_eq!(format!("{h:?}"), "TensorF32Cpu2D { shape: Ok([3, 4]) }");
            assert_eq!(shape, vec![3, 4]);
            let a = tf!(relu(h)).expect("relu"); // h is computed: an input now
            let y = tf!(a + i.b).expect("add");
            let host = y.to_vec().expect("read"); // runs the second trace
            assert_eq!(host.len(), 12);
            tf!(reduce_mean(y, axis = 1)).expect("mean")
        };
        let native = common::to_python(py, "read inside", Ok(result)); // the third
        assert!(fusion::stats().builds - before.builds <= 3);
        common::assert_matches_eager(py, "read inside", &native, &eager_seed_chain(py, &i));
    });
}

#[test]
fn pending_tensors_cross_threads_and_threads_fuse_concurrently() {
    let _serial = serial();
    let (x, w, b, expected) = with_python(|py| {
        let i = inputs(py);
        let expected = {
            let _per_op = Scope::per_op();
            seed_chain(&i.x, &i.w, &i.b)
                .expect("per op")
                .to_vec()
                .expect("read")
        };
        (i.x, i.w, i.b, expected)
    });
    std::thread::scope(|scope| {
        // Two threads fill the cache with new traces (evicting, and removing
        // TensorFlow's call wrappers) while four others call.
        for offset in [0, 1] {
            let x = &x;
            scope.spawn(move || {
                for bits in (offset..fusion::TRACE_CAPACITY as u32 * 2).step_by(2) {
                    let _scope = Scope::fused();
                    let out = patterned(x, bits + 1000, 11).expect("fused");
                    assert_eq!(out.to_vec().expect("read").len(), 24);
                }
            });
        }
        let workers: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..500 {
                        let _scope = Scope::fused();
                        let got = seed_chain(&x, &w, &b)
                            .expect("fused")
                            .to_vec()
                            .expect("read");
                        assert_eq!(got.len(), expected.len());
                        for (g, e) in got.iter().zip(&expected) {
                            assert!(
                                g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()),
                                "{got:?} != {expected:?}"
                            );
                        }
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().expect("a thread panicked");
        }
    });
    // A pending tensor made on one thread is computed on another.
    let pending = {
        let _scope = Scope::fused();
        seed_chain(&x, &w, &b).expect("fused")
    };
    let read = std::thread::spawn(move || pending.to_vec().expect("read"))
        .join()
        .expect("the reading thread panicked");
    assert_eq!(read.len(), expected.len());
}

#[test]
fn many_calls_over_many_traces_stay_bounded() {
    let _serial = serial();
    with_python(|py| {
        let x = TensorF32Cpu2D::from_slice(py, &[0.5, -0.5, 1.5], [1, 3]).expect("x");
        let call = |bits: u32| {
            let _scope = Scope::fused();
            let out = patterned(&x, bits, 10).expect("fused");
            assert_eq!(out.to_vec().expect("read").len(), 3);
        };
        // Fill the cache first: its 256 functions and their kernels are the
        // bounded steady state (about 80 KiB per 11-op trace here).
        let empty = rss();
        for bits in 0..1000 {
            call(bits);
        }
        let filled = rss().saturating_sub(empty);
        let before = rss();
        let start = fusion::stats();
        // 40,000 calls over 1,000 traces: 4 rounds of 1,000 traces × 10
        // calls, so every round rebuilds what the 256-entry cache evicted
        // (`fused_pressure.rs` bounds the heap per build more tightly).
        for _round in 0..4 {
            for bits in 0..1000 {
                for _ in 0..10 {
                    call(bits);
                }
            }
        }
        let grown = rss().saturating_sub(before);
        let end = fusion::stats();
        assert!(end.cached <= fusion::TRACE_CAPACITY);
        assert!(end.in_context <= fusion::TRACE_CAPACITY as u64, "{end:?}");
        assert!(end.builds - start.builds >= 4_000 - 256, "{end:?}");
        eprintln!(
            "filling the cache: +{} KiB; then 40,000 calls and {} builds: +{} KiB",
            filled >> 10,
            end.builds - start.builds,
            grown >> 10
        );
        assert!(filled < 48 << 20, "a full cache took {filled} bytes");
        assert!(grown < 20 << 20, "RSS grew by {grown} bytes");
    });
}

#[test]
fn an_asynchronous_executor_is_refused_when_the_trace_runs() {
    let _serial = serial();
    with_python(|py| {
        let t = TensorF32Cpu2D::from_slice(py, &[1.0, -1.0], [1, 2]).expect("t");
        let refused = common::in_async_scope(py, || {
            let _fused = Scope::fused();
            tf!(relu(t)).expect("recorded").to_vec()
        });
        assert_eq!(
            refused.expect_err("asynchronous"),
            rxt_tf::Error::AsyncContext
        );
    });
}

#[test]
fn the_environment_variable_turns_fusion_off() {
    if std::env::var_os("RXT_TF_FUSE").is_some() {
        // The child: fusion is off, so a fused scope builds nothing.
        assert!(!fusion::enabled());
        with_python(|py| {
            let i = inputs(py);
            let before = fusion::stats();
            let native = common::to_python(
                py,
                "env",
                fused_inference(
                    i.x.try_clone().expect("x"),
                    i.w.try_clone().expect("w"),
                    i.b.try_clone().expect("b"),
                ),
            );
            assert_eq!(fusion::stats().builds, before.builds);
            common::assert_matches_eager(py, "env", &native, &eager_seed_chain(py, &i));
        });
        return;
    }
    assert!(fusion::enabled());
    let status = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "the_environment_variable_turns_fusion_off",
            "--nocapture",
        ])
        .env("RXT_TF_FUSE", "0")
        .status()
        .expect("run the test binary");
    assert!(status.success(), "the child run with RXT_TF_FUSE=0 failed");
}

#[test]
fn a_long_loop_in_one_scope_runs_in_bounded_traces() {
    let _serial = serial();
    with_python(|py| {
        let x = TensorF32Cpu2D::from_slice(py, &[0.5, -2.0, 3.0], [1, 3]).expect("x");
        let run = |x: &TensorF32Cpu2D| -> rxt_tf::Result<Vec<f32>> {
            let mut h = tf!(tanh(x))?;
            for _ in 0..1000 {
                h = tf!(h * 1.5)?;
                // Results nobody reads are never computed.
                let _unused = tf!(sigmoid(h))?;
                h = tf!(tanh(h))?;
            }
            h.to_vec()
        };
        let per_op = {
            let _scope = Scope::per_op();
            run(&x).expect("per op")
        };
        let before = fusion::stats();
        let fused = {
            let _scope = Scope::fused();
            run(&x).expect("fused")
        };
        let built = fusion::stats().builds - before.builds;
        assert!(
            built <= 4,
            "3,001 ops run as a few cached traces, built {built}"
        );
        assert_eq!(fused, per_op);
    });
}

/// Run-time sizes are inputs of a fused call, not part of its trace: the
/// same reshape on a new batch size reuses the built function.
#[test]
fn run_time_sizes_do_not_build_new_traces() {
    let _serial = serial();
    with_python(|py| {
        let mut builds = Vec::new();
        for batch in [2_usize, 3, 5, 2] {
            let (_, x) = common::tensor2(
                py,
                &format!("tf.reshape(tf.range({batch} * 6.0), ({batch}, 6))"),
            );
            let scope = fusion::Scope::fused();
            let heads = tf!(reshape(x, [batch, 2, 3])).expect("recorded");
            let back =
                tf!(reshape(tf!(exp(heads)).expect("recorded"), [batch, -1])).expect("recorded");
            let values = back.to_vec().expect("runs");
            drop(scope);
            let eager: Vec<f32> = common::eval(
                py,
                &format!("tf.exp(tf.range({batch} * 6.0)).numpy().tolist()"),
            )
            .extract()
            .expect("floats");
            assert_eq!(values, eager, "batch {batch}");
            builds.push(fusion::stats().builds);
        }
        // Built for the first batch size, reused for the others.
        assert!(
            builds.windows(2).all(|pair| pair[1] == pair[0]),
            "one build for every batch size: {builds:?}"
        );
    });
}

#[test]
fn a_clone_of_a_pending_result_shares_its_value() {
    // What generated code does for `y = x` of a tensor: clone it.
    let _serial = serial();
    with_python(|py| {
        let x = TensorF32Cpu2D::from_slice(py, &[0.25, -1.0, 2.0], [1, 3]).expect("x");
        let (pending, copy) = {
            let _scope = Scope::fused();
            let rectified = tf!(relu(x)).expect("recorded");
            let pending = tf!(rectified * 2.0).expect("recorded");
            let copy = pending.clone();
            (pending, copy)
        };
        let once = copy.to_vec().expect("the clone runs the fused call");
        drop(copy);
        assert_eq!(pending.to_vec().expect("the original sees it"), once);
        assert_eq!(once, vec![0.5, 0.0, 4.0]);
        let alias = x.clone();
        drop(x);
        assert_eq!(
            alias.to_vec().expect("still the input"),
            vec![0.25, -1.0, 2.0]
        );
    });
}

/// The body the template test runs: `relu(x + y) * 2`, read.
fn sum_relu_doubled(x: &TensorF32Cpu2D, y: &TensorF32Cpu2D, fuse: bool) -> Vec<f32> {
    let _scope = Scope::new(fuse);
    let doubled = tf!(relu(tf!(x + y).expect("add")))
        .and_then(|r| tf!(r * 2))
        .expect("relu, mul");
    doubled.to_vec().expect("read")
}

#[test]
fn a_trace_run_again_is_followed_and_what_differs_is_recorded() {
    let _serial = serial();
    with_python(|py| {
        let tensor = |values: &[f32], shape: [usize; 2]| {
            TensorF32Cpu2D::from_slice(py, values, shape).expect("tensor")
        };
        let a = tensor(&[1.0, -2.0, 3.0, 4.0, 5.0, -6.0], [2, 3]);
        let b = tensor(&[0.5, 0.5, 0.5, -9.0, 1.0, 1.0], [2, 3]);
        let tall = tensor(&[1.0, -2.0, 3.0, 4.0, 5.0, -6.0], [3, 2]);
        let followed = || fusion::stats().followed;
        let check = |x: &TensorF32Cpu2D, y: &TensorF32Cpu2D, follows: bool, what: &str| {
            let before = followed();
            let fused = sum_relu_doubled(x, y, true);
            assert_eq!(fused, sum_relu_doubled(x, y, false), "{what}");
            assert_eq!(followed() - before, u64::from(follows), "{what}: followed");
        };
        // The first run builds the trace, the second finds it cached and
        // keeps it as a template, the third follows it.
        check(&a, &b, false, "first");
        check(&a, &b, false, "cached");
        check(&a, &b, true, "followed");
        // New tensors of the same shapes follow it too; their values count.
        let c = tensor(&[-1.0, 2.0, -3.0, 0.0, 0.0, 7.0], [2, 3]);
        check(&c, &b, true, "new tensors");
        // One tensor twice where the template had two: another trace (its
        // one input), recorded, kept, then followed.
        check(&a, &a, false, "one tensor twice");
        check(&a, &a, false, "one tensor twice, cached");
        check(&a, &a, true, "one tensor twice, followed");
        // Two tensors where the newest template had one twice: the other
        // template.
        check(&b, &c, true, "two tensors again");
        // Another shape: recorded, not followed.
        check(&tall, &tall, false, "another shape");
        // A body that stops early holds other outputs: recorded.
        let before = followed();
        let sum = {
            let _scope = Scope::fused();
            tf!(a + b).expect("add").to_vec().expect("read")
        };
        assert_eq!(sum, vec![1.5, -1.5, 3.5, -5.0, 6.0, -5.0]);
        assert_eq!(followed(), before, "a prefix is not followed to its end");
    });
}
