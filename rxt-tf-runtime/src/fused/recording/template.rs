//! Templates: traces a thread ran before, which its next calls follow
//! instead of recording them again.
//!
//! A body that runs the same ops on inputs of the same kinds and sizes
//! makes the same trace call after call, and recording it again (each op's
//! node, output sizes and work, the trace key, then the function found by
//! that key) costs more than running a small model. Once a trace's
//! function is found in the library (its second call), the thread keeps the
//! trace as a template: each recorded call's planned op, keywords, output
//! node and where each of its inputs came from. A batch whose first call
//! matches a template follows it: each call is checked against the
//! template's next one (the same plan and keywords, the same earlier nodes
//! and constants, the same tensor where the template had one tensor twice,
//! a new tensor of the same element type and sizes where it had a new one)
//! and only its inputs are kept. A call that does not match ends the
//! following: the template's nodes up to it become the recording's, and
//! recording goes on as it would have, so the trace and its results are
//! the same as without a template. A batch that followed its template to
//! the end, holding the same outputs, runs the template's function.
//!
//! A template holds no tensor, function or context alive, only their
//! addresses (by `Weak`, so none is reused while it is kept): a thread's
//! templates are dropped when it ends, maybe after Python has.

use std::cell::RefCell;
use std::sync::{Arc, Weak};

use rxt_tf_spec::{DType, Op, TensorKind, Value};

use crate::binding::context::BoundContext;
use crate::eager::emit::Node;
use crate::eager::node::{CallFacts, Source, Sources};
use crate::eager::sizes::Sizes;
use crate::eager::PlannedOp;
use crate::fused::input::RecordedInput;
use crate::fused::key::Part;
use crate::fused::library::FusedFunction;
use crate::fused::recording::{Mark, Output, Recording, TraceParts};
use crate::safe::handle::OwnedHandle;
use crate::tensor::Promise;

/// Templates one thread keeps (the least recently followed dropped first):
/// enough for the bodies a thread takes turns at.
const TEMPLATES_KEPT: usize = 32;

thread_local! {
    /// The thread's templates, the most recently used last.
    static TEMPLATES: RefCell<Vec<Arc<Template>>> = const { RefCell::new(Vec::new()) };
}

/// A trace as its calls recorded it, and its function.
pub(crate) struct Template {
    context: Weak<BoundContext>,
    function: Weak<FusedFunction>,
    calls: Vec<TracedCall>,
    inputs: Vec<TemplateInput>,
    constants: Vec<Weak<OwnedHandle>>,
    nodes: Vec<Node>,
    outputs: Vec<Output>,
    key: Vec<Part>,
    work: i64,
    /// The nodes its function returns, and their element types.
    returned: Vec<(u32, DType)>,
}

/// An input of a template: the tensor it was, its element type and sizes.
struct TemplateInput {
    handle: Weak<OwnedHandle>,
    dtype: i32,
    sizes: Sizes,
}

/// One recorded call of a trace.
#[derive(Clone)]
pub(crate) struct TracedCall {
    call: PlannedOp,
    keywords: Vec<Value>,
    kind: TensorKind,
    sources: Vec<SourceSpec>,
    perm: Option<SourceSpec>,
    /// The node whose output the call returned.
    output: u32,
    /// Where the recording stood after it.
    after: Mark,
}

/// Where one source of a recorded call came from.
#[derive(Clone, Copy)]
enum SourceSpec {
    /// The output of this node.
    Pending(u32),
    /// This input, already in the trace (the same tensor again).
    Seen(u32),
    /// A tensor new to the trace: this input.
    New(u32),
    /// A run-time scalar of these sizes: this input.
    Scalar(u32, Sizes),
    /// This constant of the trace.
    Constant(u32),
}

/// The sources of a call about to be recorded, as a template keeps them,
/// and the inputs and constants the trace will have after it.
pub(crate) struct Spec {
    sources: Vec<SourceSpec>,
    perm: Option<SourceSpec>,
    inputs: usize,
    constants: usize,
}

/// A template being followed by a batch.
pub(crate) struct Following {
    template: Arc<Template>,
    /// The calls matched so far.
    cursor: usize,
    /// The promises made of the nodes matched.
    promises: Vec<(u32, Weak<Promise>)>,
}

/// The address of a tensor handle, which tells tensors apart.
fn address(handle: &OwnedHandle) -> usize {
    handle.as_ptr() as usize
}

/// Where each of `sources` comes from, as the recording will take them
/// (`None` when the recording keeps no template).
pub(crate) fn spec(recording: &Recording, sources: &Sources, swap_scalar: bool) -> Option<Spec> {
    recording.calls.as_ref()?;
    let mut fresh_inputs: Vec<(usize, u32)> = Vec::new();
    let mut fresh_constants: Vec<(usize, u32)> = Vec::new();
    let mut inputs = recording.inputs.len();
    let mut constants = recording.constants.len();
    let input_addresses = || recording.inputs.iter().map(|input| address(&input.handle));
    let constant_addresses = || recording.constants.iter().map(|held| address(held));
    let mut constant = |handle: &OwnedHandle, fresh: &mut Vec<(usize, u32)>| {
        let index = known_or_new(constant_addresses(), fresh, address(handle), &mut constants)?;
        Some(SourceSpec::Constant(index.either()))
    };
    let mut specs = Vec::with_capacity(sources.inputs.len());
    for source in &sources.inputs {
        let spec = match source {
            Source::Pending(node) => SourceSpec::Pending(*node),
            Source::Tensor(handle) => {
                match known_or_new(
                    input_addresses(),
                    &mut fresh_inputs,
                    address(handle),
                    &mut inputs,
                )? {
                    Index::Known(index) => SourceSpec::Seen(index),
                    Index::New(index) => SourceSpec::New(index),
                }
            }
            Source::Scalar(handle, sizes) => {
                let index = u32::try_from(inputs).ok()?;
                inputs += 1;
                fresh_inputs.push((address(handle), index));
                SourceSpec::Scalar(index, *sizes)
            }
            Source::Constant(handle, _) => constant(handle, &mut fresh_constants)?,
        };
        specs.push(spec);
    }
    let perm = match &sources.perm {
        None => None,
        Some((_, sizes)) if swap_scalar => {
            let index = u32::try_from(inputs).ok()?;
            inputs += 1;
            Some(SourceSpec::Scalar(index, *sizes))
        }
        Some((handle, _)) => Some(constant(handle, &mut fresh_constants)?),
    };
    Some(Spec {
        sources: specs,
        perm,
        inputs,
        constants,
    })
}

/// An index among a trace's inputs or constants: one it has (its address
/// among `held`, or among those `fresh` in this call), or the next one,
/// `count` of them counted.
enum Index {
    Known(u32),
    New(u32),
}

impl Index {
    fn either(self) -> u32 {
        match self {
            Index::Known(index) | Index::New(index) => index,
        }
    }
}

/// The index of the input or constant at `at`, as the recording takes it:
/// an earlier one's, or a new one (noted in `fresh`, `count` counted).
fn known_or_new(
    held: impl IntoIterator<Item = usize>,
    fresh: &mut Vec<(usize, u32)>,
    at: usize,
    count: &mut usize,
) -> Option<Index> {
    let known = held
        .into_iter()
        .position(|a| a == at)
        .and_then(|index| u32::try_from(index).ok())
        .or_else(|| fresh.iter().find(|(a, _)| *a == at).map(|&(_, i)| i));
    if let Some(index) = known {
        return Some(Index::Known(index));
    }
    let index = u32::try_from(*count).ok()?;
    *count += 1;
    fresh.push((at, index));
    Some(Index::New(index))
}

/// Keeps the call of `facts` the recording just took (its output node
/// `output`), or stops keeping calls if the recording did not take its
/// sources as `spec` says.
pub(crate) fn log(
    recording: &mut Recording,
    facts: CallFacts<'_>,
    spec: Option<Spec>,
    output: u32,
) {
    let after = recording.mark();
    let Some(calls) = recording.calls.as_mut() else {
        return;
    };
    match spec {
        Some(spec) if spec.inputs == after.inputs && spec.constants == after.constants => {
            calls.push(TracedCall {
                call: *facts.call,
                keywords: facts.keywords.to_vec(),
                kind: facts.kind,
                sources: spec.sources,
                perm: spec.perm,
                output,
                after,
            });
        }
        _ => recording.calls = None,
    }
}

/// Follows a template with the call of `facts` on `sources`: its output
/// node if the call is the template's next (a first call may start
/// following one of the thread's templates); `None` to record it, the
/// template's nodes so far made the recording's.
pub(crate) fn follow(
    recording: &mut Recording,
    context: &Arc<BoundContext>,
    sources: &Sources,
    facts: CallFacts<'_>,
) -> Option<u32> {
    if let Some(mut following) = recording.following.take() {
        let cursor = following.cursor;
        let bound = bind(
            &following.template,
            cursor,
            recording,
            context,
            sources,
            facts,
        );
        if bound.is_some() {
            following.cursor += 1;
        }
        recording.following = Some(following);
        if bound.is_none() {
            materialize(recording);
        }
        return bound;
    }
    let fresh = recording.nodes.is_empty()
        && recording.inputs.is_empty()
        && recording.calls.as_ref().is_some_and(Vec::is_empty);
    if !fresh {
        return None;
    }
    let found = TEMPLATES
        .try_with(|templates| {
            let templates = templates.try_borrow().ok()?;
            templates
                .iter()
                .rev()
                .filter(|template| std::ptr::eq(template.context.as_ptr(), Arc::as_ptr(context)))
                .find_map(|template| {
                    let output = bind(template, 0, recording, context, sources, facts)?;
                    Some((Arc::clone(template), output))
                })
        })
        .ok()
        .flatten();
    let (template, output) = found?;
    used(&template);
    recording.following = Some(Following {
        template,
        cursor: 1,
        promises: Vec::new(),
    });
    Some(output)
}

/// Notes the promise of node `node` the batch made of a followed call.
pub(crate) fn promised(recording: &mut Recording, node: u32, promise: &Arc<Promise>) {
    if let Some(following) = recording.following.as_mut() {
        following.promises.push((node, Arc::downgrade(promise)));
    }
}

/// The nodes of the followed template's call `cursor` make a full trace
/// (`MAX_NODES`) after it.
pub(crate) fn nodes_after(recording: &Recording) -> usize {
    recording.following.as_ref().map_or(0, |following| {
        following
            .cursor
            .checked_sub(1)
            .and_then(|last| following.template.calls.get(last))
            .map_or(0, |call| call.after.nodes)
    })
}

/// Binds the inputs of the call on `sources` as those of the template's
/// call `index`, if it is that call: its output node. Binds nothing
/// otherwise.
fn bind(
    template: &Template,
    index: usize,
    recording: &mut Recording,
    context: &BoundContext,
    sources: &Sources,
    facts: CallFacts<'_>,
) -> Option<u32> {
    let traced = template.calls.get(index)?;
    if traced.call != *facts.call
        || traced.kind != facts.kind
        || traced.keywords[..] != *facts.keywords
        || traced.sources.len() != sources.inputs.len()
        || traced.perm.is_some() != sources.perm.is_some()
    {
        return None;
    }
    let (inputs, constants) = (recording.inputs.len(), recording.constants.len());
    let row = facts.call.row;
    let mut binder = Binder {
        template,
        recording,
        context,
        row,
    };
    let bound = sources
        .inputs
        .iter()
        .zip(&traced.sources)
        .all(|(source, spec)| binder.source(source, *spec))
        && match (&sources.perm, traced.perm) {
            (Some((handle, sizes)), Some(SourceSpec::Scalar(index, want))) => {
                binder.scalar(handle, *sizes, index, want)
            }
            (Some((handle, _)), Some(SourceSpec::Constant(index))) => {
                binder.constant(handle, index)
            }
            (None, None) => true,
            _ => false,
        };
    if !bound {
        recording.inputs.truncate(inputs);
        recording.constants.truncate(constants);
        return None;
    }
    Some(traced.output)
}

/// Binds a call's sources to a template's.
struct Binder<'a> {
    template: &'a Template,
    recording: &'a mut Recording,
    context: &'a BoundContext,
    row: &'static Op,
}

impl Binder<'_> {
    fn source(&mut self, source: &Source, spec: SourceSpec) -> bool {
        match (source, spec) {
            (Source::Pending(node), SourceSpec::Pending(want)) => *node == want,
            (Source::Tensor(handle), SourceSpec::Seen(index)) => self
                .recording
                .inputs
                .get(index as usize)
                .is_some_and(|input| address(&input.handle) == address(handle)),
            (Source::Tensor(handle), SourceSpec::New(index)) => self.tensor(handle, index),
            (Source::Scalar(handle, sizes), SourceSpec::Scalar(index, want)) => {
                self.scalar(handle, *sizes, index, want)
            }
            (Source::Constant(handle, _), SourceSpec::Constant(index)) => {
                self.constant(handle, index)
            }
            _ => false,
        }
    }

    /// A tensor new to the trace as its input `index`: not one of its
    /// inputs already, and the template's own tensor or one of its element
    /// type and sizes.
    fn tensor(&mut self, handle: &Arc<OwnedHandle>, index: u32) -> bool {
        let inputs = &self.recording.inputs;
        let at = address(handle);
        if index as usize != inputs.len() || inputs.iter().any(|i| address(&i.handle) == at) {
            return false;
        }
        let Some(want) = self.template.inputs.get(index as usize) else {
            return false;
        };
        let (dtype, sizes) = if std::ptr::eq(want.handle.as_ptr(), Arc::as_ptr(handle)) {
            (want.dtype, want.sizes)
        } else {
            let dtype = handle.dtype();
            let sizes = self.recording.sizes_of(self.context, handle, self.row);
            match sizes {
                Ok(sizes) if dtype == want.dtype && sizes.same_as(&want.sizes) => (dtype, sizes),
                _ => return false,
            }
        };
        self.recording.inputs.push(RecordedInput {
            handle: Arc::clone(handle),
            dtype,
            sizes,
        });
        true
    }

    /// A run-time scalar of `sizes` as the trace's input `index`.
    fn scalar(&mut self, handle: &Arc<OwnedHandle>, sizes: Sizes, index: u32, want: Sizes) -> bool {
        let inputs = &self.recording.inputs;
        let dtype = handle.dtype();
        let fits = index as usize == inputs.len()
            && sizes.same_as(&want)
            && self
                .template
                .inputs
                .get(index as usize)
                .is_some_and(|input| input.dtype == dtype);
        if fits {
            self.recording.inputs.push(RecordedInput {
                handle: Arc::clone(handle),
                dtype,
                sizes,
            });
        }
        fits
    }

    /// The template's constant `index`, the same tensor.
    fn constant(&mut self, handle: &Arc<OwnedHandle>, index: u32) -> bool {
        let same = self
            .template
            .constants
            .get(index as usize)
            .is_some_and(|want| std::ptr::eq(want.as_ptr(), Arc::as_ptr(handle)));
        let constants = &mut self.recording.constants;
        match constants.get(index as usize) {
            _ if !same => false,
            Some(held) => address(held) == address(handle),
            None if index as usize == constants.len() => {
                constants.push(Arc::clone(handle));
                true
            }
            None => false,
        }
    }
}

/// Ends following the recording's template, if it follows one: the
/// template's nodes, outputs, key and calls up to the calls matched become
/// the recording's (its inputs and constants are already), each output the
/// batch promised holding its promise.
pub(crate) fn materialize(recording: &mut Recording) {
    let Some(following) = recording.following.take() else {
        return;
    };
    let template = &following.template;
    let matched = following.cursor.min(template.calls.len());
    let Some(mark) = matched
        .checked_sub(1)
        .and_then(|last| template.calls.get(last))
        .map(|call| call.after)
    else {
        return;
    };
    recording.nodes.clear();
    recording
        .nodes
        .extend_from_slice(template.nodes.get(..mark.nodes).unwrap_or_default());
    recording.outputs.clear();
    recording.outputs.extend(
        template
            .outputs
            .iter()
            .take(mark.nodes)
            .map(|output| Output {
                promise: Weak::new(),
                dtype: output.dtype,
                sizes: output.sizes,
            }),
    );
    for (node, promise) in following.promises {
        if let Some(output) = recording.outputs.get_mut(node as usize) {
            output.promise = promise;
        }
    }
    recording.key.clear();
    recording
        .key
        .extend_from_slice(template.key.get(..mark.key).unwrap_or_default());
    recording.work = mark.work;
    recording.calls = template.calls.get(..matched).map(<[TracedCall]>::to_vec);
}

/// What a batch that followed its template to the end runs: the
/// template's parts on the batch's inputs, the nodes its function returns,
/// the function, and the live promises in that order. `None` when the
/// batch did not follow a template to the end, holds other outputs, or
/// the function is gone.
pub(crate) fn finished(recording: &Recording) -> Option<Finished<'_>> {
    let following = recording.following.as_ref()?;
    let template = &following.template;
    if following.cursor != template.calls.len() {
        return None;
    }
    let live: Vec<(u32, Arc<Promise>)> = following
        .promises
        .iter()
        .filter_map(|(node, promise)| Some((*node, promise.upgrade()?)))
        .collect();
    let same = live.len() == template.returned.len()
        && live
            .iter()
            .zip(&template.returned)
            .all(|((node, _), (returned, _))| node == returned);
    if !same {
        return None;
    }
    let function = template.function.upgrade()?;
    Some(Finished {
        parts: TraceParts {
            inputs: &recording.inputs,
            nodes: &template.nodes,
            outputs: &template.outputs,
            work: template.work,
        },
        returned: &template.returned,
        function,
        live,
    })
}

/// A followed trace to run (see [`finished`]).
pub(crate) struct Finished<'a> {
    pub(crate) parts: TraceParts<'a>,
    pub(crate) returned: &'a [(u32, DType)],
    pub(crate) function: Arc<FusedFunction>,
    pub(crate) live: Vec<(u32, Arc<Promise>)>,
}

/// Keeps the recording's trace, whose function `function` returns the
/// nodes `returned`, as a template of this thread (unless it holds
/// something a template does not, or the thread keeps it already).
pub(crate) fn remember(
    recording: &Recording,
    context: &Arc<BoundContext>,
    function: &Arc<FusedFunction>,
    returned: &[(u32, DType)],
) {
    let Some(calls) = recording.calls.as_ref().filter(|calls| !calls.is_empty()) else {
        return;
    };
    let _ = TEMPLATES.try_with(|templates| {
        let Ok(mut templates) = templates.try_borrow_mut() else {
            return;
        };
        templates.retain(|template| {
            template.context.strong_count() > 0 && template.function.strong_count() > 0
        });
        if let Some(known) = templates
            .iter()
            .position(|template| template.key == recording.key && template.returned == returned)
        {
            let template = templates.remove(known);
            templates.push(template);
            return;
        }
        templates.push(Arc::new(Template {
            context: Arc::downgrade(context),
            function: Arc::downgrade(function),
            calls: calls.clone(),
            inputs: recording
                .inputs
                .iter()
                .map(|input| TemplateInput {
                    handle: Arc::downgrade(&input.handle),
                    dtype: input.dtype,
                    sizes: input.sizes,
                })
                .collect(),
            constants: recording.constants.iter().map(Arc::downgrade).collect(),
            nodes: recording.nodes.clone(),
            outputs: recording
                .outputs
                .iter()
                .map(|output| Output {
                    promise: Weak::new(),
                    dtype: output.dtype,
                    sizes: output.sizes,
                })
                .collect(),
            key: recording.key.clone(),
            work: recording.work,
            returned: returned.to_vec(),
        }));
        if templates.len() > TEMPLATES_KEPT {
            templates.remove(0);
        }
    });
}

/// Marks `template` the thread's most recently used.
fn used(template: &Arc<Template>) {
    let _ = TEMPLATES.try_with(|templates| {
        if let Ok(mut templates) = templates.try_borrow_mut() {
            if let Some(at) = templates.iter().position(|t| Arc::ptr_eq(t, template)) {
                let template = templates.remove(at);
                templates.push(template);
            }
        }
    });
}
