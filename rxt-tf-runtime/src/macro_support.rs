//! What `tf!` and `#[inference]` expand to. Not public API: outside semver.
//!
//! Each op's operands are bounded by a trait that only the tensor types of
//! the right rank implement, so a wrong rank is a type error at the operand,
//! with a message naming the op (no post-monomorphization checks).

use crate::error::{Error, Result};
use crate::ops;
use crate::tensor::{FloatTensor, TensorF32Cpu1D, TensorF32Cpu2D};

/// A rank-2 operand of `matmul`.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `matmul` needs rank-2 × rank-2 tensors; `{Self}` is not a rank-2 tensor",
    label = "expected `TensorF32Cpu2D`",
    note = "`matmul` supports only `TensorF32Cpu2D` × `TensorF32Cpu2D` (no batched or rank-1 matmul)"
)]
pub trait MatmulOperand {
    /// The operand as the rank-2 tensor it is.
    fn as_2d(&self) -> &TensorF32Cpu2D;
}

/// The rank-2 operand of `relu` and `sigmoid`.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `relu` and `sigmoid` need a rank-2 tensor; `{Self}` is not one",
    label = "expected `TensorF32Cpu2D`",
    note = "activations support only `TensorF32Cpu2D`"
)]
pub trait ActivationOperand {
    /// The operand as the rank-2 tensor it is.
    fn as_2d(&self) -> &TensorF32Cpu2D;
}

/// The rank-2 operand of `reduce_mean(_, axis = 1)`.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `reduce_mean(_, axis = 1)` needs a rank-2 tensor; `{Self}` is not one",
    label = "expected `TensorF32Cpu2D`",
    note = "`reduce_mean` supports only `TensorF32Cpu2D` reduced over axis 1"
)]
pub trait ReduceMeanOperand {
    /// The operand as the rank-2 tensor it is.
    fn as_2d(&self) -> &TensorF32Cpu2D;
}

/// An operand of `add` / `+`: a tensor, or a reference to one.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `add` needs rxt-tf tensors; `{Self}` is not one",
    label = "expected `TensorF32Cpu2D` or `TensorF32Cpu1D`",
    note = "supported pairs: 2D + 2D, 1D + 1D, 2D + 1D, 1D + 2D (scalars are not supported)"
)]
pub trait AddOperand {
    /// The tensor type behind the operand.
    type Tensor: FloatTensor;
    /// The operand as the tensor it is.
    fn tensor(&self) -> &Self::Tensor;
}

macro_rules! rank_2_operand {
    ($($trait:ident),*) => {$(
        impl $trait for TensorF32Cpu2D {
            fn as_2d(&self) -> &TensorF32Cpu2D {
                self
            }
        }
        impl<T: $trait + ?Sized> $trait for &T {
            fn as_2d(&self) -> &TensorF32Cpu2D {
                (**self).as_2d()
            }
        }
    )*};
}
rank_2_operand!(MatmulOperand, ActivationOperand, ReduceMeanOperand);

macro_rules! add_operand {
    ($($tensor:ty),*) => {$(
        impl AddOperand for $tensor {
            type Tensor = $tensor;
            fn tensor(&self) -> &$tensor {
                self
            }
        }
    )*};
}
add_operand!(TensorF32Cpu2D, TensorF32Cpu1D);

impl<T: AddOperand + ?Sized> AddOperand for &T {
    type Tensor = T::Tensor;
    fn tensor(&self) -> &T::Tensor {
        (**self).tensor()
    }
}

/// `tf!(matmul(a, b))`.
pub fn matmul<A: MatmulOperand, B: MatmulOperand>(a: &A, b: &B) -> Result<TensorF32Cpu2D> {
    ops::matmul(a.as_2d(), b.as_2d())
}

/// `tf!(relu(x))`.
pub fn relu<X: ActivationOperand>(x: &X) -> Result<TensorF32Cpu2D> {
    ops::relu(x.as_2d())
}

/// `tf!(sigmoid(x))`.
pub fn sigmoid<X: ActivationOperand>(x: &X) -> Result<TensorF32Cpu2D> {
    ops::sigmoid(x.as_2d())
}

/// `tf!(add(a, b))` and `tf!(a + b)`.
pub fn add<L, R>(a: &L, b: &R) -> Result<<L::Tensor as ops::AddRanks<R::Tensor>>::Output>
where
    L: AddOperand,
    R: AddOperand,
    L::Tensor: ops::AddRanks<R::Tensor>,
{
    ops::add(a.tensor(), b.tensor())
}

/// `tf!(reduce_mean(x, axis = 1))`.
pub fn reduce_mean_axis1<X: ReduceMeanOperand>(x: &X) -> Result<TensorF32Cpu1D> {
    ops::reduce_mean_axis1(x.as_2d())
}

/// Asserts at compile time that a `#[inference]` parameter type is an rxt-tf tensor.
pub fn assert_tensor<T: FloatTensor>() {}

/// Stands in for an invalid `tf!` invocation after its `compile_error!`, so
/// the surrounding code type-checks; never reached (the build has failed).
pub fn unreachable_result<T>() -> Result<T> {
    Err(Error::Python {
        step: "an invalid tf! invocation",
        detail: String::from("this code did not compile"),
    })
}
