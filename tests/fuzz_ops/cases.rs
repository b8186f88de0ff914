//! Cases.

use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;
use rxt_tf::__private::DType;
use rxt_tf::{bf16, f16, Element};

use crate::table::Op;

/// The elements of a tensor, row-major.
#[derive(Clone, Debug)]
pub(crate) enum Values {
    F32(Vec<f32>),
    F64(Vec<f64>),
    BF16(Vec<bf16>),
    F16(Vec<f16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
}

/// Element types whose values a [`Values`] holds.
pub(crate) trait Host: Element {
    fn slice(values: &Values) -> &[Self];
}

macro_rules! host {
    ($($ty:ty: $variant:ident),+) => {$(
        impl Host for $ty {
            fn slice(values: &Values) -> &[Self] {
                match values {
                    Values::$variant(values) => values,
                    other => panic!("{other:?} are not {}", stringify!($ty)),
                }
            }
        }
    )+};
}

host!(f32: F32, f64: F64, bf16: BF16, f16: F16, i32: I32, i64: I64, bool: Bool);

/// A tensor's shape and elements.
#[derive(Clone, Debug)]
pub(crate) struct Input {
    pub(crate) shape: Vec<usize>,
    pub(crate) values: Values,
}

impl Input {
    pub(crate) fn dtype(&self) -> DType {
        match self.values {
            Values::F32(_) => DType::F32,
            Values::F64(_) => DType::F64,
            Values::BF16(_) => DType::BF16,
            Values::F16(_) => DType::F16,
            Values::I32(_) => DType::I32,
            Values::I64(_) => DType::I64,
            Values::Bool(_) => DType::Bool,
        }
    }

    pub(crate) fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The first element as a Python number.
    pub(crate) fn python_scalar<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        let number = match &self.values {
            Values::F32(v) => f64::from(v[0]).into_bound_py_any(py),
            Values::F64(v) => v[0].into_bound_py_any(py),
            Values::BF16(v) => f64::from(v[0]).into_bound_py_any(py),
            Values::F16(v) => f64::from(v[0]).into_bound_py_any(py),
            Values::I32(v) => v[0].into_bound_py_any(py),
            Values::I64(v) => v[0].into_bound_py_any(py),
            Values::Bool(v) => v[0].into_bound_py_any(py),
        };
        number.expect("a Python number")
    }
}

/// One operand of a case.
#[derive(Clone, Debug)]
pub(crate) enum Operand {
    Tensor(Input),
    /// `rxt_tf::ops::Scalar` (eager: a NumPy scalar of the element type).
    Scalar(Input),
    /// An integer literal (eager: a Python `int`).
    Int(i64),
    /// A float literal (eager: a Python `float`).
    Float(f64),
    /// A list of tensors of one element type and rank (`TensorList`).
    List(Vec<Input>),
    /// A run-time list of integers (`Dims`; eager: a Python list).
    Dims(Vec<i64>),
    /// Run-time pairs of integers (`Pairs`; eager: a nested Python list).
    Pairs(Vec<[i64; 2]>),
    /// A run-time integer (`Size`; eager: a Python `int`).
    Size(i64),
}

/// The keywords of a case.
#[derive(Clone, Debug)]
pub(crate) enum Keywords {
    None,
    Alpha(f64),
    /// `gelu`'s `approximate`.
    Approximate(bool),
    /// `transpose_a`, `transpose_b`.
    Transpose(bool, bool),
    /// Axes and `keepdims`.
    Axes(Vec<i64>, bool),
    /// Axes and `epsilon`.
    Epsilon(Vec<i64>, f64),
    Axis(i64),
    /// `axis`, `exclusive`, `reverse`.
    Cumsum(i64, bool, bool),
    /// An axis and the index type.
    Index(i64, DType),
    /// The permutation, and whether eager omits it (the axes reversed).
    Perm(Vec<i64>, bool),
    /// The target or index type.
    To(DType),
    /// `axis` and `batch_dims`.
    Gather(i64, usize),
    /// The number of parts (`split`'s `num_split`, `unstack`'s `num`) and
    /// `axis`.
    Parts(usize, i64),
    /// `k` and `sorted`.
    TopK(i64, bool),
    /// `axis` and `direction`.
    Sort(i64, &'static str),
    /// `on_value`, `off_value` and `axis`.
    OneHot(f64, f64, i64),
    /// `constant_values`.
    Constant(f64),
    /// `mode`.
    Mode(&'static str),
    /// `begin_mask`, `end_mask`, `ellipsis_mask`, `new_axis_mask` and
    /// `shrink_axis_mask`.
    Masks([i64; 5]),
    /// The window's sizes (pools), the strides, the padding and the
    /// dilations (convolutions): one size or a pair each (the 1-D forms:
    /// one).
    Spatial {
        ksize: &'static [i64],
        strides: &'static [i64],
        padding: &'static str,
        dilations: &'static [i64],
    },
    /// `variance_epsilon`.
    VarianceEpsilon(f64),
    /// An einsum equation (kept for the life of the process, as the plain
    /// functions take it) and the rank of its result.
    Equation(&'static str, usize),
    /// `fused_batch_norm`'s `epsilon` (its Python form runs for inference).
    InferenceEpsilon(f64),
    /// `band_part`'s diagonals below and above the main one.
    Band(i64, i64),
    /// `tensordot`'s `axes`, a count, and the rank of its result.
    Contract(usize, usize),
}

#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub(crate) op: &'static Op,
    pub(crate) dtype: DType,
    pub(crate) operands: Vec<Operand>,
    pub(crate) keywords: Keywords,
}

impl Case {
    /// Operand `i`, a tensor.
    pub(crate) fn tensor(&self, i: usize) -> &Input {
        match &self.operands[i] {
            Operand::Tensor(input) => input,
            other => panic!("operand {i} is {other:?}"),
        }
    }
}
