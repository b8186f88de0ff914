//! Fused traces through the litert backend: `tf!` bodies recorded in a
//! litert scope (or an `#[inference(backend = "litert")]` function) are
//! converted once, compiled per input shape (at most
//! `COMPILED_CAPACITY` kept), run through LiteRT within its tolerance of
//! eager TensorFlow, and fall back to TensorFlow (bitwise, counted) where
//! they do not convert.

mod common;

use common::{eval_with, named_inputs, names, serial, with_python, within_litert_tolerance};
use pyo3::prelude::*;
use rxt_tf::fusion::{stats, Scope};
use rxt_tf::{tf, Tensor, TensorF32Cpu1D, TensorF32Cpu2D};

/// A dense layer's inputs: `x` at batch 1 and 3, weights and bias.
const DENSE: &str = "
x1 = tf.reshape(tf.sin(tf.range(8.0) * 0.7), (1, 8))
x3 = tf.reshape(tf.cos(tf.range(24.0) * 0.3) * 2.0, (3, 8))
w = tf.reshape(tf.sin(tf.range(40.0) * 1.3) * 0.5, (8, 5))
b = tf.constant([0.1, -0.2, 0.3, -0.4, 0.5])
";

/// The tiny two-op body of the benchmarks: `relu(x @ w + b)`.
fn dense(
    x: &TensorF32Cpu2D,
    w: &TensorF32Cpu2D,
    b: &TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let y = tf!(matmul(x, w))?;
    let z = tf!(y + b)?;
    tf!(relu(z))
}

/// The same body as an `#[inference]` function on the litert backend.
#[rxt_tf::inference(backend = "litert")]
fn dense_litert(
    x: &TensorF32Cpu2D,
    w: &TensorF32Cpu2D,
    b: &TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    dense(x, w, b)
}

#[test]
fn a_fused_trace_runs_through_litert_once_compiled_per_shape() {
    let _serial = serial();
    with_python(|py| {
        let i = named_inputs(py, DENSE);
        let get =
            |name: &str| -> &Bound<'_, PyAny> { &i.iter().find(|(n, _)| n == name).expect(name).1 };
        let x1: TensorF32Cpu2D = get("x1").extract().expect("x1");
        let x3: TensorF32Cpu2D = get("x3").extract().expect("x3");
        let w: TensorF32Cpu2D = get("w").extract().expect("w");
        let b: TensorF32Cpu1D = get("b").extract().expect("b");
        let names = names(&i);
        let before = stats();
        let (y1, y3, again) = {
            let _litert = Scope::litert();
            let y1 = dense(&x1, &w, &b).expect("batch 1");
            // Reading a result runs the trace recorded so far.
            let _ = y1.to_vec().expect("read");
            let y3 = dense(&x3, &w, &b).expect("batch 3");
            let _ = y3.to_vec().expect("read");
            let again = dense(&x1, &w, &b).expect("batch 1 again");
            (y1, y3, again)
        };
        let after = stats();
        assert_eq!(after.litert_calls - before.litert_calls, 3, "{after:?}");
        // `w` and `b` are frozen into the model from the first call (the
        // trace's first in the process) or the second: one compile per
        // batch size, and one of the first call's where it ran the model
        // of no frozen input.
        let compiles = after.litert_compiles - before.litert_compiles;
        assert!((2..=3).contains(&compiles), "{compiles}");
        let conversions = after.litert_conversions - before.litert_conversions;
        assert!(conversions <= 2, "{conversions}");
        assert_eq!(after.litert_fallbacks, before.litert_fallbacks);
        for (y, x) in [(&y1, "x1"), (&y3, "x3"), (&again, "x1")] {
            let eager = eval_with(py, &format!("tf.nn.relu(tf.matmul({x}, w) + b)"), &names);
            assert!(within_litert_tolerance(py, y, &eager), "{x}");
        }
        // The attribute opens the same scope: the same compiled model.
        let through_attribute = dense_litert(&x1, &w, &b).expect("attribute");
        assert_eq!(
            through_attribute.to_vec().expect("c"),
            again.to_vec().expect("b")
        );
        let end = stats();
        assert_eq!(end.litert_calls - after.litert_calls, 1);
        assert_eq!(end.litert_compiles, after.litert_compiles);
        // `bias_add` of a bias known to fit runs through LiteRT too.
        let biased = {
            let _litert = Scope::litert();
            let y = tf!(matmul(x3, w)).expect("matmul");
            tf!(bias_add(y, b)).expect("bias_add")
        };
        let eager = eval_with(py, "tf.nn.bias_add(tf.matmul(x3, w), b)", &names);
        assert!(within_litert_tolerance(py, &biased, &eager));
        assert_eq!(stats().litert_calls - end.litert_calls, 1, "{:?}", stats());
        let end = stats();
        // Outside the scope: TensorFlow's fused call, as before.
        let outside = dense(&x1, &w, &b).expect("outside");
        let _ = outside.to_vec().expect("read");
        assert_eq!(stats().litert_calls, end.litert_calls);
    });
}

/// A new tensor of `tensor`'s value (another handle: not "the same").
fn fresh2(py: Python<'_>, tensor: &TensorF32Cpu2D) -> TensorF32Cpu2D {
    let shape = tensor.shape().expect("shape");
    let shape = [shape[0] as usize, shape[1] as usize];
    Tensor::from_slice(py, &tensor.to_vec().expect("values"), shape).expect("fresh")
}

/// [`fresh2`] of a vector.
fn fresh1(py: Python<'_>, tensor: &TensorF32Cpu1D) -> TensorF32Cpu1D {
    let shape = [tensor.shape().expect("shape")[0] as usize];
    Tensor::from_slice(py, &tensor.to_vec().expect("values"), shape).expect("fresh")
}

#[test]
fn compiled_shapes_are_bounded_least_recently_used_first() {
    let _serial = serial();
    with_python(|py| {
        let w: TensorF32Cpu2D = common::eval(py, "tf.ones((4, 2))").extract().expect("w");
        let b: TensorF32Cpu1D = common::eval(py, "tf.constant([0.5, -0.5])")
            .extract()
            .expect("b");
        let batches: Vec<TensorF32Cpu2D> = (1..=rxt_tf::__private::litert::COMPILED_CAPACITY + 1)
            .map(|batch| {
                common::eval(py, &format!("tf.ones(({batch}, 4)) * {batch}.0"))
                    .extract()
                    .expect("x")
            })
            .collect();
        // New tensors of the weights each call: nothing is frozen, so every
        // call uses the one model's compiled models. The body is this
        // test's alone, so its first call is the trace's first in the
        // process wherever the test runs.
        let run = |x: &TensorF32Cpu2D| {
            let (w, b) = (fresh2(py, &w), fresh1(py, &b));
            let _litert = Scope::litert();
            let y = tf!(matmul(x, w)).expect("matmul");
            let z = tf!(y + b).expect("add");
            let y = tf!(elu(z)).expect("elu");
            y.to_vec().expect("read")
        };
        // The trace's first call freezes its weights into a model of its
        // own (and compiles it): made before counting, on a batch size no
        // later call has.
        let warm_up = rxt_tf::__private::litert::COMPILED_CAPACITY + 2;
        run(&common::eval(py, &format!("tf.ones(({warm_up}, 4))"))
            .extract()
            .expect("warm-up x"));
        let start = stats();
        for x in &batches[..rxt_tf::__private::litert::COMPILED_CAPACITY] {
            run(x);
        }
        // All kept: each again compiles nothing.
        let filled = stats();
        for x in &batches[..rxt_tf::__private::litert::COMPILED_CAPACITY] {
            run(x);
        }
        assert_eq!(stats().litert_compiles, filled.litert_compiles);
        assert_eq!(
            filled.litert_compiles - start.litert_compiles,
            rxt_tf::__private::litert::COMPILED_CAPACITY as u64
        );
        // One more shape evicts the least recently used (batch 1), which
        // compiles again; the most recent (batch 8) stays.
        let last = batches.last().expect("last");
        let values = run(last);
        let batch = rxt_tf::__private::litert::COMPILED_CAPACITY + 1;
        assert_eq!(
            values,
            [4.0 * batch as f32 + 0.5, 4.0 * batch as f32 - 0.5].repeat(batch)
        );
        let evicting = stats().litert_compiles;
        run(&batches[rxt_tf::__private::litert::COMPILED_CAPACITY - 1]);
        assert_eq!(stats().litert_compiles, evicting, "batch 8 was kept");
        run(&batches[0]);
        assert_eq!(stats().litert_compiles, evicting + 1, "batch 1 was evicted");
    });
}

#[test]
fn traces_that_do_not_convert_fall_back_to_tensorflow_bitwise() {
    let _serial = serial();
    with_python(|py| {
        let x: Tensor<f64, 1> = common::eval(py, "tf.constant([0.5, -1.25, 3.0], tf.float64)")
            .extract()
            .expect("x");
        let fused = {
            let _fused = Scope::fused();
            let d = tf!(x * 2.0).expect("fused");
            let y = tf!(tanh(d)).expect("fused");
            y.to_vec().expect("read")
        };
        let before = stats();
        let litert = {
            let _litert = Scope::litert();
            let d = tf!(x * 2.0).expect("litert");
            let y = tf!(tanh(d)).expect("litert");
            y.to_vec().expect("read")
        };
        let after = stats();
        assert_eq!(after.litert_fallbacks - before.litert_fallbacks, 1);
        assert_eq!(after.litert_calls, before.litert_calls);
        assert_eq!(
            fused.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            litert.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        // A failing op in a trace that falls back fails as per op.
        let m: TensorF32Cpu2D = common::eval(py, "tf.ones((2, 3))").extract().expect("m");
        let _litert = Scope::litert();
        let bad = tf!(matmul(m, m)).expect("recorded");
        let message = bad.to_vec().expect_err("shapes").to_string();
        assert!(message.contains("matmul"), "{message}");
    });
}

#[test]
fn litert_traces_run_on_four_threads() {
    let _serial = serial();
    with_python(|py| {
        let i = named_inputs(py, DENSE);
        let get =
            |name: &str| -> &Bound<'_, PyAny> { &i.iter().find(|(n, _)| n == name).expect(name).1 };
        let x3: TensorF32Cpu2D = get("x3").extract().expect("x3");
        let w: TensorF32Cpu2D = get("w").extract().expect("w");
        let b: TensorF32Cpu1D = get("b").extract().expect("b");
        // The second call runs the model with `w` and `b` frozen (if the
        // first did not), which every later call runs.
        let _ = dense_litert(&x3, &w, &b).expect("first").to_vec();
        let expected = dense_litert(&x3, &w, &b)
            .expect("second")
            .to_vec()
            .expect("read");
        let before = stats();
        py.detach(|| {
            std::thread::scope(|scope| {
                for _ in 0..4 {
                    scope.spawn(|| {
                        for _ in 0..1_000 {
                            let y = dense_litert(&x3, &w, &b).expect("call");
                            assert_eq!(y.to_vec().expect("read"), expected);
                        }
                    });
                }
            });
        });
        let after = stats();
        assert_eq!(after.litert_calls - before.litert_calls, 4_000);
        assert_eq!(after.litert_fallbacks, before.litert_fallbacks);
        // At most one compiled model per thread was made for the shape.
        assert!(after.litert_compiles - before.litert_compiles <= 4);
    });
}

#[test]
fn a_body_that_falls_back_warns_once_with_its_name_and_keeps_the_reason() {
    let _serial = serial();
    with_python(|py| {
        let x: Tensor<f64, 1> = common::eval(py, "tf.constant([0.5, -1.25], tf.float64)")
            .extract()
            .expect("x");
        let body = "`litert_fused::a_body_that_falls_back`";
        let recorded = common::eval(py, "__import__('warnings').catch_warnings(record=True)");
        let caught = recorded.call_method0("__enter__").expect("enter");
        py.import("warnings")
            .and_then(|w| w.call_method1("simplefilter", ("always",)))
            .expect("always");
        for _ in 0..2 {
            let _litert = Scope::litert_for(body);
            tf!(x * 2.0).expect("litert").to_vec().expect("read");
        }
        recorded
            .call_method1("__exit__", (py.None(), py.None(), py.None()))
            .expect("exit");
        let class = rxt_tf::fusion::litert_fallback_warning(py).expect("class");
        let ours: Vec<String> = caught
            .try_iter()
            .expect("list")
            .map(|w| w.expect("warning"))
            .filter(|w| w.getattr("category").is_ok_and(|c| c.is(&class)))
            .map(|w| w.getattr("message").expect("message").to_string())
            .collect();
        assert_eq!(ours.len(), 1, "once per body: {ours:?}");
        assert!(
            ours[0].contains(body) && ours[0].contains("float64"),
            "{}",
            ours[0]
        );
        let reasons = rxt_tf::fusion::litert_fallback_reasons();
        let kept = reasons.iter().find(|(name, _)| name == body).expect("kept");
        assert!(kept.1.contains("runs no float64 tensors"), "{}", kept.1);
    });
}

#[test]
fn tensors_that_do_not_change_are_frozen_and_a_new_one_is_never_stale() {
    let _serial = serial();
    with_python(|py| {
        let i = named_inputs(py, DENSE);
        let get =
            |name: &str| -> &Bound<'_, PyAny> { &i.iter().find(|(n, _)| n == name).expect(name).1 };
        let names = names(&i);
        let x1: TensorF32Cpu2D = get("x1").extract().expect("x1");
        // Weights held across calls (as a `#[pyclass]` holds them).
        let w: TensorF32Cpu2D = get("w").extract().expect("w");
        let b: TensorF32Cpu1D = get("b").extract().expect("b");
        let call = |x: &TensorF32Cpu2D, w: &TensorF32Cpu2D, b: &TensorF32Cpu1D| {
            let y = dense_litert(x, w, b).expect("dense");
            let _ = y.to_vec().expect("read");
            y
        };
        let start = stats();
        // `w` and `b` are frozen from the first call (the trace's first in
        // the process: all inputs but the first) or from the second, which
        // sees the same tensors again; then their model is reused.
        call(&x1, &w, &b);
        call(&fresh2(py, &x1), &w, &b);
        let second = stats();
        let conversions = second.litert_conversions - start.litert_conversions;
        assert!((1..=2).contains(&conversions), "{conversions}");
        for _ in 0..3 {
            let y = call(&fresh2(py, &x1), &w, &b);
            let eager = eval_with(py, "tf.nn.relu(tf.matmul(x1, w) + b)", &names);
            assert!(within_litert_tolerance(py, &y, &eager));
        }
        let steady = stats();
        assert_eq!(steady.litert_conversions, second.litert_conversions);
        assert_eq!(steady.litert_compiles, second.litert_compiles);
        assert_eq!(steady.litert_fallbacks, start.litert_fallbacks);
        // A new weight tensor (other values) in its place: never the frozen
        // model's answer. `b` stayed, so the call freezes every input but
        // the first again, `w2` included: one conversion.
        let w2_py = common::eval(py, "tf.ones((8, 5)) * -0.25");
        let w2: TensorF32Cpu2D = w2_py.extract().expect("w2");
        let names2: Vec<(&str, &Bound<'_, PyAny>)> =
            names.iter().copied().chain([("w2", &w2_py)]).collect();
        let eager2 = eval_with(py, "tf.nn.relu(tf.matmul(x1, w2) + b)", &names2);
        for _ in 0..3 {
            let y = call(&x1, &w2, &b);
            assert!(within_litert_tolerance(py, &y, &eager2));
        }
        let swapped = stats();
        assert_eq!(swapped.litert_conversions - steady.litert_conversions, 1);
        // Back to the first weights: their frozen model is still kept.
        let y = call(&x1, &w, &b);
        let eager = eval_with(py, "tf.nn.relu(tf.matmul(x1, w) + b)", &names);
        assert!(within_litert_tolerance(py, &y, &eager));
        assert_eq!(stats().litert_conversions, swapped.litert_conversions);
    });
}
