//! Rank-typed float32 CPU tensors: an owned handle plus the context it
//! belongs to.

use std::fmt;
use std::sync::Arc;

use crate::context::BoundContext;
use crate::error::Result;
use crate::handle::OwnedHandle;
use crate::status::Status;

/// The untyped core of every public tensor type (unnameable outside the crate).
#[doc(hidden)]
pub struct Tensor {
    pub(crate) handle: OwnedHandle,
    pub(crate) context: Arc<BoundContext>,
}

impl Tensor {
    /// The tensor's shape.
    fn shape(&self, rank: usize) -> Result<Vec<i64>> {
        const OP: &str = "shape";
        let status = Status::new(self.context.wheel().api(), OP)?;
        (0..rank)
            .map(|index| {
                let index = i32::try_from(index).unwrap_or(i32::MAX);
                self.handle.dim(index, &status, OP)
            })
            .collect()
    }

    fn share(&self) -> Result<Tensor> {
        const OP: &str = "clone";
        let status = Status::new(self.context.wheel().api(), OP)?;
        Ok(Tensor {
            handle: self.handle.share(&status, OP)?,
            context: Arc::clone(&self.context),
        })
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A float32 tensor on this process's `CPU:0` whose rank is part of its type.
/// Implemented by [`TensorF32Cpu1D`] and [`TensorF32Cpu2D`] only.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not an rxt-tf tensor",
    label = "expected `TensorF32Cpu2D` or `TensorF32Cpu1D`",
    note = "`tf!` operands are rxt-tf tensors; scalars and other types are not supported"
)]
pub trait FloatTensor: sealed::Sealed + Sized {
    /// The tensor's rank.
    const RANK: usize;
    #[doc(hidden)]
    fn core(&self) -> &Tensor;
    #[doc(hidden)]
    fn from_core(core: Tensor) -> Self;

    /// The size of each dimension.
    fn shape(&self) -> Result<Vec<i64>> {
        self.core().shape(Self::RANK)
    }

    /// Another reference to the same tensor; the data is shared, not copied.
    fn try_clone(&self) -> Result<Self> {
        self.core().share().map(Self::from_core)
    }
}

macro_rules! float_tensor {
    ($(#[$doc:meta])* $name:ident, $rank:literal) => {
        $(#[$doc])*
        pub struct $name(pub(crate) Tensor);

        impl sealed::Sealed for $name {}

        impl FloatTensor for $name {
            const RANK: usize = $rank;
            fn core(&self) -> &Tensor {
                &self.0
            }
            fn from_core(core: Tensor) -> Self {
                $name(core)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let shape = self.shape().unwrap_or_default();
                f.debug_struct(stringify!($name)).field("shape", &shape).finish()
            }
        }
    };
}

float_tensor!(
    /// A rank-2 float32 tensor on `CPU:0`, owned by Rust. Crosses the Python
    /// boundary as a `tf.Tensor` (EagerTensor) without copying its data.
    TensorF32Cpu2D,
    2
);
float_tensor!(
    /// A rank-1 float32 tensor on `CPU:0`, owned by Rust. Crosses the Python
    /// boundary as a `tf.Tensor` (EagerTensor) without copying its data.
    TensorF32Cpu1D,
    1
);
