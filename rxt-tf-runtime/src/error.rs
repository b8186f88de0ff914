//! The one error type of rxt-tf, and its mapping to Python exceptions.

use std::fmt;
use std::sync::Arc;

use pyo3::exceptions::{PyException, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// `Result` with [`Error`] as the default error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in rxt-tf. Every message begins `rxt-tf: `.
///
/// Converts into the matching Python exception with `?` inside a
/// `#[pyfunction]`: boundary violations become `TypeError` / `ValueError`,
/// environment problems `RuntimeError`, and a failed TensorFlow op the same
/// `tf.errors` class eager TensorFlow raises.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The value at the boundary is not an exact `EagerTensor`.
    NotEagerTensor {
        /// Python type of the value given.
        type_name: String,
    },
    /// The tensor's dtype is not the one required.
    Dtype {
        /// Required dtype.
        expected: &'static str,
        /// Dtype given.
        found: String,
    },
    /// The tensor's rank is not the one required.
    Rank {
        /// Required rank.
        expected: usize,
        /// Rank given.
        found: i64,
    },
    /// The tensor lives on a device other than this process's `CPU:0`.
    Device {
        /// Required device.
        expected: &'static str,
        /// Device of the tensor given.
        found: String,
    },
    /// A keyword value an op does not accept (from the plain functions of
    /// `ops`, and `tf!`'s sizes and texts given as Rust values; `tf!`
    /// checks literals at compile time).
    Keyword {
        /// The op that was called.
        op: &'static str,
        /// What was wrong, with what is accepted.
        message: String,
    },
    /// Host data that does not match the tensor asked for.
    Data {
        /// What was called (`from_slice`).
        op: &'static str,
        /// What was wrong.
        message: String,
    },
    /// Tensors of one call come from different eager contexts.
    MixedContexts {
        /// The op that was called.
        op: &'static str,
    },
    /// A `tf.GradientTape` or `tf.autodiff.ForwardAccumulator` watches an
    /// input: rxt-tf cannot record gradients.
    WatchedByTape,
    /// Python's eager context runs asynchronously.
    AsyncContext,
    /// The interpreter is not the CPython version rxt-tf supports.
    PythonVersion {
        /// Required interpreter.
        expected: &'static str,
        /// Interpreter found.
        found: String,
    },
    /// The wheel's version is not the one rxt-tf binds.
    TensorFlowVersion {
        /// Where the version was read (`tensorflow.__version__` or `TF_Version()`).
        source_name: &'static str,
        /// Required version.
        expected: &'static str,
        /// Version found.
        found: String,
    },
    /// The machine does not match the platform profile this crate was built for.
    Machine {
        /// Profile id the crate was built for.
        profile: &'static str,
        /// Accepted `platform.machine()` values.
        expected: String,
        /// `platform.machine()` found.
        found: String,
    },
    /// A wheel image is absent or not already loaded by this process.
    MissingImage {
        /// The image path looked for.
        path: String,
        /// Why it could not be used.
        reason: String,
    },
    /// A symbol is absent from the image that should own it.
    MissingSymbol {
        /// The symbol looked for.
        symbol: String,
        /// The image searched.
        image: String,
    },
    /// A symbol resolved, but from an image other than the one that should own it.
    ForeignSymbol {
        /// The symbol looked for.
        symbol: String,
        /// The image that should own it.
        expected: String,
        /// The image that actually holds it.
        found: String,
    },
    /// A Python exception that must reach the caller unchanged (one that is
    /// not an `Exception`, such as `KeyboardInterrupt`, or a `MemoryError`)
    /// interrupted a step. Converts back into that very exception.
    Interrupted {
        /// What was being done.
        step: &'static str,
        /// The exception, as `Type: message`.
        detail: String,
        /// The exception itself.
        exception: PassThrough,
    },
    /// A Python-side step of binding TensorFlow failed.
    Python {
        /// What was being done.
        step: &'static str,
        /// The Python exception, as `Type: message`.
        detail: String,
    },
    /// The value given as a TensorFlow function is not one rxt-tf can
    /// call (or a `tf.function` it cannot pick a trace of).
    NotFunction {
        /// What was given, and what is accepted.
        message: String,
    },
    /// A function's definition cannot be called as resolved.
    Function {
        /// What was wrong.
        message: String,
    },
    /// A function call's tensors do not match its signature in count or
    /// element type, or the caller's result type does not.
    FunctionArguments {
        /// Which position, expected and found.
        message: String,
    },
    /// A function call's tensors do not match its signature in rank.
    FunctionShapes {
        /// Which position, expected and found.
        message: String,
    },
    /// A defect of rxt-tf itself, not of the caller's input: a recorded
    /// node or a planned call that does not match its row, a fused call
    /// that set no result. Raised as `tf.errors.InternalError`.
    Internal {
        /// What was running (an op's name, `fused call`).
        op: &'static str,
        /// What was found wrong.
        defect: &'static str,
    },
    /// A size beyond what TensorFlow's C API can take (a count past
    /// `int`, a name with a NUL byte). Raised as `ValueError`.
    Limit {
        /// What was running.
        op: &'static str,
        /// What was too large, or not representable.
        what: &'static str,
    },
    /// A Python number beyond the range of the element type it becomes:
    /// an `int` past int32 where a typed result is int32 (`tf.range(n)` of
    /// a larger `n` is int64 in TensorFlow), a finite `float` past float32
    /// where TensorFlow raises too (`tf.fill((), 3.5e38)`). Raised as
    /// `ValueError`.
    OutOfRange {
        /// What was running.
        op: &'static str,
        /// The value given, as Python writes it.
        value: String,
        /// The element type it does not fit.
        dtype: &'static str,
    },
    /// The litert backend cannot be used in this environment: the
    /// `ai-edge-litert` package is missing or of another version, or its
    /// `libLiteRt.so` cannot be loaded. Raised as `RuntimeError`.
    LitertUnavailable {
        /// Why, naming the package to install.
        reason: String,
    },
    /// A LiteRT C API call returned an error status. Raised as
    /// `RuntimeError`.
    Litert {
        /// The call (`LiteRtCreateCompiledModel`, …).
        call: &'static str,
        /// Its `LiteRtStatus` code.
        status: i32,
        /// What was being done.
        context: String,
    },
    /// The litert backend cannot take a model or a call (an element type
    /// it does not run, a tensor LiteRT cannot use in place, a conversion
    /// TensorFlow's converter refused). Raised as `RuntimeError`.
    LitertRefused {
        /// What, and why.
        what: String,
    },
    /// A TensorFlow op returned an error status.
    Op {
        /// The op, as rxt-tf names it (e.g. `matmul`).
        op: &'static str,
        /// The `TF_Code` of the status.
        code: i32,
        /// The status message.
        message: String,
    },
}

/// The messages, each beginning `rxt-tf: `.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotEagerTensor { type_name, .. } => write!(f, "rxt-tf: expected a TensorFlow EagerTensor, got {type_name}"),
            Error::Dtype { expected, found } => write!(
                f,
                "rxt-tf: expected {} {expected} tensor, got {} {found} tensor",
                article(expected),
                article(found)
            ),
            Error::Rank { expected, found, .. } => write!(f, "rxt-tf: expected a rank-{expected} tensor, got a rank-{found} tensor"),
            Error::Device { expected, found, .. } => write!(f, "rxt-tf: expected a tensor on {expected}, got a tensor on {found}"),
            Error::Keyword { message, op, .. } => write!(f, "rxt-tf: {op}: {message}"),
            Error::Data { message, op, .. } => write!(f, "rxt-tf: {op}: {message}"),
            Error::MixedContexts { op, .. } => write!(f, "rxt-tf: {op} got tensors from different eager contexts"),
            Error::WatchedByTape => f.write_str(
                "rxt-tf: an input is watched by an active tf.GradientTape or \
                 tf.autodiff.ForwardAccumulator; rxt-tf runs inference only and records \
                 no gradients, so it refuses rather than lose them (call it outside the \
                 tape or accumulator, or stop watching the input)",
            ),
            Error::AsyncContext => f.write_str(
                "rxt-tf: expected a synchronous eager context, found an asynchronous one \
                 (tf.config.experimental.set_synchronous_execution(False) is not supported)",
            ),
            Error::PythonVersion { expected, found, .. } => write!(f, "rxt-tf: expected {expected}, found {found}"),
            Error::TensorFlowVersion { expected, found, source_name, .. } => write!(f, "rxt-tf: expected {source_name} == \"{expected}\", found \"{found}\""),
            Error::Machine { expected, found, profile, .. } => write!(f, "rxt-tf: built for platform profile {profile} (machine {expected}), but Python reports machine {found}"),
            Error::MissingImage { path, reason, .. } => write!(f, "rxt-tf: expected the TensorFlow image {path} to be loaded in this process: {reason}"),
            Error::MissingSymbol { image, symbol, .. } => write!(f, "rxt-tf: symbol {symbol} not found in {image}"),
            Error::ForeignSymbol { expected, found, symbol, .. } => write!(f, "rxt-tf: symbol {symbol} should come from {expected}, but resolves into {found}"),
            Error::Interrupted { detail, step, .. } => write!(f, "rxt-tf: {step} was interrupted: {detail}"),
            Error::Python { detail, step, .. } => write!(f, "rxt-tf: {step} failed: {detail}"),
            Error::NotFunction { message } | Error::Function { message } => write!(f, "rxt-tf: {message}"),
            Error::FunctionArguments { message } | Error::FunctionShapes { message } => write!(f, "rxt-tf: function call: {message}"),
            Error::Internal { op, defect } => write!(f, "rxt-tf: {op}: internal error (a defect of rxt-tf, not of the input): {defect}"),
            Error::Limit { op, what } => write!(f, "rxt-tf: {op}: {what} is beyond what TensorFlow's C API takes"),
            Error::OutOfRange { op, value, dtype } => write!(f, "rxt-tf: {op}: {value} is beyond {dtype}'s range"),
            Error::Op { message, op, .. } => write!(f, "rxt-tf: {op} failed: {message}"),
            Error::LitertRefused { what } => write!(f, "rxt-tf: litert: {what}"),
            Error::LitertUnavailable { reason } => write!(f, "rxt-tf: the litert backend is unavailable: {reason}"),
            Error::Litert { call, status, context } => write!(f, "rxt-tf: litert: {context}: {call} failed with {} ({status})", litert_status_name(*status)),
        }
    }
}

impl std::error::Error for Error {}

/// The `TF_Code` values rxt-tf reports itself (TensorFlow's
/// `tensorflow/c/tf_status.h`).
pub(crate) mod code {
    /// `TF_INVALID_ARGUMENT`: what eager TensorFlow raises as
    /// `InvalidArgumentError`.
    pub(crate) const INVALID_ARGUMENT: i32 = 3;
    /// `TF_RESOURCE_EXHAUSTED`: `ResourceExhaustedError`.
    pub(crate) const RESOURCE_EXHAUSTED: i32 = 8;
    /// `TF_INTERNAL`: `InternalError`.
    pub(crate) const INTERNAL: i32 = 13;
}

/// "a" or "an" before a dtype name (`an int64`, `a float32`).
fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// A Python exception carried through [`Error`] unchanged; two are equal
/// when they are the same exception.
#[derive(Clone, Debug)]
pub struct PassThrough(Arc<PyErr>);

impl PartialEq for PassThrough {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for PassThrough {}

impl Error {
    /// An [`Error::Internal`]: `defect` says what of rxt-tf's own was found
    /// inconsistent while `op` ran.
    pub(crate) const fn internal(op: &'static str, defect: &'static str) -> Self {
        Error::Internal { op, defect }
    }

    /// An [`Error::Limit`]: `what` names the thing TensorFlow's C API cannot
    /// take (`"the number of inputs"`, `"a node name with a NUL byte"`).
    pub(crate) const fn limit(op: &'static str, what: &'static str) -> Self {
        Error::Limit { op, what }
    }

    /// Records a Python exception raised during `step`, keeping its type and
    /// message; one that must not be turned into another (see
    /// [`Error::Interrupted`]) is kept whole.
    pub(crate) fn python(py: Python<'_>, step: &'static str, err: &PyErr) -> Self {
        let type_name = err
            .get_type(py)
            .qualname()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| String::from("Exception"));
        let detail = format!("{type_name}: {}", err.value(py));
        if !err.is_instance_of::<PyException>(py) || err.is_instance_of::<PyMemoryError>(py) {
            return Error::Interrupted {
                step,
                detail,
                exception: PassThrough(Arc::new(err.clone_ref(py))),
            };
        }
        Error::Python { step, detail }
    }

    /// Whether the error is a mismatch of the environment that no later call
    /// can cure (versions, machine, images, symbols), so it may be cached.
    pub(crate) fn is_permanent(&self) -> bool {
        matches!(
            self,
            Error::PythonVersion { .. }
                | Error::TensorFlowVersion { .. }
                | Error::Machine { .. }
                | Error::MissingImage { .. }
                | Error::MissingSymbol { .. }
                | Error::ForeignSymbol { .. }
                | Error::LitertUnavailable { .. }
        )
    }
}

/// The name of a `LiteRtStatus` code, for messages (`LiteRtGetStatusString`
/// is not exported by `libLiteRt.so`).
fn litert_status_name(status: i32) -> &'static str {
    match status {
        0 => "Ok",
        1 => "InvalidArgument",
        2 => "MemoryAllocationFailure",
        3 => "RuntimeFailure",
        4 => "MissingInputTensor",
        5 => "Unsupported",
        6 => "NotFound",
        7 => "TimeoutExpired",
        8 => "WrongVersion",
        9 => "Unknown",
        10 => "AlreadyExists",
        100 => "Cancelled",
        500 => "FileIO",
        501 => "InvalidFlatbuffer",
        502 => "DynamicLoading",
        503 => "Serialization",
        504 => "Compilation",
        1000 => "IndexOOB",
        _ => "an unnamed status",
    }
}

impl From<Error> for PyErr {
    fn from(err: Error) -> PyErr {
        let message = err.to_string();
        match err {
            Error::NotEagerTensor { .. }
            | Error::NotFunction { .. }
            | Error::FunctionArguments { .. } => PyTypeError::new_err(message),
            Error::FunctionShapes { .. } => PyValueError::new_err(message),
            Error::Function { .. } => PyRuntimeError::new_err(message),
            Error::Dtype { .. }
            | Error::Rank { .. }
            | Error::Device { .. }
            | Error::Keyword { .. }
            | Error::Data { .. }
            | Error::MixedContexts { .. }
            | Error::Limit { .. }
            | Error::OutOfRange { .. } => PyValueError::new_err(message),
            Error::Internal { .. } => op_error(code::INTERNAL, message),
            Error::Op { code, .. } => op_error(code, message),
            Error::Interrupted { exception, .. } => Python::attach(|py| exception.0.clone_ref(py)),
            Error::WatchedByTape
            | Error::AsyncContext
            | Error::PythonVersion { .. }
            | Error::TensorFlowVersion { .. }
            | Error::Machine { .. }
            | Error::MissingImage { .. }
            | Error::MissingSymbol { .. }
            | Error::ForeignSymbol { .. }
            | Error::LitertUnavailable { .. }
            | Error::LitertRefused { .. }
            | Error::Litert { .. }
            | Error::Python { .. } => PyRuntimeError::new_err(message),
        }
    }
}

/// The `tf.errors` exception eager TensorFlow raises for `code`, carrying
/// `message`; a `RuntimeError` if TensorFlow's error module is unusable.
fn op_error(code: i32, message: String) -> PyErr {
    Python::attach(|py| {
        let made = py
            .import("tensorflow.python.framework.errors_impl")
            .and_then(|m| m.getattr("exception_type_from_error_code"))
            .and_then(|f| f.call1((code,)))
            .and_then(|class| {
                let args = PyTuple::new(
                    py,
                    [
                        py.None(),
                        py.None(),
                        message.clone().into_pyobject(py)?.into_any().unbind(),
                    ],
                )?;
                class.call1(args)
            });
        match made {
            Ok(instance) => PyErr::from_value(instance),
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_internal_error_names_the_op_and_the_defect() {
        let err = Error::internal("matmul", "a recorded node does not match its row");
        assert_eq!(
            err.to_string(),
            "rxt-tf: matmul: internal error (a defect of rxt-tf, not of the input): \
             a recorded node does not match its row"
        );
        assert_eq!(
            err,
            Error::Internal {
                op: "matmul",
                defect: "a recorded node does not match its row"
            }
        );
        assert!(!err.is_permanent());
    }

    #[test]
    fn a_limit_names_the_op_and_what_was_too_large() {
        let err = Error::limit("concat", "the number of inputs in an input list");
        assert_eq!(
            err.to_string(),
            "rxt-tf: concat: the number of inputs in an input list is beyond what \
             TensorFlow's C API takes"
        );
        assert_eq!(
            err,
            Error::Limit {
                op: "concat",
                what: "the number of inputs in an input list"
            }
        );
        assert!(!err.is_permanent());
    }

    #[test]
    fn the_status_codes_are_tensorflows() {
        assert_eq!(
            (
                code::INVALID_ARGUMENT,
                code::RESOURCE_EXHAUSTED,
                code::INTERNAL
            ),
            (3, 8, 13)
        );
    }
}
