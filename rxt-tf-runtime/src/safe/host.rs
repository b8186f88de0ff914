//! Host memory to and from tensor handles: a new handle holding a copy of
//! bytes (constants, `from_slice`), and a copy of a handle's elements back
//! (`to_vec`). The only places rxt-tf copies tensor data.

use std::ffi::c_int;

use rxt_tf_spec::DType;

use crate::error::{Error, Result};
use crate::safe::handle::{null_handle, null_pointer, OwnedHandle};
use crate::safe::status::Status;
use crate::sys::Api;

/// A new host tensor handle of `dtype` and `dims` holding a copy of `bytes`,
/// whose length must be the element count times the element size.
pub(crate) fn new_handle(
    api: &'static Api,
    op: &'static str,
    dtype: DType,
    dims: &[i64],
    bytes: &[u8],
) -> Result<OwnedHandle> {
    let rank = c_int::try_from(dims.len()).map_err(|_| Error::limit(op, "the rank of a tensor"))?;
    // SAFETY: `dims` holds `rank` sizes; the caller made `bytes.len()` their
    // product times the element size.
    let tensor = unsafe { (api.TF_AllocateTensor)(dtype.code(), dims.as_ptr(), rank, bytes.len()) };
    if tensor.is_null() {
        return Err(null_pointer(op, "TF_AllocateTensor"));
    }
    if !bytes.is_empty() {
        // SAFETY: `tensor` is a live tensor.
        let buffer = unsafe { (api.TF_TensorData)(tensor) }.cast::<u8>();
        // SAFETY: its buffer is `bytes.len()` bytes long (allocated just
        // above) and cannot overlap `bytes`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer, bytes.len()) };
    }
    let handle = Status::new(api, op).and_then(|status| {
        // SAFETY: `tensor` is live; the handle shares its buffer by reference.
        let raw = unsafe { (api.TFE_NewTensorHandle)(tensor, status.as_ptr()) };
        status.check(op)?;
        // SAFETY: on success the new handle is ours to own.
        unsafe { OwnedHandle::from_raw(api, raw) }.ok_or_else(|| null_handle(op))
    });
    // SAFETY: our reference to `tensor` is released once; the handle keeps
    // its own reference to the buffer.
    unsafe { (api.TF_DeleteTensor)(tensor) };
    handle
}

/// The elements of `handle`, which must hold `dtype`s, row-major: `collect`
/// gets their count and a function copying their bytes into a buffer of
/// that many elements (at most; native order).
pub(crate) fn read<V>(
    api: &'static Api,
    handle: &OwnedHandle,
    op: &'static str,
    dtype: DType,
    collect: impl FnOnce(usize, &mut dyn FnMut(&mut [u8])) -> V,
) -> Result<V> {
    if handle.dtype() != dtype.code() {
        return Err(Error::Dtype {
            expected: dtype.name(),
            found: crate::sys::dtype_name(handle.dtype()),
        });
    }
    let status = Status::new(api, op)?;
    // SAFETY: the handle is live; its op has run (the context is synchronous).
    let tensor = unsafe { (api.TFE_TensorHandleResolve)(handle.as_ptr(), status.as_ptr()) };
    status.check(op)?;
    if tensor.is_null() {
        return Err(null_pointer(op, "TFE_TensorHandleResolve"));
    }
    // SAFETY: `tensor` is a live host tensor.
    let bytes = unsafe { (api.TF_TensorByteSize)(tensor) };
    let count = bytes / dtype.size();
    let values = collect(count, &mut |out: &mut [u8]| {
        if out.is_empty() {
            return;
        }
        // SAFETY: `tensor` is live.
        let data = unsafe { (api.TF_TensorData)(tensor) }.cast::<u8>();
        let len = out.len().min(bytes);
        // SAFETY: the buffer holds `bytes` bytes, `out` at least `len`, and
        // `len <= bytes`; the regions do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(data, out.as_mut_ptr(), len) };
    });
    // SAFETY: the resolved tensor is ours and released once.
    unsafe { (api.TF_DeleteTensor)(tensor) };
    Ok(values)
}

/// A scalar value as `tf!` or a run-time `rxt_tf::ops::Scalar`
/// gives it, before it takes an element type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
}

/// A scalar of one element type, by its native bytes: what a scalar
/// constant is made of and cached by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScalarBits {
    pub(crate) dtype: DType,
    bits: [u8; 8],
}

impl ScalarBits {
    /// `number` as a `dtype` scalar, converted as TensorFlow converts a
    /// Python number: an error when it does not fit (a float for an integer
    /// type, an integer out of range, a number for a bool).
    pub(crate) fn new(op: &'static str, number: Number, dtype: DType) -> Result<ScalarBits> {
        ScalarBits::converted(op, number, dtype, Rounding::PythonFloat)
    }

    /// A typed value (a `Scalar`'s, a composite's constant) as a `dtype`
    /// scalar, as `tf.cast` converts it: floats round to the nearest
    /// without flushing a subnormal (a half value already of `dtype` keeps
    /// its bits); otherwise as [`ScalarBits::new`].
    pub(crate) fn typed(op: &'static str, number: Number, dtype: DType) -> Result<ScalarBits> {
        ScalarBits::converted(op, number, dtype, Rounding::Cast)
    }

    fn converted(
        op: &'static str,
        number: Number,
        dtype: DType,
        rounding: Rounding,
    ) -> Result<ScalarBits> {
        let mut bits = [0_u8; 8];
        let misfit = || Error::Data {
            op,
            message: format!(
                "the scalar {number:?} does not fit a {} tensor",
                dtype.name()
            ),
        };
        // Floats as TensorFlow converts them, integers by width.
        let wide = dtype.size() == 8;
        match number {
            Number::Float(float) if dtype.is_float() => {
                float_bits(op, float, dtype, rounding, &mut bits)?;
            }
            // Through a double, as Python's int becomes a float first.
            Number::Int(int) if dtype.is_float() => {
                float_bits(op, int as f64, dtype, rounding, &mut bits)?;
            }
            Number::Int(int) if dtype != DType::Bool => {
                if wide {
                    bits.copy_from_slice(&int.to_ne_bytes());
                } else {
                    let narrow = i32::try_from(int).map_err(|_| misfit())?;
                    bits[..4].copy_from_slice(&narrow.to_ne_bytes());
                }
            }
            Number::Bool(flag) if dtype == DType::Bool => bits[0] = u8::from(flag),
            _ => return Err(misfit()),
        }
        Ok(ScalarBits { dtype, bits })
    }

    /// The scalar's bytes, as its tensor holds them.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bits[..self.dtype.size()]
    }
}

/// How a float becomes a narrower float type.
#[derive(Clone, Copy)]
enum Rounding {
    /// As TensorFlow converts a Python float ([`python_float`]).
    PythonFloat,
    /// As the `Cast` kernel rounds: through float32 to the nearest, a
    /// bfloat16 subnormal kept.
    Cast,
}

/// `value`'s bits as a `dtype` float, rounded as `rounding` says; an error
/// for a type that is not a float (callers check).
fn float_bits(
    op: &'static str,
    value: f64,
    dtype: DType,
    rounding: Rounding,
    bits: &mut [u8; 8],
) -> Result<()> {
    let single = python_float::to_f32(value);
    match (dtype, rounding) {
        (DType::F64, _) => bits.copy_from_slice(&value.to_ne_bytes()),
        (DType::F32, _) => bits[..4].copy_from_slice(&single.to_ne_bytes()),
        (DType::BF16, Rounding::PythonFloat) => {
            bits[..2].copy_from_slice(&python_float::to_bf16(value).to_ne_bytes());
        }
        (DType::BF16, Rounding::Cast) => {
            bits[..2].copy_from_slice(&half::bf16::from_f32(single).to_ne_bytes());
        }
        (DType::F16, _) => bits[..2].copy_from_slice(&python_float::to_f16(value).to_ne_bytes()),
        (DType::I32 | DType::I64 | DType::Bool, _) => {
            return Err(Error::Data {
                op,
                message: format!("{value} cannot become a {} value", dtype.name()),
            })
        }
    }
    Ok(())
}

/// A Python float as TensorFlow converts it to a tensor of each float
/// type: float64 exactly; the others through the nearest float32 (rounding
/// twice; infinite past its range); bfloat16 flushing a subnormal float32
/// to a zero of its sign (measured on the wheel: `tf.constant(3e-39,
/// tf.bfloat16)` is 0, though `tf.cast` of the float32 keeps the
/// subnormal).
pub(crate) mod python_float {
    use half::{bf16, f16};

    /// To float32: the nearest.
    #[allow(clippy::cast_possible_truncation)]
    pub(crate) fn to_f32(value: f64) -> f32 {
        value as f32
    }

    /// To float64: itself.
    pub(crate) fn to_f64(value: f64) -> f64 {
        value
    }

    /// To bfloat16: through float32, a subnormal one flushed to zero.
    pub(crate) fn to_bf16(value: f64) -> bf16 {
        let single = to_f32(value);
        if single.is_subnormal() {
            bf16::from_f32(0.0_f32.copysign(single))
        } else {
            bf16::from_f32(single)
        }
    }

    /// To float16: through float32.
    pub(crate) fn to_f16(value: f64) -> f16 {
        f16::from_f32(to_f32(value))
    }
}
