//! Tensors made and read in Rust: `from_slice`, `to_vec`, zero sizes, bad
//! lengths, ops on threads that never held the GIL, and memory over many
//! rounds.

mod common;

use common::{eval, eval_with, rss, with_python};
use pyo3::prelude::*;
use rxt_tf::{tf, TensorF32Cpu1D, TensorF32Cpu2D, TensorI64Cpu1D};

#[test]
fn from_slice_and_to_vec_round_trip_through_python_and_ops() {
    with_python(|py| {
        let data = [1.5_f32, -2.0, 0.0, -0.0, f32::NAN, f32::INFINITY];
        let t = TensorF32Cpu2D::from_slice(py, &data, [2, 3]).expect("from_slice");
        assert_eq!(t.shape().expect("shape"), vec![2, 3]);
        let back = t.to_vec().expect("to_vec");
        assert_eq!(
            back.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            data.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        // It crosses to Python as an ordinary float32 EagerTensor on CPU:0.
        let obj = t.try_clone().expect("clone").into_pyobject(py).expect("py");
        let ok: bool = eval_with(
            py,
            "type(o) is type(tf.constant(1.0)) and o.dtype == tf.float32 and o.shape == (2, 3) \
             and o.device.endswith('device:CPU:0') and \
             np.array_equal(o.numpy(), np.array(d, np.float32).reshape(2, 3), equal_nan=True)",
            &[
                ("o", &obj),
                (
                    "d",
                    &data.to_vec().into_pyobject(py).expect("list").into_any(),
                ),
            ],
        )
        .extract()
        .expect("bool");
        assert!(ok, "{obj}");
        // Ops run on it, and results read back.
        let b = TensorF32Cpu1D::from_slice(py, &[10.0, 20.0, 30.0], [3]).expect("1d");
        let sum = tf!(t + b).expect("add");
        let h = tf!(relu(sum)).expect("relu");
        let got = h.to_vec().expect("read");
        assert_eq!(got[..4], [11.5, 18.0, 30.0, 10.0]);
        assert!(got[4].is_nan() && got[5] == f32::INFINITY);
        let labels = tf!(argmax(h, axis = 1)).expect("argmax");
        assert_eq!(labels.to_vec().expect("i64"), vec![2, 2]);
        let i = TensorI64Cpu1D::from_slice(py, &[3, -4], [2]).expect("i64");
        assert_eq!(i.to_vec().expect("i64 back"), vec![3, -4]);
    });
}

#[test]
fn zero_sizes_work() {
    with_python(|py| {
        for shape in [[0, 3], [3, 0], [0, 0]] {
            let t = TensorF32Cpu2D::from_slice(py, &[], shape).expect("empty");
            let s = t.shape().expect("shape");
            assert_eq!(s, vec![shape[0] as i64, shape[1] as i64]);
            assert!(t.to_vec().expect("read").is_empty());
            assert!(tf!(exp(t)).expect("op").to_vec().expect("read").is_empty());
        }
        let e = TensorF32Cpu1D::from_slice(py, &[], [0]).expect("empty 1d");
        assert_eq!(tf!(e * 2.0).expect("op").shape().expect("shape"), vec![0]);
    });
}

#[test]
fn a_length_that_does_not_fill_the_shape_is_a_value_error() {
    with_python(|py| {
        for (len, shape) in [(5, [2, 3]), (7, [2, 3]), (0, [1, 1]), (1, [usize::MAX, 2])] {
            let data = vec![0.0_f32; len];
            let err = TensorF32Cpu2D::from_slice(py, &data, shape).expect_err("mismatch");
            assert!(err.to_string().starts_with("rxt-tf: from_slice: "), "{err}");
            let err = PyErr::from(err);
            assert!(
                err.is_instance_of::<pyo3::exceptions::PyValueError>(py),
                "{err}"
            );
        }
        let err = TensorF32Cpu1D::from_slice(py, &[1.0, 2.0], [3]).expect_err("1d");
        assert_eq!(
            err.to_string(),
            "rxt-tf: from_slice: 2 values do not fill the shape [3] (3 values)"
        );
    });
}

#[test]
fn a_python_tensor_reads_back_in_rust() {
    with_python(|py| {
        let obj = eval(py, "tf.constant([[1.0, 2.0], [3.0, 4.0]]) * 2");
        let t = obj.extract::<TensorF32Cpu2D>().expect("extract");
        assert_eq!(t.to_vec().expect("read"), vec![2.0, 4.0, 6.0, 8.0]);
    });
}

/// Runs the seed chain on tensors held in Rust and returns its result.
fn chain(x: &TensorF32Cpu2D, w: &TensorF32Cpu2D, b: &TensorF32Cpu1D) -> rxt_tf::Result<Vec<f32>> {
    let h = tf!(relu(tf!(matmul(x, w))?))?;
    tf!(reduce_mean(tf!(h + b)?, axis = 1))?.to_vec()
}

#[test]
fn ops_run_on_threads_that_never_held_the_gil() {
    let (x, w, b) = with_python(|py| {
        let x = TensorF32Cpu2D::from_slice(py, &[1.0, -2.0, 3.0, 4.0, 5.0, -6.0], [2, 3]);
        let w = TensorF32Cpu2D::from_slice(py, &[0.5, 1.0, -1.0, 2.0, 0.25, 0.75], [3, 2]);
        let b = TensorF32Cpu1D::from_slice(py, &[0.1, -0.2], [2]);
        (x.expect("x"), w.expect("w"), b.expect("b"))
    });
    let expected = chain(&x, &w, &b).expect("reference");
    // Inside a detached section of a thread that holds the GIL...
    let detached = with_python(|py| py.detach(|| chain(&x, &w, &b))).expect("detached");
    assert_eq!(detached, expected);
    // ...and on spawned threads, 4 × 1,000 calls.
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..1000 {
                        assert_eq!(chain(&x, &w, &b).expect("thread"), expected);
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().expect("a thread panicked");
        }
    });
}

#[test]
fn construct_read_and_call_rounds_do_not_grow_memory() {
    with_python(|py| {
        let w = TensorF32Cpu2D::from_slice(py, &[0.5; 64], [8, 8]).expect("w");
        let round = |i: u32| {
            let data = [i as f32; 16];
            let x = TensorF32Cpu2D::from_slice(py, &data, [2, 8]).expect("x");
            let product = tf!(matmul(x, w)).expect("matmul");
            let h = tf!(tanh(product)).expect("tanh");
            assert_eq!(h.to_vec().expect("read").len(), 16);
        };
        for i in 0..2_000 {
            round(i);
        }
        let before = rss();
        for i in 0..100_000 {
            round(i);
        }
        let grown = rss().saturating_sub(before);
        assert!(
            grown < 10 << 20,
            "RSS grew by {grown} bytes over 100,000 rounds"
        );
    });
}

#[test]
fn an_op_refuses_an_asynchronous_executor_on_its_thread() {
    with_python(|py| {
        let t = TensorF32Cpu2D::from_slice(py, &[1.0, -1.0], [1, 2]).expect("t");
        let refused = common::in_async_scope(py, || tf!(relu(t)));
        assert_eq!(
            refused.expect_err("asynchronous"),
            rxt_tf::Error::AsyncContext
        );
        assert_eq!(
            tf!(relu(t))
                .expect("synchronous again")
                .to_vec()
                .expect("read"),
            vec![1.0, 0.0]
        );
    });
}
