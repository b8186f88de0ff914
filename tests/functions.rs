//! `rxt_tf::Function` inside fused bodies: a call joins the trace as one
//! node, so `tf!` ops around it run in the same single TensorFlow call
//! (one build, then cache hits, no replay), results bitwise equal to
//! Python's; a call of several outputs runs as its own call; a failing
//! call inside a fused body names itself, as per op.

mod common;

use common::{python_error, serial, with_python};
use pyo3::prelude::*;
use rxt_tf::fusion::{self, Scope};
use rxt_tf::{tf, Function, TensorF32Cpu1D, TensorF32Cpu2D};

/// A `tf.function` with a variable, of one output, and `x`, `scale`.
const SETUP: &str = "
w = tf.Variable(tf.reshape(tf.sin(tf.range(0.0, 16 * 4)), (16, 4)))
model = tf.function(lambda v: tf.nn.softmax(v @ w), input_signature=[tf.TensorSpec((None, 16))])
pair = tf.function(lambda v: (v @ w, tf.tanh(v @ w)), input_signature=[tf.TensorSpec((None, 16))])
counter = tf.Variable(0.0)
def bump_fn(v):
    counter.assign_add(1.0)
    return v * 2.0
bump = tf.function(bump_fn, input_signature=[tf.TensorSpec((None, 16))])
x = tf.reshape(tf.cos(tf.range(0.0, 3 * 16)), (3, 16))
scale = tf.linspace(0.5, 2.0, 16)
";

fn run_setup(py: Python<'_>) -> Bound<'_, pyo3::types::PyDict> {
    let globals = pyo3::types::PyDict::new(py);
    globals
        .set_item("tf", py.import("tensorflow").expect("tensorflow"))
        .expect("tf");
    let code = std::ffi::CString::new(SETUP).expect("no NUL");
    py.run(&code, Some(&globals), None).expect("setup");
    globals
}

fn get<'py, T: for<'a> FromPyObject<'a, 'py>>(
    globals: &Bound<'py, pyo3::types::PyDict>,
    name: &str,
) -> T
where
    for<'a> <T as FromPyObject<'a, 'py>>::Error: std::fmt::Display,
{
    let value = globals
        .get_item(name)
        .expect("lookup")
        .unwrap_or_else(|| panic!("{name} is not set"));
    value
        .extract::<T>()
        .unwrap_or_else(|err| panic!("{name}: {err}"))
}

/// `tf!` ops, the model, `tf!` ops: one trace.
#[rxt_tf::inference]
fn around(
    model: &Function,
    x: TensorF32Cpu2D,
    scale: TensorF32Cpu1D,
) -> rxt_tf::Result<TensorF32Cpu2D> {
    let scaled = tf!(x * scale)?;
    let y: TensorF32Cpu2D = model.call((&scaled,))?;
    let doubled = tf!(y * 2.0)?;
    tf!(relu(doubled))
}

#[test]
fn a_call_joins_the_trace() {
    let _serial = serial();
    with_python(|py| {
        let globals = run_setup(py);
        let model: Function = get(&globals, "model");
        let (x, scale): (TensorF32Cpu2D, TensorF32Cpu1D) =
            (get(&globals, "x"), get(&globals, "scale"));
        let expected = py
            .eval(c"tf.nn.relu(model(x * scale) * 2.0)", Some(&globals), None)
            .expect("eager");
        let before = fusion::stats();
        for _ in 0..5 {
            let native = around(
                &model,
                x.try_clone().expect("x"),
                scale.try_clone().expect("s"),
            )
            .expect("fused call");
            let native = native.into_pyobject(py).expect("tensor");
            common::assert_matches_eager(py, "around", &native, &expected);
        }
        let after = fusion::stats();
        assert_eq!(after.builds - before.builds, 1, "one trace, built once");
        assert_eq!(after.replays, before.replays, "no replay");
    });
}

#[test]
fn a_call_of_several_outputs_runs_as_its_own_call() {
    let _serial = serial();
    with_python(|py| {
        let globals = run_setup(py);
        let pair: Function = get(&globals, "pair");
        let x: TensorF32Cpu2D = get(&globals, "x");
        let _scope = Scope::fused();
        let doubled = tf!(x * 2.0).expect("recorded");
        let (a, b): (TensorF32Cpu2D, TensorF32Cpu2D) = pair.call((&doubled,)).expect("call");
        let a = a.into_pyobject(py).expect("a");
        let b = b.into_pyobject(py).expect("b");
        let expected = py
            .eval(c"pair(x * 2.0)", Some(&globals), None)
            .expect("eager");
        common::assert_matches_eager(py, "first", &a, &expected.get_item(0).expect("0"));
        common::assert_matches_eager(py, "second", &b, &expected.get_item(1).expect("1"));
    });
}

#[test]
fn a_failing_call_in_a_fused_body_names_itself() {
    let _serial = serial();
    with_python(|py| {
        let globals = run_setup(py);
        let model: Function = get(&globals, "model");
        // 15 columns: the rank fits the signature, the size does not.
        let narrow: TensorF32Cpu2D = py
            .eval(c"tf.ones((2, 15))", Some(&globals), None)
            .and_then(|t| t.extract().map_err(PyErr::from))
            .expect("narrow");
        let before = fusion::stats();
        let failed = {
            let _scope = Scope::fused();
            let y: rxt_tf::Result<TensorF32Cpu2D> = model.call((&narrow,));
            y.and_then(|y| tf!(y + 1.0)).and_then(|y| y.to_vec())
        };
        let err = failed.expect_err("a size mismatch");
        let (class, message) = python_error(py, PyErr::from(err));
        assert_eq!(class, "InvalidArgumentError", "{message}");
        assert!(
            message.starts_with("rxt-tf: function call failed: "),
            "{message}"
        );
        assert_eq!(
            fusion::stats().replays,
            before.replays + 1,
            "replayed per op"
        );
    });
}

#[test]
fn a_stateful_call_runs_once_each_time_in_a_fused_body() {
    let _serial = serial();
    with_python(|py| {
        let globals = run_setup(py);
        let bump: Function = get(&globals, "bump");
        let x: TensorF32Cpu2D = get(&globals, "x");
        let count = |globals: &Bound<'_, pyo3::types::PyDict>| -> f64 {
            py.eval(c"float(counter.numpy())", Some(globals), None)
                .and_then(|v| v.extract())
                .expect("counter")
        };
        let start = count(&globals);
        {
            let _scope = Scope::fused();
            for _ in 0..3 {
                // Results unread: a stateful call runs anyway, once.
                let _unread: TensorF32Cpu2D = bump.call((&x,)).expect("bump");
            }
            // A failing op after it replays the batch; the call is not in it.
            let doubled: TensorF32Cpu2D = bump.call((&x,)).expect("bump");
            let wrong = tf!(matmul(doubled, doubled)).and_then(|t| t.to_vec());
            assert!(wrong.is_err(), "a [3, 16] × [3, 16] matmul fails");
        }
        assert_eq!(count(&globals) - start, 4.0, "four calls, each once");
    });
}

/// Functions let go of remove TensorFlow's call wrapper of their arity
/// (what frees their cached kernels) once: later removals with no call in
/// between find nothing to free and look for nothing.
#[test]
fn functions_let_go_of_remove_their_wrapper_once() {
    let _serial = serial();
    with_python(|py| {
        let globals = run_setup(py);
        let x: TensorF32Cpu2D = get(&globals, "x");
        let wrapper = "__wrapped__StatefulPartitionedCall_Tin_1_Tout_1_device_\
                       /job:localhost/replica:0/task:0/device:CPU:0";
        let has_wrapper = || -> bool {
            py.import("tensorflow.python.eager.context")
                .and_then(|context| context.call_method0("context"))
                .and_then(|context| context.call_method1("has_function", (wrapper,)))
                .and_then(|found| found.extract())
                .expect("has_function")
        };
        let before = fusion::stats();
        // More than the resolver remembers (64): the first ones are held
        // here alone, so dropping them lets them go.
        let functions: Vec<Function> = (0..70)
            .map(|i| {
                let code = format!(
                    "tf.function(lambda v: v * {i}.0, \
                     input_signature=[tf.TensorSpec((None, 16))])"
                );
                let code = std::ffi::CString::new(code).expect("no NUL");
                let made = py.eval(&code, Some(&globals), None).expect("tf.function");
                let function: Function = made
                    .extract()
                    .unwrap_or_else(|err| panic!("function: {err}"));
                let _out: TensorF32Cpu2D = function.call((&x,)).expect("call");
                function
            })
            .collect();
        assert!(has_wrapper(), "the calls made it");
        drop(functions);
        assert!(!has_wrapper(), "removed once no call ran");
        assert_eq!(
            fusion::stats().wrappers_kept,
            before.wrappers_kept,
            "no removal looked for a wrapper already removed"
        );
    });
}
