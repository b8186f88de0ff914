//! A batch: the ops one thread records between fused calls, its lock and
//! lifecycle, and running them as one fused call (or replaying them one by
//! one when that call fails).
//!
//! Inside a fusing scope each op is recorded into the thread's current
//! [`Batch`] and returns a promised tensor. The batch runs when its thread
//! leaves fused mode (the scope that recorded it closes), or earlier when
//! one of its promises is needed (read, or used by an op outside the
//! batch): its live outputs become the outputs of one function call. If
//! that call fails, the batch is run again op by op, so each result gets
//! what per-op execution gives it: its value, or the error (naming the op)
//! of the failing op it depends on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rxt_tf_spec::{DType, Op, TensorKind, Value};

use crate::binding::context::BoundContext;
use crate::eager::emit::{emit_each, EagerEmitter, NodeKind};
use crate::eager::function_node::FunctionNode;
use crate::eager::node::{self, Added, CallFacts, Source, Sources, Unresolved};
use crate::eager::{self, Operand};
use crate::error::Result;
use crate::fused::key::Part;
use crate::fused::library::{self, FusedFunction};
use crate::fused::litert_trace;
use crate::fused::recording::template;
use crate::fused::recording::{Recorder, Recording, TraceParts};
use crate::gil::acquire;
use crate::litert::Outcome;
use crate::safe::handle::OwnedHandle;
use crate::tensor::{Fulfilment, Producer, Promise, Untyped};

/// Ops in one trace at most: a batch this long runs at once.
pub(crate) const MAX_NODES: usize = 256;

/// The ops recorded on one thread since its last fused call, on one context.
pub(crate) struct Batch {
    context: Arc<BoundContext>,
    recording: Mutex<Recording>,
    /// Run (or failed): later ops start a new batch. Set under the
    /// recording's lock; read without it only to choose a batch, which
    /// [`Batch::add_node`] confirms under the lock.
    done: AtomicBool,
    /// Recorded in a litert scope (of this body): the trace runs through
    /// LiteRT where it converts.
    litert: Option<&'static str>,
}

/// What a batch lets go of while its recording is locked, dropped after:
/// dropping these may release a context, whose Python objects' release
/// runs Python code, and releasing evicted functions removes call
/// wrappers through the call gate.
#[derive(Default)]
struct Garbage {
    evicted: Vec<Arc<FusedFunction>>,
    /// The functions the batch called (dropping the last reference to one
    /// releases a Python object).
    functions: Vec<Arc<FunctionNode>>,
    producers: Vec<Arc<dyn Producer>>,
    promises: Vec<Arc<Promise>>,
}

impl Drop for Garbage {
    fn drop(&mut self) {
        library::release(std::mem::take(&mut self.evicted));
    }
}

impl Batch {
    /// An empty batch on `context`, in the room of `spare` (a recording of
    /// this thread's previous batch) if there is one.
    /// `litert`: the body of the litert scope it is recorded in, if any.
    pub(crate) fn new(
        context: &Arc<BoundContext>,
        spare: Option<Recording>,
        litert: Option<&'static str>,
    ) -> Arc<Batch> {
        let mut recording = spare.unwrap_or_else(Recording::new);
        recording.clear(context);
        Arc::new(Batch {
            context: Arc::clone(context),
            recording: Mutex::new(recording),
            done: AtomicBool::new(false),
            litert,
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
        Arc::ptr_eq(&self.context, context) && !self.ran()
    }

    /// Whether the batch ran (or failed).
    fn ran(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// The recording, locked. A thread that must wait gives up the GIL
    /// while it waits: the holder may be running a large call with the GIL
    /// released, and needs it back to finish.
    fn lock(&self) -> MutexGuard<'_, Recording> {
        acquire(|| self.recording.try_lock(), || self.recording.lock())
    }

    /// Records a function call into the batch (unless the batch ran
    /// meanwhile: the caller starts a new one).
    fn record_function(self: &Arc<Batch>, call: &FunctionInvocation<'_>) -> Added {
        let mut sources = Vec::with_capacity(call.arguments.len() + call.captured.len());
        for tensor in call.arguments {
            match self.tensor_source(tensor, &sources) {
                Ok(source) => sources.push(source),
                Err(Unresolved::Failed(err)) => return Added::Node(Err(err)),
                Err(Unresolved::SinkRan) => return Added::TargetRan,
            }
        }
        sources.extend(
            call.captured
                .iter()
                .map(|handle| Source::Tensor(Arc::clone(handle))),
        );
        self.add_node(|recording| {
            // A function call ends following a template.
            template::materialize(recording);
            recording.push_function(
                &self.context,
                call.function,
                call.id,
                sources,
                call.kind.dtype,
            )
        })
    }

    /// Adds one node, its inputs found before the batch is locked, by
    /// `push`, which returns the node's index; its output is a promise of
    /// the batch (unless the batch ran meanwhile).
    fn add_node(self: &Arc<Batch>, push: impl FnOnce(&mut Recording) -> Result<u32>) -> Added {
        let recording = self.lock();
        if self.ran() {
            return Added::TargetRan;
        }
        self.add_locked(recording, push)
    }

    /// [`Batch::add_node`] on the recording, locked.
    fn add_locked(
        self: &Arc<Batch>,
        mut recording: MutexGuard<'_, Recording>,
        push: impl FnOnce(&mut Recording) -> Result<u32>,
    ) -> Added {
        let mark = recording.mark();
        let pushed = push(&mut recording).and_then(|node| {
            let output = recording
                .outputs
                .get_mut(node as usize)
                .ok_or_else(|| internal("a recorded node has no output"))?;
            let promise = self.promise(node);
            output.promise = Arc::downgrade(&promise);
            Ok(Untyped::promised(promise, Arc::clone(&self.context)))
        });
        if pushed.is_err() {
            // Nothing of a node that failed to record stays in the trace.
            recording.rewind(mark);
        }
        let full = recording.nodes.len() >= MAX_NODES;
        drop(recording);
        self.run_if_full(full);
        Added::Node(pushed)
    }

    /// A promise of the output of node `node`.
    fn promise(self: &Arc<Batch>, node: u32) -> Arc<Promise> {
        let producer: Arc<dyn Producer> = Arc::clone(self) as Arc<dyn Producer>;
        Arc::new(Promise::new(producer, node))
    }

    /// Runs the batch if `full`: a long loop in one scope runs what is live
    /// so far, so a trace (and what it holds) stays bounded; later ops start
    /// a new one. An error here is this thread's environment, which the
    /// next read reports; the ops stay recorded.
    fn run_if_full(&self, full: bool) {
        if full {
            let _ = self.flush();
        }
    }

    /// Where `tensor`, the next operand after `earlier`, comes from: a
    /// node of this batch, or a computed tensor. A failed operand fails the
    /// node with its error, and the first failed operand in order decides,
    /// as per op: when an earlier operand is a node of this batch (its fate
    /// still unknown), the batch runs first and the node is recorded again.
    fn tensor_source(
        self: &Arc<Batch>,
        tensor: &Untyped,
        earlier: &[Source],
    ) -> std::result::Result<Source, Unresolved> {
        if let Some(promise) = tensor.as_promise().filter(|promise| self.made(promise)) {
            return Ok(Source::Pending(promise.index()));
        }
        match tensor.shared_handle() {
            Ok(handle) => Ok(Source::Tensor(handle)),
            Err(err) if earlier.iter().any(|s| matches!(s, Source::Pending(_))) => {
                Err(match self.flush() {
                    Ok(()) => Unresolved::SinkRan,
                    Err(_) => Unresolved::Failed(err),
                })
            }
            Err(err) => Err(Unresolved::Failed(err)),
        }
    }

    /// Whether `promise` is an unfulfilled output of this batch.
    fn made(self: &Arc<Batch>, promise: &Promise) -> bool {
        promise.is_pending_from(Arc::as_ptr(self).cast())
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
            if self.ran() {
                return Ok(());
            }
            self.done.store(true, Ordering::Release);
            // A template followed to the end runs its function; anything
            // else runs as recorded.
            let followed = template::finished(&recording).map(|finished| {
                library::count_followed();
                let count = finished.live.len();
                let parts = finished.parts;
                let ran = self.execute(&finished.function, parts, finished.returned, count);
                (ran, finished.live)
            });
            let (live, results) = match followed {
                Some((ran, live)) => {
                    let results = self.results(ran, &mut recording, &live);
                    (live, results)
                }
                None => {
                    template::materialize(&mut recording);
                    let live: Vec<(u32, Arc<Promise>)> = recording
                        .outputs
                        .iter()
                        .enumerate()
                        .filter_map(|(index, output)| {
                            let promise = output.promise.upgrade()?;
                            Some((u32::try_from(index).ok()?, promise))
                        })
                        .collect();
                    let results = match live.is_empty() {
                        true => Vec::new(),
                        false => self.run(&mut recording, &live, &mut garbage),
                    };
                    (live, results)
                }
            };
            for ((_, promise), result) in live.iter().zip(results) {
                garbage.producers.extend(promise.fulfil(result));
            }
            garbage.promises = live.into_iter().map(|(_, promise)| promise).collect();
            garbage
                .functions
                .extend(recording.nodes.iter().filter_map(|node| match &node.kind {
                    NodeKind::Function { function, .. } => Some(Arc::clone(function)),
                    NodeKind::Op(_) => None,
                }));
            // The inputs and nodes are no longer needed (their room is kept
            // for the thread's next call).
            recording.clear(&self.context);
        }
        drop(garbage);
        Ok(())
    }

    /// The result of each of `live`: one fused call; if it fails, the ops
    /// one by one. A trace whose function was cached already becomes a
    /// template of the thread.
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
            &recording.inputs,
            &recording.constants,
            &recording.nodes,
            &outputs,
            &mut garbage.evicted,
        )
        .and_then(|(function, cached)| {
            let ran = self.execute(&function, recording.parts(), &outputs, live.len());
            if cached && ran.as_ref().is_ok_and(|ran| ran.len() == live.len()) {
                template::remember(recording, &self.context, &function, &outputs);
            }
            ran
        });
        self.results(fused, recording, live)
    }

    /// Runs `function`, the trace of `parts` returning the nodes `outputs`
    /// (`count` of them): through LiteRT in a litert scope where it
    /// converts, else on TensorFlow.
    fn execute(
        &self,
        function: &FusedFunction,
        parts: TraceParts<'_>,
        outputs: &[(u32, DType)],
        count: usize,
    ) -> Result<Vec<OwnedHandle>> {
        if let Some(body) = self.litert {
            if let Some(ran) = self.run_litert(body, function, parts, outputs, count) {
                return ran;
            }
        }
        function.call(&self.context, parts.inputs, parts.work)
    }

    /// Each of `live`'s result from the fused call's: its outputs, or for
    /// a call that failed the ops run again one by one (the recording made
    /// whole first, if it followed a template).
    fn results(
        &self,
        fused: Result<Vec<OwnedHandle>>,
        recording: &mut Recording,
        live: &[(u32, Arc<Promise>)],
    ) -> Vec<Fulfilment> {
        let fused = match fused {
            Err(crate::Error::LitertRefused { what }) => {
                // Under `RXT_TF_LITERT_STRICT`: every result fails with it.
                let refused = crate::Error::LitertRefused { what };
                return live.iter().map(|_| Err(refused.clone())).collect();
            }
            Err(err @ crate::Error::LitertUnavailable { .. }) => {
                return live.iter().map(|_| Err(err.clone())).collect();
            }
            fused => fused,
        };
        match fused {
            Ok(handles) if handles.len() == live.len() => {
                handles.into_iter().map(|h| Ok(Arc::new(h))).collect()
            }
            _ => {
                library::count_replay();
                template::materialize(recording);
                self.replay(recording, live)
            }
        }
    }

    /// The trace run through LiteRT (its `count` outputs), if it converts;
    /// `None` when it falls back to TensorFlow (counted); the error that
    /// refuses it under `RXT_TF_LITERT_STRICT` or a misconfigured backend.
    fn run_litert(
        &self,
        body: &str,
        function: &FusedFunction,
        parts: TraceParts<'_>,
        outputs: &[(u32, DType)],
        count: usize,
    ) -> Option<Result<Vec<OwnedHandle>>> {
        let reason = match litert_trace::run(function, &self.context, parts, outputs) {
            Ok(Outcome::Ran(handles)) if handles.len() == count => return Some(Ok(handles)),
            Ok(Outcome::Ran(_)) => String::from("LiteRT gave another number of outputs"),
            Ok(Outcome::Fallback(reason)) => reason,
            Err(err) => return Some(Err(err)),
        };
        crate::litert::fall_back(body, &reason).err().map(Err)
    }

    /// The batch's ops as eager ops, one by one, as per-op execution runs
    /// them: an op that fails gets its error, an op whose operand failed
    /// gets that operand's error, and every other op its value.
    fn replay(&self, recording: &Recording, live: &[(u32, Arc<Promise>)]) -> Vec<Fulfilment> {
        let mut emitter = EagerEmitter {
            context: &self.context,
        };
        let inputs: Vec<Arc<OwnedHandle>> = recording
            .inputs
            .iter()
            .map(|input| Arc::clone(&input.handle))
            .collect();
        let values = emit_each(
            &mut emitter,
            &inputs,
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

impl node::Target for Arc<Batch> {
    type Sink<'s> = Recorder<'s>;

    fn context(&self) -> &BoundContext {
        &self.context
    }

    fn source(
        &self,
        tensor: &Untyped,
        earlier: &[Source],
    ) -> std::result::Result<Source, Unresolved> {
        self.tensor_source(tensor, earlier)
    }

    fn add(
        &self,
        sources: &mut Sources,
        facts: CallFacts<'_>,
        build: impl FnOnce(&mut Recorder<'_>, &mut Sources) -> Result<u32>,
    ) -> Added {
        let mut recording = self.lock();
        if self.ran() {
            return Added::TargetRan;
        }
        if let Some(node) = template::follow(&mut recording, &self.context, sources, facts) {
            let promise = self.promise(node);
            template::promised(&mut recording, node, &promise);
            let full = template::nodes_after(&recording) >= MAX_NODES;
            drop(recording);
            self.run_if_full(full);
            return Added::Node(Ok(Untyped::promised(promise, Arc::clone(&self.context))));
        }
        let swap_scalar = facts.call.swap_given_at_run_time();
        let spec = template::spec(&recording, sources, swap_scalar);
        self.add_locked(recording, |recording| {
            let mut sink = Recorder {
                recording,
                context: &self.context,
            };
            let node = build(&mut sink, sources)?;
            template::log(recording, facts, spec, node);
            Ok(node)
        })
    }
}

impl Producer for Batch {
    fn produce(&self) -> Result<()> {
        self.flush()
    }
}

/// Records `row` into the thread's batch (`current`, replaced by a new
/// batch when it cannot take the op) and returns its promised output; the
/// keywords in `runtime` are inputs of the trace.
pub(crate) fn record(
    current: &mut Option<Arc<Batch>>,
    row: &'static Op,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kind: TensorKind,
    runtime: u32,
) -> Result<Untyped> {
    let (context, mut call) = eager::plan(row, operands, keywords)?;
    call.runtime = runtime;
    into_batch(current, &context, |batch| {
        node::record(batch, &call, operands, keywords, kind)
    })
}

/// Runs `record` on the thread's batch on `context` (`current`, replaced
/// by a new batch when it cannot take more, or ran meanwhile) until a
/// batch takes the node.
fn into_batch(
    current: &mut Option<Arc<Batch>>,
    context: &Arc<BoundContext>,
    record: impl Fn(&Arc<Batch>) -> Added,
) -> Result<Untyped> {
    loop {
        let batch = match current {
            Some(batch) if batch.accepts(context) => Arc::clone(batch),
            _ => {
                // A batch that ran and that no promise holds lends its room
                // to the next (a read inside a scope runs the batch, so a
                // loop that reads each result starts a batch per read);
                // else the room the thread kept from an earlier one.
                let room = current
                    .take()
                    .filter(|old| old.ran())
                    .and_then(Batch::recycle)
                    .or_else(super::take_spare);
                let batch = Batch::new(context, room, super::litert_active());
                *current = Some(Arc::clone(&batch));
                batch
            }
        };
        if let Added::Node(recorded) = record(&batch) {
            return recorded;
        }
        *current = None;
    }
}

/// A call of a TensorFlow function to record.
pub(crate) struct FunctionInvocation<'a> {
    pub(crate) function: &'a Arc<FunctionNode>,
    /// Its trace key number.
    pub(crate) id: u64,
    pub(crate) arguments: &'a [&'a Untyped],
    pub(crate) captured: &'a [Arc<OwnedHandle>],
    pub(crate) context: &'a Arc<BoundContext>,
    /// Its output's element type and rank.
    pub(crate) kind: TensorKind,
}

/// Records `call` into the thread's batch (`current`, replaced by a new
/// batch when it cannot take it) and returns its promised output.
pub(crate) fn record_function(
    current: &mut Option<Arc<Batch>>,
    call: &FunctionInvocation<'_>,
) -> Result<Untyped> {
    into_batch(current, call.context, |batch| batch.record_function(call))
}

/// An error of the fused machinery itself (a defect, not user input).
fn internal(defect: &'static str) -> crate::Error {
    crate::Error::Internal {
        op: "fused call",
        defect,
    }
}
