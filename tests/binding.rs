//! Binding the real wheel: images opened with RTLD_NOLOAD, symbols proven to
//! come from their owning image, the outcome cached.

mod common;

use std::path::{Path, PathBuf};

use common::with_python;
use pyo3::prelude::*;
use rxt_tf::__private::sys::{Api, Image};
use rxt_tf::__private::{platform, Wheel};
use rxt_tf::Error;

fn wheel() -> &'static Wheel {
    with_python(|py| Wheel::get(py).unwrap_or_else(|err| panic!("binding failed: {err}")))
}

#[test]
fn binds_the_active_wheel_once_for_this_profile() {
    let first = wheel();
    let second = wheel();
    assert!(std::ptr::eq(first, second), "binding is cached");
    assert_eq!(first.profile().id, "linux-x86_64");
    assert_eq!(first.profile(), platform::ACTIVE);
    let tf_dir: PathBuf = with_python(|py| {
        common::eval(py, "__import__('os').path.dirname(tf.__file__)")
            .extract()
            .expect("path")
    });
    assert_eq!(first.package_dir(), tf_dir.as_path());
}

#[test]
fn every_symbol_comes_from_its_owning_image() {
    let api = wheel().api();
    let images = &api.images;
    assert!(images
        .cc
        .path()
        .ends_with("tensorflow/libtensorflow_cc.so.2"));
    assert!(images
        .framework
        .path()
        .ends_with("tensorflow/libtensorflow_framework.so.2"));
    assert!(images
        .pywrap
        .path()
        .ends_with("tensorflow/python/lib_pywrap_tensorflow_common.so"));
    for (image, symbol) in Api::SYMBOLS {
        let image = match *image {
            "cc" => &images.cc,
            "framework" => &images.framework,
            "pywrap" => &images.pywrap,
            other => panic!("unknown image {other}"),
        };
        let name = std::ffi::CString::new(*symbol).expect("no NUL");
        image
            .resolve(&name)
            .unwrap_or_else(|err| panic!("{symbol}: {err}"));
    }
    assert_eq!(Api::SYMBOLS.len(), 61);
}

#[test]
fn a_symbol_found_through_a_dependency_is_refused() {
    let api = wheel().api();
    // libtensorflow_cc depends on libtensorflow_framework, so a plain dlsym on
    // it finds TF_NewStatus; dladdr shows the definition lives elsewhere.
    let err = api
        .images
        .cc
        .resolve(c"TF_NewStatus")
        .expect_err("foreign symbol");
    match &err {
        Error::ForeignSymbol {
            symbol,
            expected,
            found,
        } => {
            assert_eq!(symbol, "TF_NewStatus");
            assert!(expected.ends_with("libtensorflow_cc.so.2"), "{expected}");
            assert!(found.ends_with("libtensorflow_framework.so.2"), "{found}");
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(err
        .to_string()
        .starts_with("rxt-tf: symbol TF_NewStatus should come from "));
}

#[test]
fn a_missing_symbol_names_symbol_and_image() {
    let err = wheel()
        .api()
        .images
        .pywrap
        .resolve(c"TFE_NoSuchFunction")
        .expect_err("missing");
    let message = err.to_string();
    assert!(matches!(err, Error::MissingSymbol { .. }));
    assert!(
        message.starts_with("rxt-tf: symbol TFE_NoSuchFunction not found in "),
        "{message}"
    );
    assert!(
        message.ends_with("python/lib_pywrap_tensorflow_common.so"),
        "{message}"
    );
}

#[test]
fn an_absent_image_is_an_error() {
    let err =
        Image::open_loaded(Path::new("/nonexistent/libtensorflow_cc.so.2")).expect_err("absent");
    let message = err.to_string();
    assert!(matches!(err, Error::MissingImage { .. }));
    assert!(
        message.starts_with(
            "rxt-tf: expected the TensorFlow image /nonexistent/libtensorflow_cc.so.2 to be loaded"
        ),
        "{message}"
    );
}

#[test]
fn an_image_the_process_has_not_loaded_is_never_loaded() {
    let dir = wheel().package_dir().to_path_buf();
    let maps = std::fs::read_to_string("/proc/self/maps").expect("maps");
    let unloaded = shared_objects(&dir)
        .into_iter()
        .find(|path| !maps.contains(path.to_string_lossy().as_ref()))
        .expect("the wheel ships some shared object this process has not loaded");
    let err = Image::open_loaded(&unloaded).expect_err("not loaded");
    assert!(
        err.to_string().contains("not loaded by this process"),
        "{err}"
    );
    let maps = std::fs::read_to_string("/proc/self/maps").expect("maps");
    assert!(
        !maps.contains(unloaded.to_string_lossy().as_ref()),
        "RTLD_NOLOAD loaded it"
    );
}

fn shared_objects(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "so") {
                found.push(path.canonicalize().expect("canonical"));
            }
        }
    }
    found.sort();
    found
}

/// The thread's eager state read from the wheel's record, in each state
/// Python's getters report: the layout check passes (else `None`), and the
/// fields follow `tf.device` scopes and graph building.
#[test]
fn the_eager_thread_record_reads_what_python_reads() {
    with_python(|py| {
        let context = common::eval(
            py,
            "__import__('tensorflow.python.eager.context', fromlist=['x']).context()",
        );
        let read = || rxt_tf::__private::eager_state(py, &context).expect("the layout matches");
        let state = |is_eager, device_scope| rxt_tf::__private::EagerState {
            is_eager,
            device_scope,
        };
        assert_eq!(read(), state(true, false));
        let enter = |code: &str| {
            let scope = common::eval(py, code);
            scope.call_method0("__enter__").expect("entered");
            scope
        };
        let exit = |scope: Bound<'_, PyAny>| {
            let none = py.None();
            scope
                .call_method1("__exit__", (&none, &none, &none))
                .expect("left");
        };
        let device = enter("tf.device('/CPU:0')");
        assert_eq!(read(), state(true, true));
        exit(device);
        assert_eq!(read(), state(true, false));
        let graph = enter("tf.Graph().as_default()");
        assert_eq!(read(), state(false, false));
        exit(graph);
        assert_eq!(read(), state(true, false));
    });
}
