//! The lowest layer: C types of the TFE API and the table of function
//! pointers, resolved eagerly from the three wheel images (no `Option`
//! fields, nothing left to resolve at call time).

#![allow(non_snake_case, non_camel_case_types)]

mod dtype;
mod image;

use std::ffi::{c_char, c_int, c_uchar, c_void};

use pyo3::ffi::PyObject;

pub use dtype::dtype_name;
pub use image::Image;

use crate::error::Result;

macro_rules! opaque {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        pub struct $name {
            _opaque: [u8; 0],
            _pinned: core::marker::PhantomData<(*mut u8, core::marker::PhantomPinned)>,
        }
    )*};
}

opaque! {
    /// `TFE_Context`: an eager context.
    TFE_Context;
    /// `TFE_Op`: an op being built.
    TFE_Op;
    /// `TFE_TensorHandle`: a reference to an eager tensor.
    TFE_TensorHandle;
    /// `TF_Status`: an error code and message.
    TF_Status;
    /// `TF_Tensor`: a host tensor.
    TF_Tensor;
    /// `TFE_Executor`: a context's executor for one thread.
    TFE_Executor;
    /// `TF_Graph`: a graph being built.
    TF_Graph;
    /// `TF_OperationDescription`: a graph node being built.
    TF_OperationDescription;
    /// `TF_Operation`: a finished graph node.
    TF_Operation;
    /// `TF_Function`: a function made of a graph.
    TF_Function;
    /// `TF_FunctionOptions`: options of `TF_GraphToFunction` (always null here).
    TF_FunctionOptions;
}

/// `TF_Output`: output `index` of the graph node `oper`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TF_Output {
    /// The node.
    pub oper: *mut TF_Operation,
    /// Which of its outputs.
    pub index: c_int,
}

/// The wheel's C++ `EagerContextThreadLocalData`
/// (`tensorflow/python/eager/pywrap_tfe.h` of 2.21.0): what Python's
/// `context()._thread_local_data` reads. Only read, through a pointer the
/// wheel returns; each object field is a `Safe_PyObjectPtr` (one pointer,
/// the record's own reference, null or an object).
#[repr(C)]
pub struct EagerContextThreadLocalData {
    /// Whether this thread executes eagerly (false while a graph is built):
    /// a C++ `bool`, read as a byte.
    pub is_eager: u8,
    /// Whether op callbacks are being invoked (a C++ `bool`).
    pub invoking_op_callbacks: u8,
    /// The device scope's name (`tf.device`): an empty string without one.
    pub device_name: *mut PyObject,
    /// The name scope's name.
    pub scope_name: *mut PyObject,
    /// The device scope's `DeviceSpec`.
    pub device_spec: *mut PyObject,
    /// The function call options.
    pub function_call_options: *mut PyObject,
    /// The thread's executor.
    pub executor: *mut PyObject,
    /// The op callbacks: a list of this thread's own.
    pub op_callbacks: *mut PyObject,
}

/// `TF_DataType`.
pub type TF_DataType = c_int;
/// `TF_Code`.
pub type TF_Code = c_int;

/// `TF_OK`.
pub const TF_OK: TF_Code = 0;

/// The three wheel images, kept open for as long as the [`Api`] lives.
#[derive(Debug)]
pub struct Images {
    /// `libtensorflow_cc`: `TF_Version` and the `TFE_*` API.
    pub cc: Image,
    /// `libtensorflow_framework`: statuses and host tensors.
    pub framework: Image,
    /// `lib_pywrap_tensorflow_common`: the private EagerTensor bridge.
    pub pywrap: Image,
}

macro_rules! api_table {
    ($(
        $image:ident {
            $( $field:ident $(= $symbol:literal)? : fn($($arg:ty),*) $(-> $ret:ty)?; )*
        }
    )*) => {
        /// Function pointers into the wheel, each resolved from the image that
        /// owns it. Holds the images open.
        pub struct Api {
            $($(
                #[doc = concat!("`", api_table!(@name $field $($symbol)?), "`")]
                pub $field: unsafe extern "C" fn($($arg),*) $(-> $ret)?,
            )*)*
            /// The images the pointers point into.
            pub images: Images,
        }

        impl Api {
            /// Every symbol name this table resolves, with the image owning it.
            pub const SYMBOLS: &'static [(&'static str, &'static str)] = &[
                $($( (stringify!($image), api_table!(@name $field $($symbol)?)), )*)*
            ];

            /// Resolves every function from its owning image.
            pub fn load(images: Images) -> Result<Api> {
                Ok(Api {
                    $($(
                        $field: {
                            let name = concat!(api_table!(@name $field $($symbol)?), "\0");
                            let c_name = std::ffi::CStr::from_bytes_with_nul(name.as_bytes())
                                .map_err(|_| crate::Error::MissingSymbol {
                                    symbol: name.to_owned(),
                                    image: images.$image.path().display().to_string(),
                                })?;
                            let address = images.$image.resolve(c_name)?;
                            // SAFETY: the symbol is the C function declared by
                            // the wheel's headers (or, for the bridge, its
                            // mangled C++ name) with exactly this signature.
                            unsafe {
                                std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($arg),*) $(-> $ret)?>(
                                    address.as_ptr(),
                                )
                            }
                        },
                    )*)*
                    images,
                })
            }
        }
    };
    (@name $field:ident $symbol:literal) => { $symbol };
    (@name $field:ident) => { stringify!($field) };
}

api_table! {
    cc {
        TF_Version: fn() -> *const c_char;
        TFE_NewOp: fn(*mut TFE_Context, *const c_char, *mut TF_Status) -> *mut TFE_Op;
        TFE_DeleteOp: fn(*mut TFE_Op);
        TFE_OpReset: fn(*mut TFE_Op, *const c_char, *const c_char, *mut TF_Status);
        TFE_OpSetDevice: fn(*mut TFE_Op, *const c_char, *mut TF_Status);
        TFE_OpSetAttrType: fn(*mut TFE_Op, *const c_char, TF_DataType);
        TFE_OpSetAttrBool: fn(*mut TFE_Op, *const c_char, c_uchar);
        TFE_OpSetAttrInt: fn(*mut TFE_Op, *const c_char, i64);
        TFE_OpSetAttrIntList: fn(*mut TFE_Op, *const c_char, *const i64, c_int);
        TFE_OpSetAttrFloat: fn(*mut TFE_Op, *const c_char, f32);
        TFE_OpSetAttrString: fn(*mut TFE_Op, *const c_char, *const c_void, usize);
        TFE_OpAddInput: fn(*mut TFE_Op, *mut TFE_TensorHandle, *mut TF_Status);
        TFE_OpAddInputList: fn(*mut TFE_Op, *mut *mut TFE_TensorHandle, c_int, *mut TF_Status);
        TFE_Execute: fn(*mut TFE_Op, *mut *mut TFE_TensorHandle, *mut c_int, *mut TF_Status);
        TFE_DeleteTensorHandle: fn(*mut TFE_TensorHandle);
        TFE_TensorHandleCopySharingTensor: fn(*mut TFE_TensorHandle, *mut TF_Status) -> *mut TFE_TensorHandle;
        TFE_TensorHandleDataType: fn(*mut TFE_TensorHandle) -> TF_DataType;
        TFE_TensorHandleNumDims: fn(*mut TFE_TensorHandle, *mut TF_Status) -> c_int;
        TFE_TensorHandleDim: fn(*mut TFE_TensorHandle, c_int, *mut TF_Status) -> i64;
        TFE_TensorHandleDeviceName: fn(*mut TFE_TensorHandle, *mut TF_Status) -> *const c_char;
        TFE_NewTensorHandle: fn(*const TF_Tensor, *mut TF_Status) -> *mut TFE_TensorHandle;
        TFE_TensorHandleResolve: fn(*mut TFE_TensorHandle, *mut TF_Status) -> *mut TF_Tensor;
        TFE_ContextGetExecutorForThread: fn(*mut TFE_Context) -> *mut TFE_Executor;
        TFE_ExecutorIsAsync: fn(*mut TFE_Executor) -> bool;
        TFE_DeleteExecutor: fn(*mut TFE_Executor);
        TFE_OpSetAttrTypeList: fn(*mut TFE_Op, *const c_char, *const TF_DataType, c_int);
        TFE_OpSetAttrFunctionName: fn(*mut TFE_Op, *const c_char, *const c_char, usize);
        TFE_ContextAddFunction: fn(*mut TFE_Context, *mut TF_Function, *mut TF_Status);
        TFE_ContextRemoveFunction: fn(*mut TFE_Context, *const c_char, *mut TF_Status);
        TF_NewGraph: fn() -> *mut TF_Graph;
        TF_DeleteGraph: fn(*mut TF_Graph);
        TF_NewOperation: fn(*mut TF_Graph, *const c_char, *const c_char) -> *mut TF_OperationDescription;
        TF_AddInput: fn(*mut TF_OperationDescription, TF_Output);
        TF_AddInputList: fn(*mut TF_OperationDescription, *const TF_Output, c_int);
        TF_SetAttrType: fn(*mut TF_OperationDescription, *const c_char, TF_DataType);
        TF_SetAttrBool: fn(*mut TF_OperationDescription, *const c_char, c_uchar);
        TF_SetAttrInt: fn(*mut TF_OperationDescription, *const c_char, i64);
        TF_SetAttrIntList: fn(*mut TF_OperationDescription, *const c_char, *const i64, c_int);
        TF_SetAttrFloat: fn(*mut TF_OperationDescription, *const c_char, f32);
        TF_SetAttrString: fn(*mut TF_OperationDescription, *const c_char, *const c_void, usize);
        TF_SetAttrTensor: fn(*mut TF_OperationDescription, *const c_char, *mut TF_Tensor, *mut TF_Status);
        TF_SetAttrTypeList: fn(*mut TF_OperationDescription, *const c_char, *const TF_DataType, c_int);
        TF_SetAttrFuncName: fn(*mut TF_OperationDescription, *const c_char, *const c_char, usize);
        TF_FinishOperation: fn(*mut TF_OperationDescription, *mut TF_Status) -> *mut TF_Operation;
        TF_GraphToFunction: fn(*const TF_Graph, *const c_char, c_uchar, c_int, *const *const TF_Operation, c_int, *const TF_Output, c_int, *const TF_Output, *const *const c_char, *const TF_FunctionOptions, *const c_char, *mut TF_Status) -> *mut TF_Function;
        TF_DeleteFunction: fn(*mut TF_Function);
    }
    framework {
        TF_NewStatus: fn() -> *mut TF_Status;
        TF_DeleteStatus: fn(*mut TF_Status);
        TF_GetCode: fn(*const TF_Status) -> TF_Code;
        TF_Message: fn(*const TF_Status) -> *const c_char;
        TF_SetStatus: fn(*mut TF_Status, TF_Code, *const c_char);
        TF_AllocateTensor: fn(TF_DataType, *const i64, c_int, usize) -> *mut TF_Tensor;
        TF_DeleteTensor: fn(*mut TF_Tensor);
        TF_TensorData: fn(*const TF_Tensor) -> *mut c_void;
        TF_TensorByteSize: fn(*const TF_Tensor) -> usize;
    }
    pywrap {
        EagerTensor_Handle = "_Z18EagerTensor_HandlePK7_object": fn(*const PyObject) -> *mut TFE_TensorHandle;
        EagerTensorFromHandle = "_Z21EagerTensorFromHandleP16TFE_TensorHandleb": fn(*mut TFE_TensorHandle, bool) -> *mut PyObject;
        EagerTensor_CheckExact = "_Z22EagerTensor_CheckExactPK7_object": fn(*const PyObject) -> bool;
        TFE_Py_TapeSetIsEmpty = "_Z21TFE_Py_TapeSetIsEmptyv": fn() -> *mut PyObject;
        TFE_Py_TapeSetPossibleGradientTypes = "_Z35TFE_Py_TapeSetPossibleGradientTypesP7_object": fn(*mut PyObject) -> *mut PyObject;
        GetEagerContextThreadLocalData = "_ZN10tensorflow30GetEagerContextThreadLocalDataEP7_object": fn(*mut PyObject) -> *mut EagerContextThreadLocalData;
    }
}
