//! The `ndarray` feature: arrays in and out of the tensor types.

mod common;

use common::{eval_with, with_python};
use ndarray::{array, Array1, Array2, ShapeBuilder};
use pyo3::prelude::*;
use rxt_tf::{
    bf16, f16, tf, TensorBf16Cpu2D, TensorF16Cpu1D, TensorF32Cpu1D, TensorF32Cpu2D, TensorI64Cpu1D,
};

#[test]
fn arrays_round_trip_in_any_layout() {
    with_python(|py| {
        let a: Array2<f32> = array![[1.5, -2.0, 0.0], [f32::NAN, -0.0, f32::INFINITY]];
        let t = TensorF32Cpu2D::from_array(py, a.view()).expect("from_array");
        let back = t.to_array().expect("to_array");
        assert_eq!(back.dim(), (2, 3));
        for (x, y) in a.iter().zip(back.iter()) {
            assert_eq!(x.to_bits(), y.to_bits());
        }
        // A column-major array and a transposed view are copied row-major.
        let f = Array2::from_shape_vec((2, 3).f(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]).expect("f");
        let t = TensorF32Cpu2D::from_array(py, f.view()).expect("f layout");
        assert_eq!(t.to_vec().expect("vec"), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let t = TensorF32Cpu2D::from_array(py, f.t()).expect("transposed");
        assert_eq!(t.to_array().expect("array"), f.t().to_owned());
        // Through an op, compared with eager on the same tensor.
        let r = TensorF32Cpu1D::from_array(py, Array1::from(vec![1.0, 2.0]).view()).expect("1d");
        let h = tf!(t + r).expect("add");
        let obj = h.try_clone().expect("clone").into_pyobject(py).expect("py");
        let eager = eval_with(py, "h.numpy().sum()", &[("h", &obj)]);
        assert_eq!(
            eager.extract::<f32>().expect("f32"),
            h.to_array().expect("a").sum()
        );
        let k = tf!(argmax(t, axis = 1)).expect("argmax");
        let k: Array1<i64> = k.to_array().expect("i64");
        assert_eq!(k, array![1_i64, 1, 1]);
        let back = TensorI64Cpu1D::from_array(py, k.view()).expect("i64 in");
        assert_eq!(back.to_vec().expect("i64 out"), vec![1, 1, 1]);
        // The half types: bits kept both ways, a transposed view copied.
        let halves = f.mapv(bf16::from_f32);
        let t = TensorBf16Cpu2D::from_array(py, halves.t()).expect("bf16 in");
        assert_eq!(t.to_array().expect("bf16 out"), halves.t().to_owned());
        let edges = Array1::from(vec![f16::MIN_POSITIVE_SUBNORMAL, f16::NAN, f16::MAX]);
        let t = TensorF16Cpu1D::from_array(py, edges.view()).expect("f16 in");
        let bits = |a: &Array1<f16>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&t.to_array().expect("f16 out")), bits(&edges));
    });
}

#[test]
fn empty_arrays_work() {
    with_python(|py| {
        let a = Array2::<f32>::zeros((0, 4));
        let t = TensorF32Cpu2D::from_array(py, a.view()).expect("empty");
        assert_eq!(t.shape().expect("shape"), vec![0, 4]);
        assert_eq!(t.to_array().expect("array").dim(), (0, 4));
    });
}
