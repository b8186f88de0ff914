//! LiteRT's C API as `libLiteRt.so` of `ai-edge-litert` 2.3.0 exports it
//! (headers `litert/c/*.h`): the types, constants and function table this
//! crate calls, resolved once from that image (no `Option` fields).

#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_void, CStr};

use crate::error::Result;
use crate::sys::Image;

/// `LiteRtStatus`: 0 is success.
pub type LiteRtStatus = c_int;
/// `kLiteRtStatusOk`.
pub const STATUS_OK: LiteRtStatus = 0;

/// `kLiteRtHwAcceleratorCpu` (XNNPACK).
pub const ACCELERATOR_CPU: c_int = 1;
/// `LITERT_HOST_MEMORY_BUFFER_ALIGNMENT`: host buffers start at multiples
/// of it (an ABI constant; LiteRT refuses others).
pub const HOST_ALIGNMENT: usize = 64;
/// `LITERT_TENSOR_MAX_RANK`.
pub const MAX_RANK: usize = 8;

/// `LiteRtElementType` of `float32` (`kLiteRtElementTypeFloat32`).
pub const ELEMENT_FLOAT32: c_int = 1;
/// `kLiteRtElementTypeInt32`.
pub const ELEMENT_INT32: c_int = 2;
/// `kLiteRtElementTypeInt64`.
pub const ELEMENT_INT64: c_int = 4;
/// `kLiteRtElementTypeBool`.
pub const ELEMENT_BOOL: c_int = 6;

/// `LiteRtEnvOptionTag` `kLiteRtEnvOptionTagAutoRegisterAccelerators`
/// (an accelerator bit set: CPU only keeps LiteRT from probing for GPUs
/// and NPUs).
pub const ENV_AUTO_REGISTER_ACCELERATORS: c_int = 24;
/// `kLiteRtEnvOptionTagMinLoggerSeverity` (3: errors only).
pub const ENV_MIN_LOGGER_SEVERITY: c_int = 25;
/// `kLiteRtAnyTypeInt`.
pub const ANY_INT: c_int = 2;

/// `LiteRtLayout`: rank (bits 0–6) and `has_strides` (bit 7) in one word,
/// then dimensions and strides (68 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LiteRtLayout {
    /// `rank | has_strides << 7`.
    pub bits: u32,
    /// The sizes (`-1` for a dynamic one).
    pub dimensions: [i32; MAX_RANK],
    /// Strides, read only when `has_strides`.
    pub strides: [u32; MAX_RANK],
}

/// `LiteRtRankedTensorType` (72 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LiteRtRankedTensorType {
    /// A `LiteRtElementType`.
    pub element_type: c_int,
    /// Its layout.
    pub layout: LiteRtLayout,
}

/// `LiteRtAny` holding an integer (its union is 8 bytes at offset 8).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LiteRtAny {
    /// A `LiteRtAnyType`.
    pub kind: c_int,
    /// The integer.
    pub int_value: i64,
}

/// `LiteRtEnvOption` (24 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct LiteRtEnvOption {
    /// A `LiteRtEnvOptionTag`.
    pub tag: c_int,
    /// Its value.
    pub value: LiteRtAny,
}

/// An opaque LiteRT handle (`LiteRtEnvironment`, `LiteRtModel`, …).
pub type Handle = *mut c_void;

/// `LiteRtHostMemoryDeallocator`.
pub type Deallocator = Option<unsafe extern "C" fn(*mut c_void)>;

/// A payload destructor of `LiteRtCreateOpaqueOptions`.
pub type PayloadDestructor = unsafe extern "C" fn(*mut c_void);

macro_rules! litert_table {
    ($( $field:ident : fn($($arg:ty),*) $(-> $ret:ty)?; )*) => {
        /// Function pointers into `libLiteRt.so`, each resolved from it and
        /// proven to be defined there. Holds the image open.
        pub struct LitertApi {
            $(
                #[doc = concat!("`", stringify!($field), "`")]
                pub $field: unsafe extern "C" fn($($arg),*) $(-> $ret)?,
            )*
            /// The image the pointers point into.
            pub image: Image,
        }

        impl LitertApi {
            /// Every symbol this table resolves.
            pub const SYMBOLS: &'static [&'static str] = &[$(stringify!($field)),*];

            /// Resolves every function from `image`.
            pub fn load(image: Image) -> Result<LitertApi> {
                Ok(LitertApi {
                    $(
                        $field: {
                            let name = concat!(stringify!($field), "\0");
                            let c_name = CStr::from_bytes_with_nul(name.as_bytes())
                                .map_err(|_| crate::Error::MissingSymbol {
                                    symbol: name.to_owned(),
                                    image: image.path().display().to_string(),
                                })?;
                            let address = image.resolve(c_name)?;
                            // SAFETY: the symbol is the C function of LiteRT
                            // 2.3.0's headers with exactly this signature.
                            unsafe {
                                std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($arg),*) $(-> $ret)?>(
                                    address.as_ptr(),
                                )
                            }
                        },
                    )*
                    image,
                })
            }
        }
    };
}

litert_table! {
    LiteRtCreateEnvironment: fn(c_int, *const LiteRtEnvOption, *mut Handle) -> LiteRtStatus;
    LiteRtDestroyEnvironment: fn(Handle);
    LiteRtCreateModelFromBuffer: fn(Handle, *const c_void, usize, *mut Handle) -> LiteRtStatus;
    LiteRtDestroyModel: fn(Handle);
    LiteRtGetModelSignature: fn(Handle, usize, *mut Handle) -> LiteRtStatus;
    LiteRtGetNumSignatureInputs: fn(Handle, *mut usize) -> LiteRtStatus;
    LiteRtGetNumSignatureOutputs: fn(Handle, *mut usize) -> LiteRtStatus;
    LiteRtGetSignatureInputTensorByIndex: fn(Handle, usize, *mut Handle) -> LiteRtStatus;
    LiteRtGetSignatureOutputTensorByIndex: fn(Handle, usize, *mut Handle) -> LiteRtStatus;
    LiteRtGetRankedTensorType: fn(Handle, *mut LiteRtRankedTensorType) -> LiteRtStatus;
    LiteRtCreateOptions: fn(*mut Handle) -> LiteRtStatus;
    LiteRtDestroyOptions: fn(Handle);
    LiteRtSetOptionsHardwareAccelerators: fn(Handle, c_int) -> LiteRtStatus;
    LiteRtCreateOpaqueOptions: fn(*const c_char, *mut c_void, PayloadDestructor, *mut Handle) -> LiteRtStatus;
    LiteRtDestroyOpaqueOptions: fn(Handle);
    LiteRtAddOpaqueOptions: fn(Handle, Handle) -> LiteRtStatus;
    LiteRtCreateCompiledModel: fn(Handle, Handle, Handle, *mut Handle) -> LiteRtStatus;
    LiteRtDestroyCompiledModel: fn(Handle);
    LiteRtCompiledModelResizeInputTensor: fn(Handle, usize, usize, *const c_int, usize) -> LiteRtStatus;
    LiteRtGetCompiledModelOutputTensorLayouts: fn(Handle, usize, usize, *mut LiteRtLayout, bool) -> LiteRtStatus;
    LiteRtRunCompiledModel: fn(Handle, usize, usize, *mut Handle, usize, *mut Handle) -> LiteRtStatus;
    LiteRtCreateTensorBufferFromHostMemory: fn(*const LiteRtRankedTensorType, *mut c_void, usize, Deallocator, *mut Handle) -> LiteRtStatus;
    LiteRtDestroyTensorBuffer: fn(Handle);
}
