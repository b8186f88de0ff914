//! Typed CPU tensors (element type and rank in the type): an owned handle
//! plus the context it belongs to.

use std::fmt;
use std::sync::Arc;

use rxt_tf_spec::{DType, TensorKind};

use crate::binding::context::BoundContext;
use crate::error::Result;
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;

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
    ($(#[$doc:meta])* $name:ident, $dtype:ident, $rank:literal) => {
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
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let shape = self.shape().unwrap_or_default();
                f.debug_struct(stringify!($name)).field("shape", &shape).finish()
            }
        }
    };
}

tensor_type!(
    /// A rank-2 float32 tensor on `CPU:0`, owned by Rust. Crosses the Python
    /// boundary as a `tf.Tensor` (EagerTensor) without copying its data.
    TensorF32Cpu2D,
    F32,
    2
);
tensor_type!(
    /// A rank-1 float32 tensor on `CPU:0`, owned by Rust. Crosses the Python
    /// boundary as a `tf.Tensor` (EagerTensor) without copying its data.
    TensorF32Cpu1D,
    F32,
    1
);
tensor_type!(
    /// A rank-1 int64 tensor on `CPU:0` (what `argmax` returns), owned by
    /// Rust. Crosses the Python boundary as an int64 `tf.Tensor`.
    TensorI64Cpu1D,
    I64,
    1
);
