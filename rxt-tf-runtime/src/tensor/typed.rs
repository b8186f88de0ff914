//! The typed tensor: [`Tensor<T, R>`], element type `T` and rank `R` in the
//! type, over the untyped core.

use std::fmt;
use std::marker::PhantomData;

use pyo3::Python;
use rxt_tf_spec::TensorKind;

#[cfg(feature = "ndarray")]
use crate::error::Error;
use crate::error::Result;
use crate::tensor::element::{sealed, Element};
use crate::tensor::Untyped;

/// A rank as a type, for the traits that relate ranks (`Rank<2>`).
pub struct Rank<const R: usize>;

/// The ranks rxt-tf has: `Rank<0>` to `Rank<5>`.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: tensors have ranks 0 to 5, not {Self}",
    label = "rank out of range"
)]
pub trait SupportedRank: sealed::Sealed {}

/// A tensor of element type `T` (`f32`, `i32`, …: see [`Element`]) and rank `R`
/// (0 to 5) on `CPU:0`, owned by Rust. Crosses the Python boundary as a
/// `tf.Tensor` (EagerTensor) without copying its data. Its public names are
/// the aliases `TensorF32Cpu2D`, `TensorI32Cpu1D`, ….
pub struct Tensor<T: Element, const R: usize> {
    pub(crate) core: Untyped,
    element: PhantomData<fn() -> T>,
}

/// Another reference to the same tensor: the data is shared, not copied,
/// and a tensor a fused call has yet to compute stays pending (both
/// references see its value, or its error). Tensors are immutable, so the
/// two cannot tell each other apart; generated code aliasing a tensor
/// (`y = x` in a function Rextio compiles) clones it.
impl<T: Element, const R: usize> Clone for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    fn clone(&self) -> Self {
        Tensor {
            core: self.core.shared(),
            element: PhantomData,
        }
    }
}

/// An rxt-tf tensor type: element type and rank are part of the type.
/// Implemented by [`Tensor`] only.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not an rxt-tf tensor",
    label = "expected an rxt-tf tensor such as `TensorF32Cpu2D`",
    note = "`#[inference]` tensor parameters and `tf!` operands are rxt-tf tensors"
)]
pub trait TensorType: sealed::Sealed + Sized {
    /// Element type and rank.
    const KIND: TensorKind;
    #[doc(hidden)]
    fn core(&self) -> &Untyped;
    #[doc(hidden)]
    fn from_core(core: Untyped) -> Self;
}

impl<T: Element, const R: usize> sealed::Sealed for Tensor<T, R> {}

impl<T: Element, const R: usize> TensorType for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    const KIND: TensorKind = TensorKind {
        dtype: T::DTYPE,
        // `R` is at most `MAX_RANK` (`Rank<R>: SupportedRank`).
        rank: R as u8,
    };
    fn core(&self) -> &Untyped {
        &self.core
    }
    fn from_core(core: Untyped) -> Self {
        Tensor {
            core,
            element: PhantomData,
        }
    }
}

impl<T: Element, const R: usize> Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    /// The size of each dimension.
    pub fn shape(&self) -> Result<Vec<i64>> {
        self.core.shape(R)
    }

    /// Another reference to the same tensor; the data is shared, not copied.
    /// Never fails: the same as [`Clone::clone`], kept for callers that
    /// wrote it.
    pub fn try_clone(&self) -> Result<Self> {
        Ok(self.clone())
    }

    /// A new tensor holding a copy of `data` (row-major) in `shape`, on
    /// Python's eager context (`TensorF32Cpu0D::from_slice(py, &[2.5], [])`).
    /// Fails with a `ValueError` when the length of `data` is not the
    /// product of `shape`.
    pub fn from_slice(py: Python<'_>, data: &[T], shape: [usize; R]) -> Result<Self> {
        Untyped::from_slice(py, data, &shape).map(Self::from_core)
    }

    /// A copy of the elements, row-major. Needs no GIL.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.core.to_vec()
    }
}

#[cfg(feature = "ndarray")]
impl<T: Element, const R: usize> Tensor<T, R>
where
    Rank<R>: SupportedRank,
    ndarray::Dim<[usize; R]>: ndarray::Dimension,
    [usize; R]: ndarray::IntoDimension<Dim = ndarray::Dim<[usize; R]>>,
{
    /// A new tensor holding a copy of `array` (any memory layout), on
    /// Python's eager context.
    pub fn from_array(
        py: Python<'_>,
        array: ndarray::ArrayView<'_, T, ndarray::Dim<[usize; R]>>,
    ) -> Result<Self> {
        let mut shape = [0_usize; R];
        for (size, &dim) in shape.iter_mut().zip(array.shape()) {
            *size = dim;
        }
        match array.as_slice() {
            Some(data) => Self::from_slice(py, data, shape),
            None => {
                let data: Vec<T> = array.iter().copied().collect();
                Self::from_slice(py, &data, shape)
            }
        }
    }

    /// A copy of the tensor as an `ndarray` array. Needs no GIL.
    pub fn to_array(&self) -> Result<ndarray::Array<T, ndarray::Dim<[usize; R]>>> {
        let mut shape = [0_usize; R];
        for (size, dim) in shape.iter_mut().zip(self.shape()?) {
            *size = usize::try_from(dim).map_err(|_| Error::Data {
                op: "to_array",
                message: format!("dimension {dim} is negative"),
            })?;
        }
        ndarray::Array::from_shape_vec(shape, self.to_vec()?).map_err(|err| Error::Data {
            op: "to_array",
            message: err.to_string(),
        })
    }
}

impl<T: Element, const R: usize> fmt::Debug for Tensor<T, R>
where
    Rank<R>: SupportedRank,
{
    /// The alias's name (`TensorF32Cpu2D`) and the shape of a computed
    /// tensor; a pending one is not run.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = <Self as TensorType>::KIND.type_name();
        let mut out = f.debug_struct(&name);
        if self.core.is_computed() {
            out.field("shape", &self.shape());
        } else {
            out.field("pending", &true);
        }
        out.finish()
    }
}
include!(concat!(env!("OUT_DIR"), "/ranks.rs"));
