//! Recording a call's ops (its trace) and running them as one fused call.
//!
//! Inside a fusing scope each op is recorded into the thread's current
//! [`Batch`] and returns a promised tensor. The batch runs when its thread
//! leaves fused mode (the scope that recorded it closes), or earlier when
//! one of its promises is needed (read, or used by an op outside the
//! batch): its live outputs become the outputs of one function call. If
//! that call fails, the batch is run again op by op, so each result gets
//! what per-op execution gives it: its value, or the error (naming the op)
//! of the failing op it depends on.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use rxt_tf_spec::{DType, Op, TensorKind, Value};

use crate::binding::context::BoundContext;
use crate::eager::work::{estimate, output_dims, Dims};
use crate::eager::{malformed, operand_handle, shared_context, Call, Input, Slot};
use crate::error::Result;
use crate::fused::emit::{
    emit_each, Arg, EagerEmitter, FunctionStep, Node, Step, FUNCTION_CALL, MAX_ARGS,
};
use crate::fused::key::{KeyValue, Part};
use crate::fused::library::{self, FusedFunction};
use crate::gil::acquire;
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;
use crate::tensor::{Fulfilment, Producer, Promise, Untyped};

/// Ops in one trace at most: a batch this long runs at once.
pub(crate) const MAX_NODES: usize = 256;

/// The ops recorded on one thread since its last fused call, on one context.
pub(crate) struct Batch {
    context: Arc<BoundContext>,
    recording: Mutex<Recording>,
}

/// The record of a batch's ops; its room is reused by the thread's next
/// batch (it holds no context, and nothing once cleared).
pub(crate) struct Recording {
    /// The call's inputs (tensors, run-time scalars), each once.
    inputs: Vec<Arc<OwnedHandle>>,
    /// The keyword constants, each once: `Const` nodes of the function.
    constants: Vec<Arc<OwnedHandle>>,
    /// `TF_DataType` codes (a captured variable's is `resource`).
    input_types: Vec<i32>,
    input_dims: Vec<Dims>,
    nodes: Vec<Node>,
    outputs: Vec<Output>,
    key: Vec<Part>,
    work: i64,
    /// Run (or failed): later ops start a new batch.
    done: bool,
}

/// What is known of a node's output before it runs.
struct Output {
    promise: Weak<Promise>,
    dtype: DType,
    dims: Dims,
}

/// What a batch lets go of while its recording is locked, dropped after:
/// dropping these may release a context, whose Python objects' release
/// runs Python code, and evicted functions are removed from their context
/// under the call gate.
#[derive(Default)]
struct Garbage {
    evicted: Vec<Arc<FusedFunction>>,
    /// The functions the batch called (dropping the last reference to one
    /// releases a Python object).
    functions: Vec<Arc<FunctionStep>>,
    producers: Vec<Arc<dyn Producer>>,
    promises: Vec<Arc<Promise>>,
}

impl Drop for Garbage {
    fn drop(&mut self) {
        library::release(std::mem::take(&mut self.evicted));
    }
}

/// Why a node's sources were not resolved.
enum Unresolved {
    /// An operand failed (or a constant could not be made): so does the
    /// node, with that error.
    Failed(crate::Error),
    /// The batch ran to settle an earlier operand's fate: the node is
    /// recorded again, into a new batch.
    BatchRan,
}

impl From<crate::Error> for Unresolved {
    fn from(err: crate::Error) -> Unresolved {
        Unresolved::Failed(err)
    }
}

/// Where an operand comes from, resolved before the batch is locked.
enum Source {
    Node(u32),
    Handle(Arc<OwnedHandle>),
    /// A run-time scalar: always its own input, so that whether two scalars
    /// are equal is not part of the trace.
    Scalar(Arc<OwnedHandle>),
    Constant(Arc<OwnedHandle>),
}

impl Batch {
    /// An empty batch on `context`, in the room of `spare` (a recording of
    /// this thread's previous batch) if there is one.
    pub(crate) fn new(context: &Arc<BoundContext>, spare: Option<Recording>) -> Arc<Batch> {
        let mut recording = spare.unwrap_or_else(|| Recording {
            inputs: Vec::with_capacity(8),
            input_types: Vec::with_capacity(8),
            input_dims: Vec::with_capacity(8),
            constants: Vec::with_capacity(4),
            nodes: Vec::with_capacity(8),
            outputs: Vec::with_capacity(8),
            key: Vec::with_capacity(32),
            work: 0,
            done: false,
        });
        recording.clear(context);
        recording.done = false;
        Arc::new(Batch {
            context: Arc::clone(context),
            recording: Mutex::new(recording),
        })
    }

    /// The recording of a batch nobody else holds, emptied, for the
    /// thread's next batch.
    pub(crate) fn recycle(batch: Arc<Batch>) -> Option<Recording> {
        let batch = Arc::into_inner(batch)?;
        let mut recording = batch
            .recording
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        recording.clear(&batch.context);
        Some(recording)
    }

    /// Whether new ops may still join the batch.
    pub(crate) fn accepts(&self, context: &Arc<BoundContext>) -> bool {
        Arc::ptr_eq(&self.context, context) && !self.lock().done
    }

    /// The recording, locked. A thread that must wait gives up the GIL
    /// while it waits: the holder may be running a large call with the GIL
    /// released, and needs it back to finish.
    fn lock(&self) -> MutexGuard<'_, Recording> {
        acquire(|| self.recording.try_lock(), || self.recording.lock())
    }

    /// Records `row` on `operands` into the batch, or returns `None` if the
    /// batch ran meanwhile (the caller starts a new one).
    fn record(
        self: &Arc<Batch>,
        call: &Call,
        operands: &[Input<'_>],
        keywords: &[Value],
        kind: TensorKind,
    ) -> Option<Result<Untyped>> {
        self.record_node(
            || self.sources(call, operands, keywords),
            |recording, sources| recording.push(self, call, keywords, kind, sources),
        )
    }

    /// Records a function call into the batch, or returns `None` if the
    /// batch ran meanwhile (the caller starts a new one).
    fn record_function(self: &Arc<Batch>, call: &FunctionCall<'_>) -> Option<Result<Untyped>> {
        self.record_node(
            || {
                let mut sources = Vec::with_capacity(call.arguments.len() + call.captured.len());
                for tensor in call.arguments {
                    self.push_tensor_source(&mut sources, tensor)?;
                }
                sources.extend(
                    call.captured
                        .iter()
                        .map(|handle| Source::Handle(Arc::clone(handle))),
                );
                Ok(sources)
            },
            |recording, sources| recording.push_function(self, call, sources),
        )
    }

    /// Records one node: its inputs resolved by `sources` before the batch
    /// is locked, then added by `push`; `None` if the batch ran meanwhile.
    fn record_node<S>(
        self: &Arc<Batch>,
        sources: impl FnOnce() -> std::result::Result<S, Unresolved>,
        push: impl FnOnce(&mut Recording, S) -> Result<Untyped>,
    ) -> Option<Result<Untyped>> {
        let sources = match sources() {
            Ok(sources) => sources,
            Err(Unresolved::Failed(err)) => return Some(Err(err)),
            Err(Unresolved::BatchRan) => return None,
        };
        let mut recording = self.lock();
        if recording.done {
            return None;
        }
        let mark = recording.mark();
        let pushed = push(&mut recording, sources);
        if pushed.is_err() {
            // Nothing of a node that failed to record stays in the trace.
            recording.rewind(mark);
        }
        let full = recording.nodes.len() >= MAX_NODES;
        drop(recording);
        if full {
            // A long loop in one scope: run what is live so far, so a trace
            // (and what it holds) stays bounded; later ops start a new one.
            // An error here is this thread's environment, which the next
            // read reports; the ops stay recorded.
            let _ = self.flush();
        }
        Some(pushed)
    }

    /// Where a tensor operand comes from: a node of this batch, or a handle.
    fn tensor_source(self: &Arc<Batch>, tensor: &Untyped) -> Result<Source> {
        Ok(match tensor.as_promise() {
            Some(promise) if self.made(promise) => Source::Node(promise.index()),
            _ => Source::Handle(tensor.shared_handle()?),
        })
    }

    /// Adds where `tensor`, the next operand, comes from to `sources`. A
    /// failed operand fails the node with its error, as per op, where the
    /// first failed operand in order decides: when an earlier operand is a
    /// node of this batch (its fate still unknown), the batch runs first and
    /// the node is recorded again.
    fn push_tensor_source(
        self: &Arc<Batch>,
        sources: &mut Vec<Source>,
        tensor: &Untyped,
    ) -> std::result::Result<(), Unresolved> {
        match self.tensor_source(tensor) {
            Ok(source) => {
                sources.push(source);
                Ok(())
            }
            Err(err) if sources.iter().any(|s| matches!(s, Source::Node(_))) => {
                Err(match self.flush() {
                    Ok(()) => Unresolved::BatchRan,
                    Err(_) => Unresolved::Failed(err),
                })
            }
            Err(err) => Err(Unresolved::Failed(err)),
        }
    }

    /// The node's inputs in the op's order (operands and constants), then
    /// the permutation when its axis is swapped.
    fn sources(
        self: &Arc<Batch>,
        call: &Call,
        operands: &[Input<'_>],
        keywords: &[Value],
    ) -> std::result::Result<(Vec<Source>, Option<Arc<OwnedHandle>>), Unresolved> {
        let context = &self.context;
        let row = call.row;
        let mut sources = Vec::with_capacity(row.inputs.len());
        for slot in call.inputs(keywords) {
            let source = match slot? {
                Slot::Operand(index) => {
                    let operand = operands.get(index).ok_or_else(|| malformed(row))?;
                    let tensors = operand.tensors();
                    if tensors.is_empty() {
                        Source::Scalar(
                            operand_handle(context, call, operand)?
                                .ok_or_else(|| malformed(row))?,
                        )
                    } else {
                        // One argument per tensor: a list's are grouped
                        // again when emitted (the call's `list_length`).
                        for tensor in tensors {
                            self.push_tensor_source(&mut sources, tensor)?;
                        }
                        continue;
                    }
                }
                Slot::Operands(indices) => {
                    // One argument each, grouped again when emitted.
                    for index in indices {
                        let operand = operands.get(*index).ok_or_else(|| malformed(row))?;
                        let tensor = operand.tensor().ok_or_else(|| malformed(row))?;
                        self.push_tensor_source(&mut sources, tensor)?;
                    }
                    continue;
                }
                Slot::Constant(value, dtype) => {
                    Source::Constant(context.constant(row.name, &value, dtype)?)
                }
            };
            sources.push(source);
        }
        let perm = match call.swap {
            Some(perm) => Some(context.constant(row.name, &Value::Ints(perm), DType::I32)?),
            None => None,
        };
        Ok((sources, perm))
    }

    /// Whether `promise` is an unfulfilled output of this batch.
    fn made(self: &Arc<Batch>, promise: &Promise) -> bool {
        promise
            .producer()
            .is_some_and(|producer| std::ptr::addr_eq(Arc::as_ptr(&producer), Arc::as_ptr(self)))
    }

    /// Runs the batch if it has not run: its live outputs become the
    /// outputs of one fused call, and each promise gets its handle (or the
    /// error per-op execution would give it). Fails, running nothing and
    /// fulfilling nothing, if this thread cannot run ops on the context (its
    /// executor is asynchronous): that error is the caller's, not the
    /// promises', which another thread may still fulfil.
    pub(crate) fn flush(&self) -> Result<()> {
        self.context.ensure_synchronous()?;
        let mut garbage = Garbage::default();
        {
            let mut recording = self.lock();
            if recording.done {
                return Ok(());
            }
            recording.done = true;
            let live: Vec<(u32, Arc<Promise>)> = recording
                .outputs
                .iter()
                .enumerate()
                .filter_map(|(index, output)| {
                    let promise = output.promise.upgrade()?;
                    Some((u32::try_from(index).ok()?, promise))
                })
                .collect();
            if !live.is_empty() {
                let results = self.run(&mut recording, &live, &mut garbage);
                for ((_, promise), result) in live.iter().zip(results) {
                    garbage.producers.extend(promise.fulfil(result));
                }
            }
            garbage.promises = live.into_iter().map(|(_, promise)| promise).collect();
            garbage
                .functions
                .extend(recording.nodes.iter().filter_map(|node| match &node.step {
                    Step::Function { function, .. } => Some(Arc::clone(function)),
                    Step::Op(_) => None,
                }));
            // The inputs and nodes are no longer needed (their room is kept
            // for the thread's next call).
            recording.clear(&self.context);
        }
        drop(garbage);
        Ok(())
    }

    /// The result of each of `live`: one fused call; if it fails, the ops
    /// one by one.
    fn run(
        &self,
        recording: &mut Recording,
        live: &[(u32, Arc<Promise>)],
        garbage: &mut Garbage,
    ) -> Vec<Fulfilment> {
        recording
            .key
            .extend(live.iter().map(|&(node, _)| Part::Output(node)));
        let outputs: Vec<(u32, DType)> = live
            .iter()
            .map(|&(node, _)| {
                let dtype = recording.outputs.get(node as usize).map(|o| o.dtype);
                (node, dtype.unwrap_or(DType::F32))
            })
            .collect();
        let fused = library::function(
            &self.context,
            &recording.key,
            &recording.input_types,
            &recording.constants,
            &recording.nodes,
            &outputs,
            &mut garbage.evicted,
        )
        .and_then(|function| function.call(&self.context, &recording.inputs, recording.work));
        match fused {
            Ok(handles) if handles.len() == live.len() => {
                handles.into_iter().map(|h| Ok(Arc::new(h))).collect()
            }
            _ => {
                library::count_replay();
                self.replay(recording, live)
            }
        }
    }

    /// The batch's ops as eager ops, one by one, as per-op execution runs
    /// them: an op that fails gets its error, an op whose operand failed
    /// gets that operand's error, and every other op its value.
    fn replay(&self, recording: &Recording, live: &[(u32, Arc<Promise>)]) -> Vec<Fulfilment> {
        let mut emitter = EagerEmitter {
            context: &self.context,
        };
        let values = emit_each(
            &mut emitter,
            &recording.inputs,
            &recording.constants,
            &recording.nodes,
        );
        live.iter()
            .map(|&(node, _)| match values.get(node as usize) {
                Some(value) => value.clone(),
                None => Err(internal("a replayed output is missing")),
            })
            .collect()
    }
}

impl Recording {
    /// Where the recording stands, to [`Recording::rewind`] to.
    fn mark(&self) -> [usize; 4] {
        [
            self.key.len(),
            self.inputs.len(),
            self.constants.len(),
            self.nodes.len(),
        ]
    }

    /// Undoes what was added since `mark` (a node that failed to record).
    fn rewind(&mut self, [key, inputs, constants, nodes]: [usize; 4]) {
        self.key.truncate(key);
        self.inputs.truncate(inputs);
        self.input_types.truncate(inputs);
        self.input_dims.truncate(inputs);
        self.constants.truncate(constants);
        self.nodes.truncate(nodes);
        self.outputs.truncate(nodes);
    }

    /// Empties the recording (keeping its room), for a trace on `context`.
    fn clear(&mut self, context: &Arc<BoundContext>) {
        self.inputs.clear();
        self.input_types.clear();
        self.input_dims.clear();
        self.constants.clear();
        self.nodes.clear();
        self.outputs.clear();
        self.key.clear();
        self.key.push(Part::Context(Arc::as_ptr(context) as usize));
        self.work = 0;
    }

    /// Adds one node; its output is a promise of `batch`.
    fn push(
        &mut self,
        batch: &Arc<Batch>,
        call: &Call,
        keywords: &[Value],
        kind: TensorKind,
        (sources, perm): (Vec<Source>, Option<Arc<OwnedHandle>>),
    ) -> Result<Untyped> {
        let row = call.row;
        self.key
            .push(Part::Op(row.name, std::ptr::from_ref(row) as usize));
        self.key.extend(
            keywords
                .iter()
                .map(|value| Part::Keyword(KeyValue::from(value))),
        );
        let arg_count = sources.len();
        if arg_count > MAX_ARGS {
            return Err(malformed(row));
        }
        let mut args = [Arg::Input(0); MAX_ARGS];
        let mut dims = [Dims::default(); MAX_ARGS];
        for (index, source) in sources.into_iter().enumerate() {
            let tensor = matches!(source, Source::Node(_) | Source::Handle(_));
            let (mut arg, arg_dims) = match source {
                Source::Node(index) => {
                    let output = self
                        .outputs
                        .get(index as usize)
                        .ok_or_else(|| malformed(row))?;
                    (Arg::Node(index), output.dims)
                }
                Source::Handle(handle) => self.input(handle, true, &batch.context, row)?,
                Source::Scalar(handle) => self.input(handle, false, &batch.context, row)?,
                Source::Constant(handle) => {
                    let status = Status::new(batch.context.wheel().api(), row.name)?;
                    let dims = Dims::of(&handle, &status, row.name)?;
                    (self.constant(handle, row)?, dims)
                }
            };
            self.key.push(Part::of(arg));
            if tensor && call.promotes() {
                arg = self.cast(arg, arg_dims, call)?;
                self.key.push(Part::of(arg));
            }
            args[index] = arg;
            dims[index] = arg_dims;
        }
        let swap = match perm {
            Some(perm) => {
                let perm = self.constant(perm, row)?;
                self.key.push(Part::Swapped);
                if let Arg::Constant(index) = perm {
                    self.key.push(Part::Constant(index));
                }
                Some(perm)
            }
            None => None,
        };
        let dims = &dims[..arg_count];
        crate::eager::window::check(row, keywords, dims)?;
        let (work, result) = (
            estimate(row, keywords, dims),
            output_dims(row, keywords, kind, dims),
        );
        self.work = self.work.saturating_add(work);
        let node = u32::try_from(self.nodes.len()).map_err(|_| malformed(row))?;
        self.nodes.push(Node {
            step: Step::Op(*call),
            keywords: keywords.to_vec(),
            args,
            arg_count,
            swap,
            work,
        });
        let producer: Arc<dyn Producer> = Arc::clone(batch) as Arc<dyn Producer>;
        let promise = Arc::new(Promise::new(producer, node));
        self.outputs.push(Output {
            promise: Arc::downgrade(&promise),
            dtype: kind.dtype,
            dims: result,
        });
        Ok(Untyped::promised(promise, Arc::clone(&batch.context)))
    }

    /// Adds one function-call node; its output is a promise of `batch`.
    fn push_function(
        &mut self,
        batch: &Arc<Batch>,
        call: &FunctionCall<'_>,
        sources: Vec<Source>,
    ) -> Result<Untyped> {
        let row: &'static Op = &FUNCTION_CALL;
        self.key.push(Part::Function(call.id));
        let mut args = Vec::with_capacity(sources.len());
        for source in sources {
            let arg = match source {
                Source::Node(index) => {
                    if self.outputs.get(index as usize).is_none() {
                        return Err(malformed(row));
                    }
                    Arg::Node(index)
                }
                Source::Handle(handle) => self.input(handle, true, &batch.context, row)?.0,
                Source::Scalar(_) | Source::Constant(_) => return Err(malformed(row)),
            };
            self.key.push(Part::of(arg));
            args.push(arg);
        }
        // A whole function: its work is not estimated; the fused call
        // releases the GIL.
        let work = i64::MAX / 4;
        self.work = self.work.saturating_add(work);
        let node = u32::try_from(self.nodes.len()).map_err(|_| malformed(row))?;
        self.nodes.push(Node {
            step: Step::Function {
                function: Arc::clone(call.function),
                args,
            },
            keywords: Vec::new(),
            args: [Arg::Input(0); MAX_ARGS],
            arg_count: 0,
            swap: None,
            work,
        });
        let producer: Arc<dyn Producer> = Arc::clone(batch) as Arc<dyn Producer>;
        let promise = Arc::new(Promise::new(producer, node));
        self.outputs.push(Output {
            promise: Arc::downgrade(&promise),
            dtype: call.kind.dtype,
            dims: Dims::default(),
        });
        Ok(Untyped::promised(promise, Arc::clone(&batch.context)))
    }

    /// A node casting `arg` (a tensor of `call`'s operand element type) to
    /// the element type `call` promotes it to; its output is no promise.
    fn cast(&mut self, arg: Arg, dims: Dims, call: &Call) -> Result<Arg> {
        let index = u32::try_from(self.nodes.len()).map_err(|_| malformed(call.row))?;
        let cast = Call::cast(call.operand_element);
        let keywords = call.cast_keywords();
        self.key.push(Part::Op(
            cast.row.name,
            std::ptr::from_ref(cast.row) as usize,
        ));
        self.key.push(Part::Keyword(KeyValue::from(&keywords[0])));
        let mut args = [Arg::Input(0); MAX_ARGS];
        args[0] = arg;
        let work = estimate(cast.row, &keywords, &[dims]);
        self.work = self.work.saturating_add(work);
        self.nodes.push(Node {
            step: Step::Op(cast),
            keywords: keywords.to_vec(),
            args,
            arg_count: 1,
            swap: None,
            work,
        });
        self.outputs.push(Output {
            promise: Weak::new(),
            dtype: call.element,
            dims,
        });
        Ok(Arg::Node(index))
    }

    /// The constant `handle` as an argument, added on first use (its value
    /// is in the key through the keyword that made it).
    fn constant(&mut self, handle: Arc<OwnedHandle>, row: &'static Op) -> Result<Arg> {
        let known = self
            .constants
            .iter()
            .position(|known| known.as_ptr() == handle.as_ptr());
        let index = known.unwrap_or(self.constants.len());
        if known.is_none() {
            self.constants.push(handle);
        }
        u32::try_from(index)
            .map(Arg::Constant)
            .map_err(|_| malformed(row))
    }

    /// The input index of `handle`, added on first use (or, unless
    /// `shared`, every time).
    fn input(
        &mut self,
        handle: Arc<OwnedHandle>,
        shared: bool,
        context: &BoundContext,
        row: &'static Op,
    ) -> Result<(Arg, Dims)> {
        let known = shared
            .then(|| {
                self.inputs
                    .iter()
                    .position(|known| known.as_ptr() == handle.as_ptr())
            })
            .flatten();
        if let Some(index) = known {
            let dims = self
                .input_dims
                .get(index)
                .copied()
                .ok_or_else(|| malformed(row))?;
            let index = u32::try_from(index).map_err(|_| malformed(row))?;
            return Ok((Arg::Input(index), dims));
        }
        let index = u32::try_from(self.inputs.len()).map_err(|_| malformed(row))?;
        let dtype = handle.dtype();
        let status = Status::new(context.wheel().api(), row.name)?;
        let dims = Dims::of(&handle, &status, row.name)?;
        let rank = u8::try_from(dims.rank()).map_err(|_| malformed(row))?;
        self.key.push(Part::NewInput(dtype, rank));
        self.inputs.push(handle);
        self.input_types.push(dtype);
        self.input_dims.push(dims);
        Ok((Arg::Input(index), dims))
    }
}

impl Producer for Batch {
    fn produce(&self) -> Result<()> {
        self.flush()
    }
}

/// Records `row` into the thread's batch (`current`, replaced by a new
/// batch in the room of `spare` when it cannot take the op) and returns
/// its promised output.
pub(crate) fn record(
    current: &mut Option<Arc<Batch>>,
    spare: &mut Option<Recording>,
    row: &'static Op,
    operands: &[Input<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Result<Untyped> {
    let context = shared_context(row, operands)?;
    let call = Call::plan(row, operands, keywords)?;
    into_batch(current, spare, &context, |batch| {
        batch.record(&call, operands, keywords, kind)
    })
}

/// Runs `record` on the thread's batch on `context` (`current`, replaced
/// by a new batch in the room of `spare` when it cannot take more, or ran
/// meanwhile) until a batch takes the node.
fn into_batch(
    current: &mut Option<Arc<Batch>>,
    spare: &mut Option<Recording>,
    context: &Arc<BoundContext>,
    record: impl Fn(&Arc<Batch>) -> Option<Result<Untyped>>,
) -> Result<Untyped> {
    loop {
        let batch = match current {
            Some(batch) if batch.accepts(context) => Arc::clone(batch),
            _ => {
                let batch = Batch::new(context, spare.take());
                *current = Some(Arc::clone(&batch));
                batch
            }
        };
        if let Some(recorded) = record(&batch) {
            return recorded;
        }
        *current = None;
    }
}

/// A call of a TensorFlow function to record.
pub(crate) struct FunctionCall<'a> {
    pub(crate) function: &'a Arc<FunctionStep>,
    /// Its trace key number.
    pub(crate) id: u64,
    pub(crate) arguments: &'a [&'a Untyped],
    pub(crate) captured: &'a [Arc<OwnedHandle>],
    pub(crate) context: &'a Arc<BoundContext>,
    /// Its output's element type and rank.
    pub(crate) kind: TensorKind,
}

/// Records `call` into the thread's batch (`current`, replaced by a new
/// batch in the room of `spare` when it cannot take it) and returns its
/// promised output.
pub(crate) fn record_function(
    current: &mut Option<Arc<Batch>>,
    spare: &mut Option<Recording>,
    call: &FunctionCall<'_>,
) -> Result<Untyped> {
    into_batch(current, spare, call.context, |batch| {
        batch.record_function(call)
    })
}

/// An error of the fused machinery itself (a defect, not user input).
fn internal(message: &str) -> crate::Error {
    crate::Error::Op {
        op: "fused call",
        code: 13, // INTERNAL
        message: String::from(message),
    }
}
