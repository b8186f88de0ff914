//! CPU tensors: the generic [`Tensor`] (element type and rank in the type)
//! and its aliases (`TensorF32Cpu2D`, …), over one untyped core: a handle,
//! or the promise of a producer that computes it (a fused call), plus the
//! context it belongs to.

mod element;
mod promise;
mod typed;

pub(crate) use promise::{Fulfilment, Producer, Promise};

pub use element::Element;
pub use typed::{Rank, SupportedRank, Tensor, TensorType};

/// The public names of the tensor types: `Tensor<Element>Cpu<Rank>D`,
/// generated from the element types and ranks of the op table.
pub mod aliases {
    include!(concat!(env!("OUT_DIR"), "/tensors.rs"));
}

use std::sync::Arc;

use pyo3::Python;

use crate::binding::context::BoundContext;
use crate::error::{Error, Result};
use crate::safe::handle::OwnedHandle;
use crate::safe::host;
use crate::safe::status::Status;

/// The untyped core of every tensor type (not public API).
#[doc(hidden)]
pub struct Untyped {
    state: State,
    pub(crate) context: Arc<BoundContext>,
}

/// Computed, or promised.
enum State {
    Ready(Arc<OwnedHandle>),
    Promised(Arc<Promise>),
}

impl Untyped {
    /// A computed tensor.
    pub(crate) fn ready(handle: OwnedHandle, context: Arc<BoundContext>) -> Untyped {
        Untyped {
            state: State::Ready(Arc::new(handle)),
            context,
        }
    }

    /// A tensor a producer has yet to compute.
    pub(crate) fn promised(promise: Arc<Promise>, context: Arc<BoundContext>) -> Untyped {
        Untyped {
            state: State::Promised(promise),
            context,
        }
    }

    /// The promise behind the tensor, if it is one.
    pub(crate) fn as_promise(&self) -> Option<&Arc<Promise>> {
        match &self.state {
            State::Promised(promise) => Some(promise),
            State::Ready(_) => None,
        }
    }

    /// Whether the tensor's value exists (it is not promised, or its
    /// promise is fulfilled).
    pub(crate) fn is_computed(&self) -> bool {
        match &self.state {
            State::Ready(_) => true,
            State::Promised(promise) => promise.is_fulfilled(),
        }
    }

    /// The tensor's handle, computing it first if it is promised (which runs
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
            State::Promised(promise) => promise.resolve(),
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
    pub(crate) fn shape(&self, rank: usize) -> Result<Vec<i64>> {
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
    pub(crate) fn from_slice<T: Element>(
        py: Python<'_>,
        data: &[T],
        shape: &[usize],
    ) -> Result<Untyped> {
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
        let handle = host::new_handle(api, OP, T::DTYPE, &dims, T::bytes(data))?;
        Ok(Untyped::ready(handle, context))
    }

    /// A copy of the elements, row-major.
    pub(crate) fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        let api = self.context.wheel().api();
        host::read(api, self.handle()?, "to_vec", T::DTYPE, |count, fill| {
            T::read(count, fill)
        })
    }

    /// Another reference to the same tensor (its handle or its promise).
    pub(crate) fn shared(&self) -> Untyped {
        let state = match &self.state {
            State::Ready(handle) => State::Ready(Arc::clone(handle)),
            State::Promised(promise) => State::Promised(Arc::clone(promise)),
        };
        Untyped {
            state,
            context: Arc::clone(&self.context),
        }
    }
}
