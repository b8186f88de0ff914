//! LiteRT models: a converted flatbuffer loaded once ([`Model`]), compiled
//! for the CPU (XNNPACK) at one set of input shapes ([`Compiled`]), and run
//! on host memory the caller owns: inputs read and outputs written in
//! place, no copy.

use std::ffi::{c_int, c_void, CString};
use std::sync::Arc;

use rxt_tf_spec::DType;

use super::library::{library, Library};
use super::sys::{self, Handle, LiteRtLayout, LiteRtRankedTensorType};
use crate::error::{Error, Result};

/// A converted model (a TFLite flatbuffer) loaded into LiteRT. The bytes
/// stay owned here: LiteRT reads them for the model's lifetime.
pub struct Model {
    library: &'static Library,
    handle: Handle,
    inputs: usize,
    outputs: usize,
    /// The `LiteRtElementType` of each input, then of each output.
    element_types: Vec<c_int>,
    _bytes: Box<[u8]>,
}

// SAFETY: a LiteRT model is immutable once created; it is only read when
// compiled models are made from it (LiteRT serialises that).
unsafe impl Send for Model {}
// SAFETY: as above.
unsafe impl Sync for Model {}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("inputs", &self.inputs)
            .field("outputs", &self.outputs)
            .finish()
    }
}

impl Model {
    /// Loads the flatbuffer `bytes` (LiteRT must be installed), shared:
    /// compiled models hold it.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Arc<Model>> {
        let library = library()?;
        let api = &library.api;
        let bytes = bytes.into_boxed_slice();
        let mut handle: Handle = std::ptr::null_mut();
        // SAFETY: `bytes` lives as long as the model (kept in it); the
        // environment is live; `handle` is a valid out-pointer.
        let status = unsafe {
            (api.LiteRtCreateModelFromBuffer)(
                library.environment(),
                bytes.as_ptr().cast(),
                bytes.len(),
                &mut handle,
            )
        };
        Library::check(status, "LiteRtCreateModelFromBuffer", || {
            format!("loading a model of {} bytes", bytes.len())
        })?;
        let mut model = Model {
            library,
            handle,
            inputs: 0,
            outputs: 0,
            element_types: Vec::new(),
            _bytes: bytes,
        };
        let signature = model.signature()?;
        let (mut inputs, mut outputs) = (0_usize, 0_usize);
        // SAFETY: `signature` belongs to the live model; `inputs` is a valid
        // out-pointer.
        let status = unsafe { (api.LiteRtGetNumSignatureInputs)(signature, &mut inputs) };
        Library::check(status, "LiteRtGetNumSignatureInputs", || {
            "reading the signature".into()
        })?;
        // SAFETY: as above, for `outputs`.
        let status = unsafe { (api.LiteRtGetNumSignatureOutputs)(signature, &mut outputs) };
        Library::check(status, "LiteRtGetNumSignatureOutputs", || {
            "reading the signature".into()
        })?;
        model.inputs = inputs;
        model.outputs = outputs;
        let by_index = [
            (api.LiteRtGetSignatureInputTensorByIndex, inputs),
            (api.LiteRtGetSignatureOutputTensorByIndex, outputs),
        ];
        let mut tensors: Vec<Handle> = Vec::new();
        for (get, count) in by_index {
            for index in 0..count {
                let mut tensor: Handle = std::ptr::null_mut();
                // SAFETY: the signature is live, `index` below its count,
                // `tensor` a valid out-pointer.
                let status = unsafe { get(signature, index, &mut tensor) };
                Library::check(status, "LiteRtGetSignature…TensorByIndex", || {
                    format!("reading tensor {index} of the signature")
                })?;
                let mut kind = LiteRtRankedTensorType {
                    element_type: 0,
                    layout: LiteRtLayout {
                        bits: 0,
                        dimensions: [0; sys::MAX_RANK],
                        strides: [0; sys::MAX_RANK],
                    },
                };
                // SAFETY: `tensor` belongs to the live model; `kind` is a
                // valid out-pointer.
                let status = unsafe { (api.LiteRtGetRankedTensorType)(tensor, &mut kind) };
                Library::check(status, "LiteRtGetRankedTensorType", || {
                    format!("reading the type of tensor {index} of the signature")
                })?;
                model.element_types.push(kind.element_type);
                if tensors.contains(&tensor) {
                    // An output that is an input (`lambda x: x`) or another
                    // output: LiteRT would leave its buffer unwritten.
                    return Err(Error::LitertRefused {
                        what: String::from(
                            "the model returns an input, or one tensor twice, which LiteRT \
                             does not write to its output buffer",
                        ),
                    });
                }
                tensors.push(tensor);
            }
        }
        Ok(Arc::new(model))
    }

    /// The number of inputs and of outputs of its (first) signature.
    pub fn arity(&self) -> (usize, usize) {
        (self.inputs, self.outputs)
    }

    /// The model's first signature (a converted function has one; LiteRT
    /// makes a default one for a flatbuffer without).
    fn signature(&self) -> Result<Handle> {
        let api = &self.library.api;
        let mut signature: Handle = std::ptr::null_mut();
        // SAFETY: the model is live; `signature` is a valid out-pointer.
        let status = unsafe { (api.LiteRtGetModelSignature)(self.handle, 0, &mut signature) };
        Library::check(status, "LiteRtGetModelSignature", || {
            "reading the signature".into()
        })?;
        Ok(signature)
    }

    /// Compiles the model for the CPU at the input shapes `shapes` (one per
    /// input), with XNNPACK running on `threads` threads.
    pub fn compile(self: &Arc<Self>, shapes: &[Vec<i64>], threads: u16) -> Result<Compiled> {
        if shapes.len() != self.inputs {
            return Err(Error::FunctionArguments {
                message: format!(
                    "the LiteRT model takes {} inputs, got {} shapes",
                    self.inputs,
                    shapes.len()
                ),
            });
        }
        let api = &self.library.api;
        let options = Options::cpu(self.library, threads)?;
        let mut handle: Handle = std::ptr::null_mut();
        // SAFETY: environment, model and options are live; `handle` is a
        // valid out-pointer. The options may be destroyed afterwards.
        let status = unsafe {
            (api.LiteRtCreateCompiledModel)(
                self.library.environment(),
                self.handle,
                options.0,
                &mut handle,
            )
        };
        drop(options);
        Library::check(status, "LiteRtCreateCompiledModel", || {
            String::from("compiling the model for the CPU")
        })?;
        let compiled = Compiled {
            model: Arc::clone(self),
            handle,
            inputs: shapes.to_vec(),
            outputs: Arc::from([]),
            writes_outputs: false,
            run_micros: u32::MAX,
            runs: 0,
            bound: Vec::new(),
            handles: Vec::new(),
        };
        compiled.resized(shapes)
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: the model is destroyed once; compiled models borrow it,
        // so none outlives it.
        unsafe { (self.library.api.LiteRtDestroyModel)(self.handle) };
    }
}

/// Compilation options: the CPU accelerator and XNNPACK's thread count.
struct Options<'a>(Handle, &'a Library);

impl<'a> Options<'a> {
    fn cpu(library: &'a Library, threads: u16) -> Result<Options<'a>> {
        let api = &library.api;
        let mut handle: Handle = std::ptr::null_mut();
        // SAFETY: `handle` is a valid out-pointer.
        let status = unsafe { (api.LiteRtCreateOptions)(&mut handle) };
        Library::check(status, "LiteRtCreateOptions", || {
            "compilation options".into()
        })?;
        let options = Options(handle, library);
        // SAFETY: the options are live.
        let status =
            unsafe { (api.LiteRtSetOptionsHardwareAccelerators)(handle, sys::ACCELERATOR_CPU) };
        Library::check(status, "LiteRtSetOptionsHardwareAccelerators", || {
            "choosing the CPU".into()
        })?;
        // XNNPACK's options: a TOML text under the identifier "xnnpack"
        // (what LiteRT's own CPU-options helper builds).
        let text = format!("num_threads = {threads}\n");
        let payload = CString::new(text)
            .map_err(|_| Error::internal("litert", "options text"))?
            .into_raw();
        let mut opaque: Handle = std::ptr::null_mut();
        // SAFETY: identifier and payload are NUL-terminated; on success the
        // payload is LiteRT's (freed by `free_payload`, once).
        let status = unsafe {
            (api.LiteRtCreateOpaqueOptions)(
                c"xnnpack".as_ptr(),
                payload.cast(),
                free_payload,
                &mut opaque,
            )
        };
        if status != sys::STATUS_OK {
            // SAFETY: not taken over on failure: freed here, once, from the
            // pointer `into_raw` gave.
            drop(unsafe { CString::from_raw(payload) });
        }
        Library::check(status, "LiteRtCreateOpaqueOptions", || {
            "XNNPACK's options".into()
        })?;
        // SAFETY: both are live; the options take ownership of `opaque`.
        let status = unsafe { (api.LiteRtAddOpaqueOptions)(handle, opaque) };
        if status != sys::STATUS_OK {
            // SAFETY: not taken over: still ours to destroy, once.
            unsafe { (api.LiteRtDestroyOpaqueOptions)(opaque) };
        }
        Library::check(status, "LiteRtAddOpaqueOptions", || {
            "XNNPACK's options".into()
        })?;
        Ok(options)
    }
}

impl Drop for Options<'_> {
    fn drop(&mut self) {
        // SAFETY: created by `LiteRtCreateOptions`, destroyed once.
        unsafe { (self.1.api.LiteRtDestroyOptions)(self.0) };
    }
}

/// Frees an options payload made by `CString::into_raw`.
unsafe extern "C" fn free_payload(payload: *mut c_void) {
    if !payload.is_null() {
        // SAFETY: LiteRT calls this once with the pointer `into_raw` gave.
        drop(unsafe { CString::from_raw(payload.cast()) });
    }
}

/// How often a compiled model's run is timed for the GIL policy (one in
/// this many).
pub(crate) const TIMED_EVERY: u32 = 16;

/// A model compiled for the CPU at one set of input shapes. Runs on one
/// thread at a time (`Send`, not `Sync`: LiteRT's compiled models are not
/// thread-safe).
pub struct Compiled {
    model: Arc<Model>,
    handle: Handle,
    inputs: Vec<Vec<i64>>,
    outputs: Arc<[Vec<i64>]>,
    /// Whether a run was seen to write every output element.
    writes_outputs: bool,
    /// How long its last timed run took, in microseconds (`u32::MAX`
    /// before any).
    run_micros: u32,
    /// Its runs so far (wrapping): one in [`TIMED_EVERY`] is timed.
    runs: u32,
    /// The LiteRT buffer each input, then each output, was last given as
    /// (dropped after the compiled model: declared after `handle`).
    bound: Vec<Option<HostBuffer>>,
    /// The buffers of the run under way, in LiteRT's order (kept to spare
    /// an allocation per run).
    handles: Vec<Handle>,
}

// SAFETY: a compiled model may move between threads; `&mut self` on `run`
// keeps it to one thread at a time. The buffers it keeps are only given to
// its runs, over memory each run's caller vouches for.
unsafe impl Send for Compiled {}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("outputs", &self.outputs)
            .finish()
    }
}

/// A tensor in host memory given to or filled by [`Compiled::run`].
#[derive(Debug)]
pub struct HostTensor<'a> {
    /// Its element type.
    pub dtype: DType,
    /// Its shape.
    pub shape: &'a [i64],
    /// Its first byte: [`sys::HOST_ALIGNMENT`]-aligned, `bytes` long.
    pub data: *mut c_void,
    /// Its size in bytes.
    pub bytes: usize,
}

impl Compiled {
    /// Resizes the inputs to `shapes` and reads the outputs' shapes.
    fn resized(mut self, shapes: &[Vec<i64>]) -> Result<Compiled> {
        let api = &self.model.library.api;
        for (index, shape) in shapes.iter().enumerate() {
            // A scalar input is a scalar in the model (its rank was known
            // when it was converted): nothing to resize, and LiteRT refuses
            // a resize to no dimensions.
            if shape.is_empty() {
                continue;
            }
            let dims = dims_of(shape)?;
            // SAFETY: the compiled model is live; `dims` holds its length.
            let status = unsafe {
                (api.LiteRtCompiledModelResizeInputTensor)(
                    self.handle,
                    0,
                    index,
                    dims.as_ptr(),
                    dims.len(),
                )
            };
            Library::check(status, "LiteRtCompiledModelResizeInputTensor", || {
                format!("input {index} to the shape {shape:?}")
            })?;
        }
        let empty = LiteRtLayout {
            bits: 0,
            dimensions: [0; sys::MAX_RANK],
            strides: [0; sys::MAX_RANK],
        };
        let mut layouts = vec![empty; self.model.outputs];
        // SAFETY: `layouts` holds one layout per output.
        let status = unsafe {
            (api.LiteRtGetCompiledModelOutputTensorLayouts)(
                self.handle,
                0,
                layouts.len(),
                layouts.as_mut_ptr(),
                true,
            )
        };
        Library::check(status, "LiteRtGetCompiledModelOutputTensorLayouts", || {
            "reading the output shapes".into()
        })?;
        self.outputs = layouts
            .iter()
            .map(|layout| {
                let rank = (layout.bits & 0x7f) as usize;
                layout.dimensions[..rank.min(sys::MAX_RANK)]
                    .iter()
                    .map(|&d| i64::from(d))
                    .collect()
            })
            .collect();
        Ok(self)
    }

    /// Whether a run was seen to write every output element (checked on
    /// its first run: see `tensors::run_handles`).
    pub(crate) fn writes_outputs(&self) -> bool {
        self.writes_outputs
    }

    /// How long its last timed run took, in microseconds (`u32::MAX`
    /// before any run was timed).
    pub(crate) fn run_micros(&self) -> u32 {
        self.run_micros
    }

    /// Whether the run about to start is one to time (its first, then one
    /// in [`TIMED_EVERY`]: reading the clock twice costs about 2% of a
    /// small model's call), counting it.
    pub(crate) fn due_for_timing(&mut self) -> bool {
        let due = self.runs.is_multiple_of(TIMED_EVERY);
        self.runs = self.runs.wrapping_add(1);
        due
    }

    /// Records how long a run took.
    pub(crate) fn timed(&mut self, took: std::time::Duration) {
        self.run_micros = u32::try_from(took.as_micros()).unwrap_or(u32::MAX);
    }

    /// Records that a run wrote every output element.
    pub(crate) fn saw_outputs_written(&mut self) {
        self.writes_outputs = true;
    }

    /// The input shapes it was compiled for.
    pub fn input_shapes(&self) -> &[Vec<i64>] {
        &self.inputs
    }

    /// The outputs' shapes at the compiled input shapes, shared.
    pub(crate) fn shared_output_shapes(&self) -> Arc<[Vec<i64>]> {
        Arc::clone(&self.outputs)
    }

    /// The outputs' shapes at the compiled input shapes.
    pub fn output_shapes(&self) -> &[Vec<i64>] {
        &self.outputs
    }

    /// Runs the model: reads `inputs`, writes `outputs` (host memory of the
    /// compiled shapes, aligned; the caller keeps both alive and unaliased
    /// for the call).
    ///
    /// # Safety
    ///
    /// Every tensor's `data` must point to `bytes` valid bytes, inputs
    /// readable and outputs writable, for the whole call.
    pub unsafe fn run(
        &mut self,
        inputs: &[HostTensor<'_>],
        outputs: &[HostTensor<'_>],
    ) -> Result<()> {
        // LiteRT takes a buffer of another shape and resizes to it, writing
        // past outputs sized for the compiled shapes: refused here.
        let (input_types, output_types) = self.model.element_types.split_at(self.model.inputs);
        fits("input", inputs, &self.inputs, input_types)?;
        fits("output", outputs, &self.outputs, output_types)?;
        let api = &self.model.library.api;
        let library = self.model.library;
        self.bound
            .resize_with(inputs.len() + outputs.len(), || None);
        let handles = &mut self.handles;
        handles.clear();
        for (tensor, slot) in inputs.iter().chain(outputs).zip(&mut self.bound) {
            // A buffer over the same memory as last run is given again, as
            // LiteRT's own callers reuse theirs; other memory gets a new one.
            let handle = match slot {
                Some(bound) if bound.data == tensor.data && bound.bytes == tensor.bytes => {
                    bound.handle
                }
                _ => {
                    // SAFETY: the caller's contract on `tensor`.
                    let made = unsafe { host_buffer(library, tensor) }?;
                    slot.insert(made).handle
                }
            };
            handles.push(handle);
        }
        let (input_buffers, output_buffers) = handles.split_at_mut(inputs.len());
        // SAFETY: the compiled model is live, the buffers are live and hold
        // one per input and output.
        let status = unsafe {
            (api.LiteRtRunCompiledModel)(
                self.handle,
                0,
                input_buffers.len(),
                input_buffers.as_mut_ptr(),
                output_buffers.len(),
                output_buffers.as_mut_ptr(),
            )
        };
        Library::check(status, "LiteRtRunCompiledModel", || {
            "running the model".into()
        })
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        // SAFETY: destroyed once, before the model it holds.
        unsafe { (self.model.library.api.LiteRtDestroyCompiledModel)(self.handle) };
    }
}

/// Checks that `tensors` have exactly the `shapes` compiled for and the
/// bytes those shapes take.
fn fits(
    what: &str,
    tensors: &[HostTensor<'_>],
    shapes: &[Vec<i64>],
    types: &[c_int],
) -> Result<()> {
    if tensors.len() != shapes.len() {
        return Err(Error::FunctionArguments {
            message: format!(
                "the LiteRT model has {} {what}s, got {}",
                shapes.len(),
                tensors.len()
            ),
        });
    }
    for (index, ((tensor, shape), &wanted)) in tensors.iter().zip(shapes).zip(types).enumerate() {
        if element_type(tensor.dtype)? != wanted {
            return Err(Error::FunctionShapes {
                message: format!(
                    "{what} {index}: the LiteRT model's element type (LiteRT code {wanted}) \
                     is not {}",
                    tensor.dtype.name()
                ),
            });
        }
        if tensor.shape != shape.as_slice() || byte_size(tensor.dtype, shape) != Some(tensor.bytes)
        {
            return Err(Error::FunctionShapes {
                message: format!(
                    "{what} {index}: the LiteRT model was compiled for the shape {shape:?}, \
                     got {:?}",
                    tensor.shape
                ),
            });
        }
    }
    Ok(())
}

/// The bytes a `dtype` tensor of `shape` takes; `None` past `usize` or for
/// a negative size.
pub(crate) fn byte_size(dtype: DType, shape: &[i64]) -> Option<usize> {
    shape.iter().try_fold(dtype.size(), |n, &d| {
        n.checked_mul(usize::try_from(d).ok()?)
    })
}

/// A LiteRT buffer over host memory the caller owns (`data`, `bytes`
/// long), destroyed on drop (the memory is not touched then).
struct HostBuffer {
    data: *mut c_void,
    bytes: usize,
    handle: Handle,
    library: &'static Library,
}

impl Drop for HostBuffer {
    fn drop(&mut self) {
        // SAFETY: created by `LiteRtCreateTensorBufferFromHostMemory` and
        // destroyed once; without a deallocator the memory stays the
        // caller's, and destroying the buffer does not read it.
        unsafe { (self.library.api.LiteRtDestroyTensorBuffer)(self.handle) };
    }
}

/// A LiteRT buffer over `tensor`'s host memory (not owned: no deallocator).
///
/// # Safety
///
/// `tensor.data` points to `tensor.bytes` valid bytes whenever the buffer
/// is given to a run.
unsafe fn host_buffer(library: &'static Library, tensor: &HostTensor<'_>) -> Result<HostBuffer> {
    if !(tensor.data as usize).is_multiple_of(sys::HOST_ALIGNMENT) {
        return Err(Error::LitertRefused {
            what: format!(
                "a tensor's memory is not {}-byte aligned",
                sys::HOST_ALIGNMENT
            ),
        });
    }
    let dims = dims_of(tensor.shape)?;
    let mut dimensions = [0_i32; sys::MAX_RANK];
    dimensions[..dims.len()].copy_from_slice(&dims);
    let kind = LiteRtRankedTensorType {
        element_type: element_type(tensor.dtype)?,
        layout: LiteRtLayout {
            bits: dims.len() as u32,
            dimensions,
            strides: [0; sys::MAX_RANK],
        },
    };
    let mut buffer: Handle = std::ptr::null_mut();
    // SAFETY: `kind` is a valid tensor type; the caller vouches for the
    // memory; no deallocator: the memory stays the caller's.
    let status = unsafe {
        (library.api.LiteRtCreateTensorBufferFromHostMemory)(
            &kind,
            tensor.data,
            tensor.bytes,
            None,
            &mut buffer,
        )
    };
    Library::check(status, "LiteRtCreateTensorBufferFromHostMemory", || {
        format!(
            "a {} buffer of shape {:?}",
            tensor.dtype.name(),
            tensor.shape
        )
    })?;
    Ok(HostBuffer {
        data: tensor.data,
        bytes: tensor.bytes,
        handle: buffer,
        library,
    })
}

/// A shape as LiteRT's `int` sizes: at most [`sys::MAX_RANK`] of them.
fn dims_of(shape: &[i64]) -> Result<Vec<c_int>> {
    if shape.len() > sys::MAX_RANK {
        return Err(Error::limit("litert", "a rank above 8"));
    }
    shape
        .iter()
        .map(|&d| c_int::try_from(d).map_err(|_| Error::limit("litert", "a size past int")))
        .collect()
}

/// The `LiteRtElementType` of `dtype`: the types the backend runs.
fn element_type(dtype: DType) -> Result<c_int> {
    match dtype {
        DType::F32 => Ok(sys::ELEMENT_FLOAT32),
        DType::I32 => Ok(sys::ELEMENT_INT32),
        DType::I64 => Ok(sys::ELEMENT_INT64),
        DType::Bool => Ok(sys::ELEMENT_BOOL),
        other => Err(Error::LitertRefused {
            what: format!("the litert backend runs no {} tensors", other.name()),
        }),
    }
}
