//! What `tf!`, `#[inference]` and the tests reach through
//! `rxt_tf::__private`. Not public API: outside semver.

pub use half::{bf16, f16};
pub use rxt_tf_spec::{DType, Value};

pub use crate::binding::checks;
pub use crate::binding::context::BoundContext;
pub use crate::binding::platform;
pub use crate::binding::thread_state::{eager_state, EagerState};
pub use crate::binding::wheel::Wheel;
pub use crate::function::CallMode;
pub use crate::gil::RELEASE_WORK;
pub use crate::litert;
pub use crate::ops::entry::{execute, execute_given, interned};
pub use crate::ops::given::{sizes, text};
pub use crate::ops::op;
pub use crate::ops::typed::{
    AsOperand, Axes, Contracted, ContractedTo, Count, Dims, Equation, Flag, FloatLiteral,
    IntLiteral, IntoDim, OpRow, OperandOf, OperandRankOf, Pairs, Perm, Reversed, RuntimeAxes,
    Signature, Size, SubscriptRank, Subscripts, TensorList,
};
// Everything else the typed dispatch and its rules name, so that compile
// errors name them here (`rxt_tf::__private::ElementOf<AddOp>`), not in
// the implementation crate.
pub use crate::ops::rules::*;
pub use crate::ops::typed::*;
pub use crate::sys;
pub use crate::tensor::{Element, TensorType};

use crate::error::Error;

/// A type an `#[inference]` function takes as a parameter: an rxt-tf
/// tensor, a reference to one, an optional one (Python's `None` is `None`),
/// a TensorFlow function to call, a scalar for control flow, `Python<'_>`,
/// or a Python object handle.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not a parameter type of `#[inference]` functions",
    label = "unsupported parameter type",
    note = "parameters are rxt-tf tensors (`TensorF32Cpu2D`, `TensorI32Cpu1D`, …), references \
            to them or `Option`s of either, `rxt_tf::Function`s, scalars (`bool`, an integer or a \
            float), `Python<'_>` or Python objects"
)]
pub trait InferenceParameter {}

impl<T: crate::tensor::Element, const R: usize> InferenceParameter for crate::Tensor<T, R> where
    crate::tensor::Rank<R>: crate::tensor::SupportedRank
{
}
impl<T: InferenceParameter + ?Sized> InferenceParameter for &T {}
impl<T: crate::tensor::Element, const R: usize> InferenceParameter for Option<crate::Tensor<T, R>> where
    crate::tensor::Rank<R>: crate::tensor::SupportedRank
{
}
impl<T: crate::tensor::Element, const R: usize> InferenceParameter for Option<&crate::Tensor<T, R>> where
    crate::tensor::Rank<R>: crate::tensor::SupportedRank
{
}
impl InferenceParameter for crate::function::Function {}
impl InferenceParameter for pyo3::Python<'_> {}
impl<T> InferenceParameter for pyo3::Bound<'_, T> {}
impl<T> InferenceParameter for pyo3::Py<T> {}

macro_rules! scalar_parameters {
    ($($scalar:ty),*) => {$(impl InferenceParameter for $scalar {})*};
}
scalar_parameters!(bool, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);

/// Asserts at compile time that `T` is an `#[inference]` parameter type.
pub fn assert_parameter<T: InferenceParameter + ?Sized>() {}

/// What an `#[inference]` function returns: a `Result`, so op errors reach
/// the caller (`rxt_tf::Result<…>`, `PyResult<…>` or an alias of them).
#[diagnostic::on_unimplemented(
    message = "rxt-tf: #[inference] functions must return a `Result`, not `{Self}`",
    label = "not a `Result`",
    note = "return `rxt_tf::Result<TensorF32Cpu1D>` or `PyResult<...>`, so op errors reach Python"
)]
pub trait InferenceResult {}

impl<T, E> InferenceResult for Result<T, E> {}

/// Asserts at compile time that `T` is a `Result`.
pub fn assert_result<T: InferenceResult>() {}

/// Stands in for an invalid `tf!` invocation after its `compile_error!`, so
/// the surrounding code type-checks; never reached (the build has failed).
pub fn unreachable_result<T>() -> crate::Result<T> {
    Err(Error::Python {
        step: "an invalid tf! invocation",
        detail: String::from("this code did not compile"),
    })
}

/// Calls `function` on EagerTensors from Python as `mode` says
/// (`Function::call_python`): for rxt-tf's Python package.
pub fn call_python<'py>(
    function: &crate::Function,
    py: pyo3::Python<'py>,
    arguments: &[pyo3::Bound<'py, pyo3::PyAny>],
    mode: CallMode,
) -> crate::Result<Vec<pyo3::Bound<'py, pyo3::PyAny>>> {
    function.call_python(py, arguments, mode)
}

/// The Python object `function` calls: its (first) concrete function.
pub fn concrete<'py>(
    function: &crate::Function,
    py: pyo3::Python<'py>,
) -> pyo3::Bound<'py, pyo3::PyAny> {
    function.concrete(py)
}
