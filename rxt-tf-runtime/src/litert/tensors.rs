//! TensorFlow tensors as LiteRT's host memory: an input's CPU buffer is
//! given to LiteRT in place (copied once into aligned memory only if it is
//! not 64-byte aligned), and each output is a new TensorFlow tensor that
//! LiteRT writes in place.

use std::alloc::Layout;
use std::sync::Arc;

use rxt_tf_spec::{DType, TensorKind};

use super::model::{byte_size, Compiled, HostTensor};
use super::sys::HOST_ALIGNMENT;
use crate::error::{Error, Result};
use crate::safe::handle::{null_handle, null_pointer, OwnedHandle};
use crate::safe::status::Status;
use crate::sys::{Api, TF_Tensor};
use crate::tensor::{Element, Rank, SupportedRank, Tensor, TensorType, Untyped};

/// What errors name.
const STEP: &str = "litert call";

/// A resolved host tensor of TensorFlow, released on drop.
struct Resolved {
    api: &'static Api,
    tensor: *mut TF_Tensor,
}

impl Drop for Resolved {
    fn drop(&mut self) {
        // SAFETY: the tensor came from `TFE_TensorHandleResolve` or
        // `TF_AllocateTensor` and is released once.
        unsafe { (self.api.TF_DeleteTensor)(self.tensor) };
    }
}

/// 64-byte aligned bytes, for an input TensorFlow did not align.
struct Aligned {
    data: *mut u8,
    layout: Layout,
}

impl Aligned {
    fn copy_of(bytes: &[u8]) -> Result<Aligned> {
        let layout = Layout::from_size_align(bytes.len().max(1), HOST_ALIGNMENT)
            .map_err(|_| Error::limit(STEP, "a tensor's size"))?;
        // SAFETY: the layout's size is non-zero.
        let data = unsafe { std::alloc::alloc(layout) };
        if data.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        // SAFETY: `data` holds at least `bytes.len()` bytes and is fresh.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len()) };
        Ok(Aligned { data, layout })
    }
}

impl Drop for Aligned {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout, freed once.
        unsafe { std::alloc::dealloc(self.data, self.layout) };
    }
}

/// Runs `compiled` on `inputs` (of the shapes it was compiled for) and
/// returns its outputs as new tensors of `T` and rank `S`.
pub fn run<T: Element, const R: usize, const S: usize>(
    compiled: &mut Compiled,
    inputs: &[&Tensor<T, R>],
) -> Result<Vec<Tensor<T, S>>>
where
    Rank<R>: SupportedRank,
    Rank<S>: SupportedRank,
{
    let given: Vec<(&Untyped, TensorKind)> = inputs
        .iter()
        .map(|tensor| (&tensor.core, kind(T::DTYPE, R)))
        .collect();
    let wanted = vec![kind(T::DTYPE, S); compiled.output_shapes().len()];
    let outputs = run_untyped(compiled, &given, &wanted)?;
    Ok(outputs.into_iter().map(Tensor::from_core).collect())
}

/// The kind of a `dtype` tensor of `rank` (ranks past `u8` are refused
/// by the checks that read it).
fn kind(dtype: DType, rank: usize) -> TensorKind {
    TensorKind {
        dtype,
        rank: u8::try_from(rank).unwrap_or(u8::MAX),
    }
}

/// Runs `compiled` on `inputs` (tensors of their kinds, of the compiled
/// shapes), returning one tensor per output, of the `outputs` kinds.
pub(crate) fn run_untyped(
    compiled: &mut Compiled,
    inputs: &[(&Untyped, TensorKind)],
    outputs: &[TensorKind],
) -> Result<Vec<Untyped>> {
    let Some((first, _)) = inputs.first() else {
        return Err(Error::FunctionArguments {
            message: String::from("a litert call needs at least one input"),
        });
    };
    let context = Arc::clone(&first.context);
    let given = inputs
        .iter()
        .map(|(core, kind)| {
            Ok(HandleInput {
                handle: core.handle()?,
                dtype: kind.dtype,
                shape: core.shape(usize::from(kind.rank))?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let made = run_handles(compiled, context.wheel().api(), &given, outputs)?;
    Ok(made
        .into_iter()
        .map(|handle| Untyped::ready(handle, Arc::clone(&context)))
        .collect())
}

/// The bytes of the computed CPU tensor `handle` (row-major, TensorFlow's
/// layout of its element type), copied: a frozen input's value.
pub(crate) fn host_bytes(api: &'static Api, handle: &OwnedHandle) -> Result<Vec<u8>> {
    let status = Status::new(api, STEP)?;
    // SAFETY: the handle is live and computed; a CPU tensor resolves to
    // its buffer, shared.
    let tensor = unsafe { (api.TFE_TensorHandleResolve)(handle.as_ptr(), status.as_ptr()) };
    status.check(STEP)?;
    if tensor.is_null() {
        return Err(null_pointer(STEP, "TFE_TensorHandleResolve"));
    }
    let resolved = Resolved { api, tensor };
    // SAFETY: `tensor` is live while `resolved` holds it.
    let data = unsafe { (api.TF_TensorData)(resolved.tensor) }.cast::<u8>();
    // SAFETY: as above.
    let bytes = unsafe { (api.TF_TensorByteSize)(resolved.tensor) };
    if bytes == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the buffer holds `bytes` bytes while `resolved` holds it.
    Ok(unsafe { std::slice::from_raw_parts(data, bytes) }.to_vec())
}

/// An input of [`run_handles`]: a computed CPU tensor, its element type
/// and its shape.
pub(crate) struct HandleInput<'a> {
    pub(crate) handle: &'a OwnedHandle,
    pub(crate) dtype: DType,
    pub(crate) shape: Vec<i64>,
}

/// Runs `compiled` on `inputs` (of the compiled shapes), returning one new
/// tensor handle per output, of the `outputs` kinds.
pub(crate) fn run_handles(
    compiled: &mut Compiled,
    api: &'static Api,
    inputs: &[HandleInput<'_>],
    outputs: &[TensorKind],
) -> Result<Vec<OwnedHandle>> {
    let status = Status::new(api, STEP)?;
    // The outputs' shapes, shared with the compiled model (not copied).
    let shapes = compiled.shared_output_shapes();
    if shapes.len() != outputs.len() {
        return Err(Error::FunctionShapes {
            message: format!(
                "the LiteRT model has {} outputs, the caller takes {}",
                shapes.len(),
                outputs.len()
            ),
        });
    }
    // Every input's TensorFlow tensor, then every output's: alive until
    // LiteRT has run (inputs) and handed to TensorFlow (outputs).
    let mut tensors = Vec::with_capacity(inputs.len() + outputs.len());
    let mut host = Vec::with_capacity(inputs.len() + outputs.len());
    // Copies of the inputs TensorFlow did not align (rare: none made).
    let mut aligned = Vec::new();
    for input in inputs {
        let handle = input.handle;
        if handle.dtype() != input.dtype.code() {
            return Err(Error::internal(STEP, "an input of another element type"));
        }
        // SAFETY: the handle is live and computed; a CPU tensor resolves to
        // its buffer, shared.
        let tensor = unsafe { (api.TFE_TensorHandleResolve)(handle.as_ptr(), status.as_ptr()) };
        status.check(STEP)?;
        if tensor.is_null() {
            return Err(null_pointer(STEP, "TFE_TensorHandleResolve"));
        }
        tensors.push(Resolved { api, tensor });
        // SAFETY: `tensor` is live.
        let mut data = unsafe { (api.TF_TensorData)(tensor) }.cast::<u8>();
        // SAFETY: `tensor` is live.
        let bytes = unsafe { (api.TF_TensorByteSize)(tensor) };
        if !(data as usize).is_multiple_of(HOST_ALIGNMENT) {
            // SAFETY: the buffer holds `bytes` bytes while `tensors` holds it.
            let copy = Aligned::copy_of(unsafe { std::slice::from_raw_parts(data, bytes) })?;
            data = copy.data;
            aligned.push(copy);
        }
        host.push(HostTensor {
            dtype: input.dtype,
            shape: &input.shape,
            data: data.cast(),
            bytes,
        });
    }
    for (index, (shape, kind)) in shapes.iter().zip(outputs).enumerate() {
        if shape.len() != usize::from(kind.rank) {
            return Err(Error::FunctionShapes {
                message: format!(
                    "output {index}: the LiteRT model gives rank {}, the caller takes rank {}",
                    shape.len(),
                    kind.rank
                ),
            });
        }
        let tensor = allocate(api, kind.dtype, shape)?;
        // SAFETY: `tensor` is live.
        let data = unsafe { (api.TF_TensorData)(tensor.tensor) };
        // SAFETY: `tensor` is live.
        let bytes = unsafe { (api.TF_TensorByteSize)(tensor.tensor) };
        host.push(HostTensor {
            dtype: kind.dtype,
            shape,
            data,
            bytes,
        });
        tensors.push(tensor);
    }
    let (host_inputs, host_outputs) = host.split_at(inputs.len());
    if compiled.writes_outputs() {
        // SAFETY: every input's memory lives in `tensors` (or `aligned`),
        // every output's in `tensors`, untouched by anything else until the
        // call returns.
        unsafe { compiled.run(host_inputs, host_outputs) }?;
    } else {
        // SAFETY: as above.
        unsafe { run_checking_outputs(compiled, host_inputs, host_outputs) }?;
    }
    drop(aligned);
    tensors[inputs.len()..]
        .iter()
        .map(|tensor| {
            // SAFETY: `tensor` is live; the handle takes its own reference to
            // the buffer.
            let raw = unsafe { (api.TFE_NewTensorHandle)(tensor.tensor, status.as_ptr()) };
            status.check(STEP)?;
            // SAFETY: on success the new handle is ours to own.
            unsafe { OwnedHandle::from_raw(api, raw) }.ok_or_else(|| null_handle(STEP))
        })
        .collect()
}

/// Runs `compiled` twice, its outputs first filled with zero bytes, then
/// with one bytes: a run that leaves any output byte as it found it
/// (LiteRT leaves some outputs unwritten, e.g. a softmax along an axis of
/// size 1 at some shapes) is refused, and the compiled model with it.
///
/// # Safety
///
/// As [`Compiled::run`].
unsafe fn run_checking_outputs(
    compiled: &mut Compiled,
    inputs: &[HostTensor<'_>],
    outputs: &[HostTensor<'_>],
) -> Result<()> {
    let mut first = Vec::with_capacity(outputs.len());
    for fill in [0x00_u8, 0xff] {
        for output in outputs.iter().filter(|output| output.bytes > 0) {
            // SAFETY: the caller's contract: `data` holds `bytes` writable
            // bytes.
            unsafe { std::ptr::write_bytes(output.data.cast::<u8>(), fill, output.bytes) };
        }
        // SAFETY: the caller's contract.
        unsafe { compiled.run(inputs, outputs) }?;
        for (index, output) in outputs.iter().enumerate() {
            let bytes: &[u8] = if output.bytes == 0 {
                &[]
            } else {
                // SAFETY: as above, readable after the run.
                unsafe { std::slice::from_raw_parts(output.data.cast::<u8>(), output.bytes) }
            };
            match first.get(index) {
                None => first.push(bytes.to_vec()),
                Some(before) if before.as_slice() != bytes => {
                    return Err(Error::LitertRefused {
                        what: format!(
                            "LiteRT left part of output {index} unwritten at the input shapes \
                             {:?}",
                            compiled.input_shapes()
                        ),
                    });
                }
                Some(_) => {}
            }
        }
    }
    compiled.saw_outputs_written();
    Ok(())
}

/// The shapes of `handles` (computed tensors).
pub(crate) fn shapes_of(api: &'static Api, handles: &[OwnedHandle]) -> Result<Vec<Vec<i64>>> {
    let status = Status::new(api, STEP)?;
    handles
        .iter()
        .map(|handle| {
            let rank = std::ffi::c_int::try_from(handle.rank(&status, STEP)?)
                .map_err(|_| Error::limit(STEP, "a rank"))?;
            (0..rank)
                .map(|index| handle.dim(index, &status, STEP))
                .collect()
        })
        .collect()
}

/// A new TensorFlow host tensor of `dtype` and `shape` (uninitialised
/// contents, which LiteRT overwrites; TensorFlow's allocator aligns it).
fn allocate(api: &'static Api, dtype: DType, shape: &[i64]) -> Result<Resolved> {
    let bytes = byte_size(dtype, shape).ok_or_else(|| Error::limit(STEP, "an output's size"))?;
    let rank = std::ffi::c_int::try_from(shape.len()).map_err(|_| Error::limit(STEP, "a rank"))?;
    // SAFETY: `shape` holds `rank` sizes whose product times the element
    // size is `bytes`.
    let tensor = unsafe { (api.TF_AllocateTensor)(dtype.code(), shape.as_ptr(), rank, bytes) };
    if tensor.is_null() {
        return Err(null_pointer(STEP, "TF_AllocateTensor"));
    }
    Ok(Resolved { api, tensor })
}
