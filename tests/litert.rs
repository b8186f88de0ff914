//! The litert backend's foundation against eager TensorFlow: LiteRT
//! (`ai-edge-litert` 2.3.0's `libLiteRt.so`) found in Python's environment
//! and loaded, a Keras model's function converted by TensorFlow's TFLite
//! converter, compiled for the CPU at two batch sizes and run on the
//! TensorFlow tensors' own buffers, compared with eager within the
//! backend's tolerance (relative 1e-5, absolute 1e-6 at the values' scale:
//! LiteRT's kernels are not TensorFlow's, so results are not bitwise).
//! A missing or mismatched package is a clear error naming it.

mod common;

use common::{eval_with, named_inputs, names, with_python, within_litert_tolerance};
use pyo3::prelude::*;
use rxt_tf::__private::litert;
use rxt_tf::TensorF32Cpu2D;

/// A Keras MLP (16 → 32 → 32 → 4) and its function with a free batch size.
const INPUTS: &str = "
import keras
mlp = keras.Sequential([keras.Input((16,)), keras.layers.Dense(32, activation='relu'), keras.layers.Dense(32, activation='relu'), keras.layers.Dense(4)])
function = tf.function(lambda x: mlp(x, training=False)).get_concrete_function(tf.TensorSpec([None, 16], tf.float32))
x1 = tf.reshape(tf.sin(tf.range(16.0) * 0.7), (1, 16))
x32 = tf.reshape(tf.cos(tf.range(32.0 * 16) * 0.3) * 2.0, (32, 16))
";

#[test]
fn a_converted_keras_model_runs_on_tensorflow_tensors() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let get = |name: &str| &i.iter().find(|(n, _)| n == name).expect(name).1;
        let model = litert::convert(get("function")).expect("convert");
        assert_eq!(model.arity(), (1, 1));
        for (name, batch) in [("x1", 1), ("x32", 32)] {
            let x: TensorF32Cpu2D = get(name).extract().expect("x");
            let mut compiled = model.compile(&[vec![batch, 16]], 1).expect("compile");
            assert_eq!(compiled.output_shapes(), &[vec![batch, 4]]);
            let outputs: Vec<TensorF32Cpu2D> = litert::run(&mut compiled, &[&x]).expect("run");
            assert_eq!(outputs.len(), 1);
            let eager = eval_with(py, &format!("mlp({name}, training=False)"), &names(&i));
            // Repeated calls reuse the compiled model and give the same result.
            let again: Vec<TensorF32Cpu2D> = litert::run(&mut compiled, &[&x]).expect("again");
            assert!(
                within_litert_tolerance(py, &outputs[0], &eager),
                "batch {batch}"
            );
            assert_eq!(
                outputs[0].to_vec().expect("a"),
                again[0].to_vec().expect("b")
            );
        }
        // Compiled for batch 1, given batch 32: refused before LiteRT runs
        // (it would resize to the buffer and write past the output).
        let x32: TensorF32Cpu2D = get("x32").extract().expect("x32");
        let mut one = model.compile(&[vec![1, 16]], 2).expect("compile");
        let wrong = litert::run::<f32, 2, 2>(&mut one, &[&x32]).map(|_| ());
        let message = wrong.expect_err("wrong batch").to_string();
        assert_eq!(
            message,
            "rxt-tf: function call: input 0: the LiteRT model was compiled for the shape \
             [1, 16], got [32, 16]"
        );
    });
}

#[test]
fn a_missing_or_mismatched_package_names_what_to_install() {
    with_python(|_py| {
        let missing = litert::locate("ai-edge-litert-absent", "ai_edge_litert_absent", "2.3.0");
        let message = missing.expect_err("absent").to_string();
        assert_eq!(
            message,
            "rxt-tf: the litert backend is unavailable: the Python package \
             ai-edge-litert-absent is not installed; install it with \
             `pip install ai-edge-litert-absent==2.3.0`"
        );
        let other = litert::locate("ai-edge-litert", "ai_edge_litert", "9.9.9");
        let message = other.expect_err("version").to_string();
        assert!(
            message.contains("ai-edge-litert 2.3.0 is installed; rxt-tf needs 9.9.9"),
            "{message}"
        );
        assert!(litert::locate("ai-edge-litert", "ai_edge_litert", litert::LITERT_VERSION).is_ok());
        litert::ensure_loaded().expect("LiteRT loads");
    });
}

#[test]
fn compiled_models_run_on_threads_one_each() {
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let get = |name: &str| &i.iter().find(|(n, _)| n == name).expect(name).1;
        let model = litert::convert(get("function")).expect("convert");
        let x: TensorF32Cpu2D = get("x32").extract().expect("x32");
        let mut compiled = model.compile(&[vec![32, 16]], 1).expect("compile");
        let first: Vec<TensorF32Cpu2D> = litert::run(&mut compiled, &[&x]).expect("run");
        let expected = first[0].to_vec().expect("read");
        // Four threads, each with its own compiled model (LiteRT's are not
        // thread-safe), the GIL released: every call gives the same values.
        py.detach(|| {
            std::thread::scope(|scope| {
                for _ in 0..4 {
                    scope.spawn(|| {
                        let mut own = model.compile(&[vec![32, 16]], 1).expect("compile");
                        for _ in 0..200 {
                            let out: Vec<TensorF32Cpu2D> =
                                litert::run(&mut own, &[&x]).expect("run");
                            assert_eq!(out[0].to_vec().expect("read"), expected);
                        }
                    });
                }
            });
        });
    });
}

/// Functions with a dtype the backend does not run, for the fallback.
const DOUBLES: &str = "
doubled = tf.function(lambda v: v * 2.0).get_concrete_function(tf.TensorSpec([None], tf.float64))
v = tf.constant([0.5, -1.25, 3.0], tf.float64)
";

/// Functions of two inputs and two outputs, one returning its input, and
/// one converted by two threads at once.
const SHAPES: &str = "
two = tf.function(lambda a, b: (a - b, tf.reduce_sum(a * b, axis=1))).get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([None, 3]))
same = tf.function(lambda a: a).get_concrete_function(tf.TensorSpec([2, 3]))
raced = tf.function(lambda a: tf.nn.relu(a) * 3.0).get_concrete_function(tf.TensorSpec([2, 3]))
a = tf.constant([[1.0, -2.0, 3.5], [0.25, 4.0, -1.0]])
b = tf.constant([[0.5, 0.5, -2.0], [1.0, -3.0, 2.0]])
";

#[test]
fn function_calls_in_a_litert_scope_run_through_litert_or_fall_back() {
    // The counters are the process's: no other litert call meanwhile.
    let _serial = common::serial();
    with_python(|py| {
        let i = named_inputs(py, INPUTS);
        let get = |name: &str| &i.iter().find(|(n, _)| n == name).expect(name).1;
        let function: rxt_tf::Function = get("function").extract().expect("function");
        let x1: TensorF32Cpu2D = get("x1").extract().expect("x1");
        let x32: TensorF32Cpu2D = get("x32").extract().expect("x32");
        let before = rxt_tf::fusion::stats();
        let (y1, y32, again): (TensorF32Cpu2D, TensorF32Cpu2D, TensorF32Cpu2D) = {
            let _litert = rxt_tf::fusion::Scope::litert();
            let y1 = function.call((&x1,)).expect("batch 1");
            let y32 = function.call((&x32,)).expect("batch 32");
            let again = function.call((&x1,)).expect("batch 1 again");
            (y1, y32, again)
        };
        let after = rxt_tf::fusion::stats();
        assert_eq!(after.litert_calls - before.litert_calls, 3);
        assert_eq!(
            after.litert_compiles - before.litert_compiles,
            2,
            "one per batch size"
        );
        assert_eq!(after.litert_fallbacks, before.litert_fallbacks);
        let names = names(&i);
        assert!(within_litert_tolerance(
            py,
            &y1,
            &eval_with(py, "mlp(x1, training=False)", &names)
        ));
        assert!(within_litert_tolerance(
            py,
            &y32,
            &eval_with(py, "mlp(x32, training=False)", &names)
        ));
        assert_eq!(y1.to_vec().expect("a"), again.to_vec().expect("b"));
        // Outside the scope: TensorFlow, as before.
        let outside: TensorF32Cpu2D = function.call((&x1,)).expect("outside");
        assert_eq!(rxt_tf::fusion::stats().litert_calls, after.litert_calls);
        assert!(within_litert_tolerance(
            py,
            &outside,
            &eval_with(py, "mlp(x1, training=False)", &names)
        ));

        // float64: not a type the backend runs: TensorFlow runs it, counted.
        let d = named_inputs(py, DOUBLES);
        let doubled: rxt_tf::Function = d[0].1.extract().expect("doubled");
        let v: rxt_tf::Tensor<f64, 1> = d[1].1.extract().expect("v");
        let _litert = rxt_tf::fusion::Scope::litert();
        let twice: rxt_tf::Tensor<f64, 1> = doubled.call((&v,)).expect("fallback");
        assert_eq!(twice.to_vec().expect("read"), vec![1.0, -2.5, 6.0]);
        let fell = rxt_tf::fusion::stats();
        assert_eq!(fell.litert_fallbacks - after.litert_fallbacks, 1);
    });
}

#[test]
fn inputs_keep_their_order_and_unwritable_outputs_fall_back() {
    let _serial = common::serial();
    with_python(|py| {
        let i = named_inputs(py, SHAPES);
        let get = |name: &str| &i.iter().find(|(n, _)| n == name).expect(name).1;
        let two: rxt_tf::Function = get("two").extract().expect("two");
        let same: rxt_tf::Function = get("same").extract().expect("same");
        let raced: rxt_tf::Function = get("raced").extract().expect("raced");
        let a: TensorF32Cpu2D = get("a").extract().expect("a");
        let b: TensorF32Cpu2D = get("b").extract().expect("b");
        let names = names(&i);
        let _litert = rxt_tf::fusion::Scope::litert();
        // Two inputs in order (a − b, not b − a) and two outputs.
        let (diff, dot): (TensorF32Cpu2D, rxt_tf::TensorF32Cpu1D) =
            two.call((&a, &b)).expect("two");
        assert!(within_litert_tolerance(
            py,
            &diff,
            &eval_with(py, "a - b", &names)
        ));
        let dot = dot.into_pyobject(py).expect("py");
        let eager = eval_with(py, "tf.reduce_sum(a * b, axis=1)", &names);
        let equal: bool = eval_with(
            py,
            "bool(np.allclose(n.numpy(), e.numpy(), rtol=1e-5, atol=1e-6))",
            &[("n", &dot), ("e", &eager)],
        )
        .extract()
        .expect("bool");
        assert!(equal, "{dot}");
        // An identity: LiteRT would not write the output: TensorFlow runs it.
        let before = rxt_tf::fusion::stats().litert_fallbacks;
        let back: TensorF32Cpu2D = same.call((&a,)).expect("identity");
        assert_eq!(back.to_vec().expect("read"), a.to_vec().expect("a"));
        assert!(rxt_tf::fusion::stats().litert_fallbacks > before);
        // Two threads make a function's first call at once, each holding
        // the GIL: one converts, the other waits without it.
        let results: Vec<Vec<f32>> = py.detach(|| {
            std::thread::scope(|scope| {
                let calls: Vec<_> = (0..2)
                    .map(|_| {
                        scope.spawn(|| {
                            pyo3::Python::attach(|_| {
                                let _litert = rxt_tf::fusion::Scope::litert();
                                let y: TensorF32Cpu2D = raced.call((&a,)).expect("raced");
                                y.to_vec().expect("read")
                            })
                        })
                    })
                    .collect();
                calls
                    .into_iter()
                    .map(|c| c.join().expect("thread"))
                    .collect()
            })
        });
        assert_eq!(results[0], vec![3.0, 0.0, 10.5, 0.75, 12.0, 0.0]);
        assert_eq!(results[0], results[1]);
    });
}
