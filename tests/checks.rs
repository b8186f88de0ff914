//! Environment checks with injected values a real process cannot produce,
//! and the Python exception each error becomes.

mod common;

use common::with_python;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use rxt_tf::__private::checks::{self, VersionSource};
use rxt_tf::__private::{platform, DType};
use rxt_tf::Error;

fn python_error(err: Error) -> (String, String) {
    with_python(|py| {
        let err: PyErr = err.into();
        let kind = err.get_type(py).name().expect("name").to_string();
        (kind, err.value(py).to_string())
    })
}

#[test]
fn cpython_311_only() {
    assert!(checks::python_version("cpython", 3, 11).is_ok());
    let err = checks::python_version("cpython", 3, 12).expect_err("3.12");
    assert_eq!(
        err.to_string(),
        "rxt-tf: expected CPython 3.11, found cpython 3.12"
    );
    let err = checks::python_version("pypy", 3, 11).expect_err("pypy");
    assert_eq!(
        python_error(err),
        (
            "RuntimeError".into(),
            "rxt-tf: expected CPython 3.11, found pypy 3.11".into()
        )
    );
}

#[test]
fn tensorflow_2_21_0_only_in_python_and_c() {
    assert!(checks::tensorflow_version(VersionSource::Python, "2.21.0").is_ok());
    let err = checks::tensorflow_version(VersionSource::Python, "2.20.0").expect_err("python");
    assert_eq!(
        python_error(err),
        (
            "RuntimeError".into(),
            "rxt-tf: expected tensorflow.__version__ == \"2.21.0\", found \"2.20.0\"".into()
        )
    );
    let err = checks::tensorflow_version(VersionSource::CLibrary, "2.21.1").expect_err("c");
    assert_eq!(
        err.to_string(),
        "rxt-tf: expected TF_Version() == \"2.21.0\", found \"2.21.1\""
    );
}

#[test]
fn machine_must_match_the_profile() {
    assert!(checks::machine(platform::ACTIVE, "x86_64").is_ok());
    let err = checks::machine(platform::ACTIVE, "aarch64").expect_err("machine");
    assert_eq!(
        python_error(err),
        (
            "RuntimeError".into(),
            "rxt-tf: built for platform profile linux-x86_64 (machine x86_64), but Python reports machine aarch64".into()
        )
    );
}

#[test]
fn asynchronous_context_is_refused() {
    assert!(checks::execution_mode(false).is_ok());
    let (kind, message) = python_error(checks::execution_mode(true).expect_err("async"));
    assert_eq!(kind, "RuntimeError");
    assert!(message
        .starts_with("rxt-tf: expected a synchronous eager context, found an asynchronous one"));
}

#[test]
fn boundary_checks_name_expected_and_found() {
    assert!(checks::device(b"/job:localhost/replica:0/task:0/device:CPU:0").is_ok());
    let err = checks::device(b"/job:localhost/replica:0/task:0/device:GPU:0").expect_err("gpu");
    assert_eq!(
        python_error(err),
        (
            "ValueError".into(),
            "rxt-tf: expected a tensor on /job:localhost/replica:0/task:0/device:CPU:0, got a tensor on /job:localhost/replica:0/task:0/device:GPU:0".into()
        )
    );
    let err = checks::dtype(DType::F32, 2).expect_err("float64");
    assert_eq!(
        python_error(err),
        (
            "ValueError".into(),
            "rxt-tf: expected a float32 tensor, got a float64 tensor".into()
        )
    );
    let err = checks::rank(2, 3).expect_err("rank");
    assert_eq!(
        python_error(err),
        (
            "ValueError".into(),
            "rxt-tf: expected a rank-2 tensor, got a rank-3 tensor".into()
        )
    );
    assert!(checks::rank(1, 1).is_ok());
    assert_eq!(checks::dtype_name(19), "float16");
    assert_eq!(checks::dtype_name(99), "dtype code 99");
}

#[test]
fn type_and_image_errors_map_to_their_exceptions() {
    let err = Error::NotEagerTensor {
        type_name: "numpy.ndarray".into(),
    };
    assert_eq!(
        python_error(err),
        (
            "TypeError".into(),
            "rxt-tf: expected a TensorFlow EagerTensor, got numpy.ndarray".into()
        )
    );
    let err = Error::MissingImage {
        path: "/x/libtensorflow_cc.so.2".into(),
        reason: "gone".into(),
    };
    assert_eq!(python_error(err).0, "RuntimeError");
    let err = Error::WatchedByTape;
    assert_eq!(python_error(err).0, "RuntimeError");
    with_python(|py| {
        let err: PyErr = Error::Dtype {
            expected: "float32",
            found: "int32".into(),
        }
        .into();
        assert!(err.is_instance_of::<PyValueError>(py));
        let err: PyErr = Error::NotEagerTensor {
            type_name: "list".into(),
        }
        .into();
        assert!(err.is_instance_of::<PyTypeError>(py));
        let err: PyErr = Error::AsyncContext.into();
        assert!(err.is_instance_of::<PyRuntimeError>(py));
    });
}

#[test]
fn a_failed_op_raises_the_tf_errors_class_of_its_code() {
    with_python(|py| {
        let errors = py
            .import("tensorflow")
            .expect("tf")
            .getattr("errors")
            .expect("errors");
        for (code, class) in [
            (3, "InvalidArgumentError"),
            (8, "ResourceExhaustedError"),
            (13, "InternalError"),
        ] {
            let err: PyErr = Error::Op {
                op: "matmul",
                code,
                message: "boom".into(),
            }
            .into();
            let expected = errors.getattr(class).expect("class");
            assert!(
                err.get_type(py).is(&expected),
                "code {code} -> {}",
                err.get_type(py)
            );
            assert_eq!(
                err.value(py)
                    .getattr("message")
                    .expect("message")
                    .to_string(),
                "rxt-tf: matmul failed: boom"
            );
        }
    });
}
