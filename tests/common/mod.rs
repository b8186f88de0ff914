//! Embeds the project's CPython 3.11 with the venv's `tensorflow==2.21.0`.

#![allow(dead_code)]

use std::process::Command;
use std::sync::Once;

use pyo3::prelude::*;
use rxt_tf::{TensorF32Cpu1D, TensorF32Cpu2D};

static SITE: Once = Once::new();

/// Compares each `tf!` result with the eager expression evaluated with
/// `names` (`(name, Python object)` pairs) in scope, bit for bit:
/// `same!(py, &names, "tf.exp(x)" => tf!(exp(x)), …)`.
#[allow(unused_macros)] // not every test crate compares with eager
macro_rules! same {
    ($py:expr, $names:expr, $( $eager:literal => $native:expr ),+ $(,)?) => {{
        let names: &[(&str, &pyo3::Bound<'_, pyo3::PyAny>)] = $names;
        $(
            let native = $crate::common::to_python($py, $eager, $native);
            let eager = $crate::common::eval_with($py, $eager, names);
            $crate::common::assert_matches_eager($py, $eager, &native, &eager);
        )+
    }};
}

/// Runs `f` with the GIL, after putting the venv's site-packages on
/// `sys.path` (an embedded interpreter does not find them by itself). The
/// venv is the interpreter named by `PYO3_PYTHON`, which the build used too.
///
/// With `RXT_TF_TEST_FUSED=1`, `f` runs inside a fused scope: its ops are
/// recorded and run as fused calls when their results are read (`make test`
/// runs the op surface both ways); with `RXT_TF_TEST_LITERT=1`, inside a
/// litert scope.
pub fn with_python<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> R {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| v == "1");
    let _scope = if set("RXT_TF_TEST_LITERT") {
        Some(rxt_tf::fusion::Scope::litert())
    } else {
        set("RXT_TF_TEST_FUSED").then(rxt_tf::fusion::Scope::fused)
    };
    SITE.call_once(|| {
        let python = std::env::var("PYO3_PYTHON")
            .unwrap_or_else(|_| panic!("set PYO3_PYTHON to the venv's python (make test does)"));
        let out = Command::new(&python)
            .args([
                "-c",
                "import site; print('\\n'.join(site.getsitepackages()))",
            ])
            .output()
            .unwrap_or_else(|err| panic!("cannot run {python}: {err}"));
        let dirs = String::from_utf8_lossy(&out.stdout).into_owned();
        Python::attach(|py| {
            let site = py.import("site").expect("import site");
            for dir in dirs.lines().filter(|l| !l.is_empty()) {
                site.call_method1("addsitedir", (dir,)).expect("addsitedir");
            }
        });
    });
    Python::attach(f)
}

/// The number the environment variable `name` holds, or `default` where
/// it is unset or not a number (a test's size, which `make fuzz` raises).
pub fn count_from_env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// Evaluates a Python expression with `tf` and `np` in scope.
pub fn eval<'py>(py: Python<'py>, code: &str) -> Bound<'py, PyAny> {
    eval_with(py, code, &[])
}

/// Evaluates a Python expression with `tf`, `np` and the given names in scope.
pub fn eval_with<'py>(
    py: Python<'py>,
    code: &str,
    names: &[(&str, &Bound<'py, PyAny>)],
) -> Bound<'py, PyAny> {
    let globals = pyo3::types::PyDict::new(py);
    globals
        .set_item("tf", py.import("tensorflow").expect("import tensorflow"))
        .expect("tf");
    globals
        .set_item("np", py.import("numpy").expect("import numpy"))
        .expect("np");
    for (name, value) in names {
        globals.set_item(*name, value).expect("set name");
    }
    let code = std::ffi::CString::new(code).expect("no NUL");
    py.eval(&code, Some(&globals), None)
        .unwrap_or_else(|err| panic!("{code:?} raised {err}"))
}

/// Asserts `native` and `eager` agree bit for bit: same type, dtype and
/// shape, and the same elements (NaN in the same places, zeros of the same
/// sign), as the same kernels run. `what` names the case in failures.
pub fn assert_matches_eager<'py>(
    py: Python<'py>,
    what: &str,
    native: &Bound<'py, PyAny>,
    eager: &Bound<'py, PyAny>,
) {
    let ok: bool = eval_with(
        py,
        "(type(n) is type(e) and n.dtype == e.dtype and n.shape == e.shape and \
          (np.array_equal(n.numpy(), e.numpy()) if (n.dtype.is_integer or n.dtype.is_bool) else \
           (np.array_equal(n.numpy(), e.numpy(), equal_nan=True) \
            and np.array_equal(np.signbit(n.numpy()), np.signbit(e.numpy())))))",
        &[("n", native), ("e", eager)],
    )
    .extract()
    .unwrap_or_else(|err| panic!("{what}: {err}"));
    assert!(ok, "{what}: native {native} differs from eager {eager}");
}

/// Asserts that `native` is within the litert backend's tolerance of
/// `eager`: the same type, element type and shape; integers and booleans
/// equal; floats NaN where eager's are, infinite where eager's are, and
/// otherwise within relative 1e-5 and absolute 1e-6 at the values' scale
/// (the largest finite magnitude, at least 1).
pub fn assert_close_to_eager<'py>(
    py: Python<'py>,
    what: &str,
    native: &Bound<'py, PyAny>,
    eager: &Bound<'py, PyAny>,
) {
    let ok: bool = eval_with(
        py,
        "(lambda a, b: type(n) is type(e) and n.dtype == e.dtype and n.shape == e.shape and \
          (np.array_equal(a, b) if (n.dtype.is_integer or n.dtype.is_bool) else \
           (np.array_equal(np.isnan(a), np.isnan(b)) and np.array_equal(a[np.isinf(b)], b[np.isinf(b)]) \
            and bool(np.all(np.abs(a - b)[np.isfinite(b)] <= 1e-6 * max(1.0, float(np.max(np.abs(b[np.isfinite(b)]), initial=0.0))) + 1e-5 * np.abs(b[np.isfinite(b)]))))))\
         (n.numpy().astype(np.float64) if n.dtype.is_floating else n.numpy(), \
          e.numpy().astype(np.float64) if e.dtype.is_floating else e.numpy())",
        &[("n", native), ("e", eager)],
    )
    .extract()
    .unwrap_or_else(|err| panic!("{what}: {err}"));
    assert!(
        ok,
        "{what}: native {native} is not within tolerance of eager {eager}"
    );
}

/// Whether `native` is within the litert backend's tolerance of `eager`
/// (relative 1e-5, absolute 1e-6 at the values' scale) with the same shape
/// and element type.
pub fn within_litert_tolerance(
    py: Python<'_>,
    native: &TensorF32Cpu2D,
    eager: &Bound<'_, PyAny>,
) -> bool {
    let native = native
        .try_clone()
        .expect("clone")
        .into_pyobject(py)
        .expect("py");
    eval_with(
        py,
        "n.shape == e.shape and n.dtype == e.dtype and bool(np.all(np.abs(n.numpy() - e.numpy()) \
         <= 1e-6 * max(1.0, float(np.max(np.abs(e.numpy())))) + 1e-5 * np.abs(e.numpy())))",
        &[("n", &native), ("e", eager)],
    )
    .extract()
    .expect("bool")
}

/// The tensor of `value` as a Python object; `what` names the case in failures.
pub fn to_python<'py, T>(py: Python<'py>, what: &str, value: rxt_tf::Result<T>) -> Bound<'py, PyAny>
where
    T: IntoPyObject<'py, Target = PyAny, Output = Bound<'py, PyAny>, Error = PyErr>,
{
    let value = value.unwrap_or_else(|err| panic!("{what}: {err}"));
    value
        .into_pyobject(py)
        .unwrap_or_else(|err| panic!("{what}: {err}"))
}

/// `code` evaluated, and extracted as a rank-2 float32 tensor.
pub fn tensor2<'py>(py: Python<'py>, code: &str) -> (Bound<'py, PyAny>, TensorF32Cpu2D) {
    let obj = eval(py, code);
    let tensor = obj
        .extract::<TensorF32Cpu2D>()
        .unwrap_or_else(|err| panic!("{err}"));
    (obj, tensor)
}

/// `code` evaluated, and extracted as a rank-1 float32 tensor.
pub fn tensor1<'py>(py: Python<'py>, code: &str) -> (Bound<'py, PyAny>, TensorF32Cpu1D) {
    let obj = eval(py, code);
    let tensor = obj
        .extract::<TensorF32Cpu1D>()
        .unwrap_or_else(|err| panic!("{err}"));
    (obj, tensor)
}

/// Resident memory of this process, in bytes.
pub fn rss() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("statm");
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .expect("rss pages");
    pages * 4096
}

/// The class name and message of the Python exception `err`.
pub fn python_error(py: Python<'_>, err: PyErr) -> (String, String) {
    let class = err
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    (class, err.value(py).to_string())
}

/// Runs `f` inside TensorFlow's `execution_mode(ASYNC)` scope.
pub fn in_async_scope<R>(py: Python<'_>, f: impl FnOnce() -> R) -> R {
    let scope = eval(
        py,
        "__import__('tensorflow.python.eager.context', fromlist=['context'])\
         .execution_mode(__import__('tensorflow.python.eager.context', \
         fromlist=['context']).ASYNC)",
    );
    scope
        .call_method0("__enter__")
        .expect("enter the asynchronous scope");
    let result = f();
    let none = py.None();
    scope
        .call_method1("__exit__", (&none, &none, &none))
        .expect("leave the scope");
    result
}

/// The C heap's bytes in use (every arena, and mapped chunks), from glibc:
/// unlike RSS, not blurred by pages the allocator keeps or reuses.
pub fn heap_in_use() -> u64 {
    #[repr(C)]
    struct MallInfo2 {
        arena: usize,
        ordblks: usize,
        smblks: usize,
        hblks: usize,
        hblkhd: usize,
        usmblks: usize,
        fsmblks: usize,
        uordblks: usize,
        fordblks: usize,
        keepcost: usize,
    }
    extern "C" {
        fn mallinfo2() -> MallInfo2;
    }
    // SAFETY: glibc's `mallinfo2` (2.33 and later) takes no arguments and
    // returns this struct by value; it only reads the allocator's state.
    let info = unsafe { mallinfo2() };
    (info.uordblks + info.hblkhd) as u64
}

/// The fusion cache is process-wide: tests that count builds or measure
/// memory run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds the test binary's serial lock.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A body with scalar control flow: each `bits` pattern is its own trace.
pub fn patterned(x: &TensorF32Cpu2D, bits: u32, depth: u32) -> rxt_tf::Result<TensorF32Cpu2D> {
    let mut h = rxt_tf::tf!(x * 0.5)?;
    for bit in 0..depth {
        h = if bits & (1 << bit) == 0 {
            rxt_tf::tf!(tanh(h))?
        } else {
            rxt_tf::tf!(sigmoid(h))?
        };
    }
    Ok(h)
}

/// The inputs `code` defines (Python, `name = expression` per line, with
/// `tf` in scope), by name, with their Python objects.
pub fn named_inputs<'py>(py: Python<'py>, code: &str) -> Vec<(String, Bound<'py, PyAny>)> {
    let globals = pyo3::types::PyDict::new(py);
    globals
        .set_item("tf", py.import("tensorflow").expect("tf"))
        .expect("tf");
    let source = std::ffi::CString::new(code).expect("no NUL");
    py.run(&source, Some(&globals), None).expect("inputs");
    code.lines()
        .filter_map(|line| line.split_once(" = "))
        .map(|(name, _)| {
            let value = globals.get_item(name).expect("get").expect("defined");
            (name.to_owned(), value)
        })
        .collect()
}

/// The input `name` of [`named_inputs`] as a tensor of `T` and rank `R`.
pub fn input<T: rxt_tf::Element, const R: usize>(
    inputs: &[(String, Bound<'_, PyAny>)],
    name: &str,
) -> rxt_tf::Tensor<T, R>
where
    for<'a, 'py> rxt_tf::Tensor<T, R>: FromPyObject<'a, 'py, Error = rxt_tf::Error>,
{
    let (_, value) = inputs.iter().find(|(n, _)| n == name).expect("an input");
    value
        .extract()
        .unwrap_or_else(|err| panic!("{name}: {err}"))
}

/// The inputs as `(name, object)` pairs, for `same!`.
pub fn names<'a, 'py>(
    inputs: &'a [(String, Bound<'py, PyAny>)],
) -> Vec<(&'a str, &'a Bound<'py, PyAny>)> {
    inputs.iter().map(|(n, o)| (n.as_str(), o)).collect()
}

/// xorshift64*, seeded through splitmix64: small and deterministic.
pub struct Rng(pub u64);

impl Rng {
    /// A generator for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `low..=high`.
    pub fn within(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}
