//! The element types of tensors: the Rust type of each `DType` and how its
//! values are laid out in TensorFlow's host buffers.

use std::fmt::Debug;

use rxt_tf_spec::DType;

use crate::safe::host::Number;

pub(crate) mod sealed {
    /// Only this crate implements the tensor traits.
    pub trait Sealed {}
}

/// The Rust type of a tensor element type (`f32`, `i32`, …: the element
/// types of the `Tensor*Cpu*D` aliases). Implemented by this crate only.
#[diagnostic::on_unimplemented(
    message = "rxt-tf: `{Self}` is not a tensor element type",
    label = "not an element type of rxt-tf",
    note = "the element types are those of the `Tensor*Cpu*D` aliases (`f32` of `TensorF32Cpu2D`, …)"
)]
pub trait Element: sealed::Sealed + Copy + Debug + PartialEq + Send + Sync + 'static {
    /// The TensorFlow element type.
    const DTYPE: DType;

    /// The elements' bytes as TensorFlow stores them (native order).
    #[doc(hidden)]
    fn bytes(data: &[Self]) -> &[u8];

    /// `count` elements, from the bytes `fill` writes (native order).
    #[doc(hidden)]
    fn read(count: usize, fill: impl FnOnce(&mut [u8])) -> Vec<Self>;

    /// The value as a scalar operand.
    #[doc(hidden)]
    fn number(self) -> Number;
}

/// Implements [`Element`] for a plain number type.
macro_rules! number {
    ($rust:ty, $dtype:ident, $number:ident) => {
        impl sealed::Sealed for $rust {}

        impl Element for $rust {
            const DTYPE: DType = DType::$dtype;

            fn bytes(data: &[Self]) -> &[u8] {
                // SAFETY: a number type has no padding (the half types are
                // `#[repr(transparent)]` over `u16`), so all the slice's
                // bytes are initialised; `u8` has no alignment requirement.
                unsafe {
                    std::slice::from_raw_parts(
                        data.as_ptr().cast::<u8>(),
                        std::mem::size_of_val(data),
                    )
                }
            }

            fn read(count: usize, fill: impl FnOnce(&mut [u8])) -> Vec<Self> {
                let mut values: Vec<$rust> = vec![<$rust>::default(); count];
                // SAFETY: the vector's `count` initialised elements are
                // `size_of_val` bytes with no padding, and every bit pattern
                // is a valid value of a number type (the half types wrap a
                // `u16`, `#[repr(transparent)]`).
                let bytes = unsafe {
                    std::slice::from_raw_parts_mut(
                        values.as_mut_ptr().cast::<u8>(),
                        std::mem::size_of_val(values.as_slice()),
                    )
                };
                fill(bytes);
                values
            }

            fn number(self) -> Number {
                Number::$number(self.into())
            }
        }
    };
}

impl sealed::Sealed for bool {}

impl Element for bool {
    const DTYPE: DType = DType::Bool;

    fn bytes(data: &[Self]) -> &[u8] {
        // SAFETY: a `bool` is one byte holding 0 or 1, a valid `u8`, which
        // is how TensorFlow stores its bools.
        unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len()) }
    }

    fn read(count: usize, fill: impl FnOnce(&mut [u8])) -> Vec<Self> {
        // Read as bytes: only 0 and 1 are valid `bool`s.
        let mut bytes = vec![0_u8; count];
        fill(&mut bytes);
        bytes.into_iter().map(|byte| byte != 0).collect()
    }

    fn number(self) -> Number {
        Number::Bool(self)
    }
}

include!(concat!(env!("OUT_DIR"), "/elements.rs"));
