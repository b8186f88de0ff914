//! Typed CPU tensors (element type and rank in the type): a handle, or the
//! pending output of a fused call (computed when first needed), plus the
//! context it belongs to.

use std::fmt;
use std::sync::Arc;

use rxt_tf_spec::{DType, TensorKind};

use pyo3::Python;

use crate::binding::context::BoundContext;
use crate::error::{Error, Result};
use crate::fused::Pending;
use crate::safe::handle::OwnedHandle;
use crate::safe::host::{self, Element};
use crate::safe::status::Status;

/// The untyped core of every public tensor type (unnameable outside the crate).
#[doc(hidden)]
pub struct Tensor {
    state: State,
    pub(crate) context: Arc<BoundContext>,
}

/// Computed, or to be computed by a fused call.
enum State {
    Ready(Arc<OwnedHandle>),
    Pending(Arc<Pending>),
}

impl Tensor {
    /// A computed tensor.
    pub(crate) fn ready(handle: OwnedHandle, context: Arc<BoundContext>) -> Tensor {
        Tensor {
            state: State::Ready(Arc::new(handle)),
            context,
        }
    }

    /// A tensor a fused call has yet to compute.
    pub(crate) fn pending(pending: Arc<Pending>, context: Arc<BoundContext>) -> Tensor {
        Tensor {
            state: State::Pending(pending),
            context,
        }
    }

    /// The pending output behind the tensor, if it is one.
    pub(crate) fn as_pending(&self) -> Option<&Arc<Pending>> {
        match &self.state {
            State::Pending(pending) => Some(pending),
            State::Ready(_) => None,
        }
    }

    /// Whether the tensor's value exists (it is not pending, or its fused
    /// call has run).
    pub(crate) fn is_computed(&self) -> bool {
        match &self.state {
            State::Ready(_) => true,
            State::Pending(pending) => pending.has_run(),
        }
    }

    /// The tensor's handle, computing it first if it is pending (which runs
    /// the fused call that produces it, or returns that call's error).
    pub(crate) fn handle(&self) -> Result<&OwnedHandle> {
        self.shared_handle_ref().map(|handle| &**handle)
    }

    /// As [`Tensor::handle`], shared.
    pub(crate) fn shared_handle(&self) -> Result<Arc<OwnedHandle>> {
        self.shared_handle_ref().map(Arc::clone)
    }

    fn shared_handle_ref(&self) -> Result<&Arc<OwnedHandle>> {
        match &self.state {
            State::Ready(handle) => Ok(handle),
            State::Pending(pending) => pending.resolve(),
        }
    }

    /// The handle, owned: taken when no one else shares it, else a new
    /// reference to the same tensor.
    pub(crate) fn into_handle(self) -> Result<OwnedHandle> {
        let shared = self.shared_handle()?;
        drop(self.state);
        match Arc::try_unwrap(shared) {
            Ok(handle) => Ok(handle),
            Err(shared) => {
                const OP: &str = "materialize";
                let status = Status::new(self.context.wheel().api(), OP)?;
                shared.share(&status, OP)
            }
        }
    }

    /// The tensor's shape.
    fn shape(&self, rank: usize) -> Result<Vec<i64>> {
        const OP: &str = "shape";
        let status = Status::new(self.context.wheel().api(), OP)?;
        (0..rank)
            .map(|index| {
                let index = i32::try_from(index).unwrap_or(i32::MAX);
                self.handle()?.dim(index, &status, OP)
            })
            .collect()
    }

    /// A new tensor on Python's current context holding a copy of `data`,
    /// of `shape` (whose product must be `data.len()`).
    fn from_slice<T: Element>(py: Python<'_>, data: &[T], shape: &[usize]) -> Result<Tensor> {
        const OP: &str = "from_slice";
        let mismatch = || Error::Data {
            op: OP,
            message: format!("{} values do not fill the shape {shape:?}", data.len()),
        };
        let count = shape
            .iter()
            .try_fold(1_usize, |count, &size| count.checked_mul(size))
            .ok_or_else(mismatch)?;
        if count != data.len() {
            return Err(Error::Data {
                op: OP,
                message: format!(
                    "{} values do not fill the shape {shape:?} ({count} values)",
                    data.len()
                ),
            });
        }
        let dims = shape
            .iter()
            .map(|&size| i64::try_from(size))
            .collect::<std::result::Result<Vec<i64>, _>>()
            .map_err(|_| mismatch())?;
        let context = BoundContext::current(py)?;
        let api = context.wheel().api();
        let handle = host::new_handle(api, OP, T::DTYPE, &dims, host::bytes_of(data))?;
        Ok(Tensor::ready(handle, context))
    }

    /// A copy of the elements, row-major.
    fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        host::read(self.context.wheel().api(), self.handle()?, "to_vec")
    }

    fn share(&self) -> Result<Tensor> {
        let state = match &self.state {
            State::Ready(handle) => State::Ready(Arc::clone(handle)),
            State::Pending(pending) => State::Pending(Arc::clone(pending)),
        };
        Ok(Tensor {
            state,
            context: Arc::clone(&self.context),
        })
    }
}

mod sealed {
    pub trait Sealed {}
}

/// An rxt-tf tensor type: element type and rank are part of the type.
/// Implemented by the tensor types of this crate only.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not an rxt-tf tensor",
    label = "expected an rxt-tf tensor such as `TensorF32Cpu2D`",
    note = "`#[inference]` tensor parameters and `tf!` operands are rxt-tf tensors"
)]
pub trait TensorType: sealed::Sealed + Sized {
    /// Element type and rank.
    const KIND: TensorKind;
    #[doc(hidden)]
    fn core(&self) -> &Tensor;
    #[doc(hidden)]
    fn from_core(core: Tensor) -> Self;
}

macro_rules! tensor_type {
    ($(#[$doc:meta])* $name:ident, $dtype:ident, $element:ty, $rank:literal) => {
        $(#[$doc])*
        pub struct $name(pub(crate) Tensor);

        impl sealed::Sealed for $name {}

        impl TensorType for $name {
            const KIND: TensorKind = TensorKind {
                dtype: DType::$dtype,
                rank: $rank,
            };
            fn core(&self) -> &Tensor {
                &self.0
            }
            fn from_core(core: Tensor) -> Self {
                $name(core)
            }
        }

        impl $name {
            /// The size of each dimension.
            pub fn shape(&self) -> Result<Vec<i64>> {
                self.0.shape($rank)
            }

            /// Another reference to the same tensor; the data is shared, not copied.
            pub fn try_clone(&self) -> Result<Self> {
                self.0.share().map($name)
            }

            #[doc = concat!(
                "A new tensor holding a copy of `data` (row-major) in `shape`, on ",
                "Python's eager context. Fails with a `ValueError` when the length ",
                "of `data` is not the product of `shape`."
            )]
            pub fn from_slice(
                py: Python<'_>,
                data: &[$element],
                shape: [usize; $rank],
            ) -> Result<Self> {
                Tensor::from_slice(py, data, &shape).map($name)
            }

            /// A copy of the elements, row-major. Needs no GIL.
            pub fn to_vec(&self) -> Result<Vec<$element>> {
                self.0.to_vec()
            }

            /// A new tensor holding a copy of `array` (any memory layout), on
            /// Python's eager context.
            #[cfg(feature = "ndarray")]
            pub fn from_array(
                py: Python<'_>,
                array: ndarray::ArrayView<'_, $element, ndarray::Dim<[usize; $rank]>>,
            ) -> Result<Self> {
                let mut shape = [0_usize; $rank];
                for (size, &dim) in shape.iter_mut().zip(array.shape()) {
                    *size = dim;
                }
                match array.as_slice() {
                    Some(data) => Self::from_slice(py, data, shape),
                    None => {
                        let data: Vec<$element> = array.iter().copied().collect();
                        Self::from_slice(py, &data, shape)
                    }
                }
            }

            /// A copy of the tensor as an `ndarray` array. Needs no GIL.
            #[cfg(feature = "ndarray")]
            pub fn to_array(
                &self,
            ) -> Result<ndarray::Array<$element, ndarray::Dim<[usize; $rank]>>> {
                let mut shape = [0_usize; $rank];
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

        impl fmt::Debug for $name {
            /// The shape of a computed tensor; a pending one is not run.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut out = f.debug_struct(stringify!($name));
                if self.0.is_computed() {
                    out.field("shape", &self.shape());
                } else {
                    out.field("pending", &true);
                }
                out.finish()
            }
        }
    };
}

tensor_type!(
    /// A rank-2 float32 tensor on `CPU:0`, owned by Rust. Crosses the Python
    /// boundary as a `tf.Tensor` (EagerTensor) without copying its data.
    TensorF32Cpu2D,
    F32,
    f32,
    2
);
tensor_type!(
    /// A rank-1 float32 tensor on `CPU:0`, owned by Rust. Crosses the Python
    /// boundary as a `tf.Tensor` (EagerTensor) without copying its data.
    TensorF32Cpu1D,
    F32,
    f32,
    1
);
tensor_type!(
    /// A rank-1 int64 tensor on `CPU:0` (what `argmax` returns), owned by
    /// Rust. Crosses the Python boundary as an int64 `tf.Tensor`.
    TensorI64Cpu1D,
    I64,
    i64,
    1
);
