//! An op run at once (outside a fusing scope, or in a per-op one): its
//! node built by the eager layer's builder into a sink of its own, then
//! run through the same emitter a failed fused call is replayed with.
//!
//! The sink's room is kept per thread and reused from call to call, so an
//! op run at once allocates no more than its own output.

use std::cell::RefCell;
use std::sync::Arc;

use rxt_tf_spec::{Op, TensorKind, Value};

use crate::binding::context::BoundContext;
use crate::eager::emit::{emit_all_into, run_eager_many, EagerEmitter, Node};
use crate::eager::malformed;
use crate::eager::node::{self, Arg, NodeSpec, Sink, Source, Sources, Unresolved};
use crate::eager::sizes::Sizes;
use crate::eager::{Operand, PlannedOp};
use crate::error::Result;
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;
use crate::tensor::Untyped;

/// The nodes of one op run at once (its casts, then itself), what they
/// take, and room for running them.
#[derive(Default)]
struct PerCall {
    sources: Vec<Source>,
    inputs: Vec<Arc<OwnedHandle>>,
    constants: Vec<Arc<OwnedHandle>>,
    nodes: Vec<Node>,
    values: Vec<Arc<OwnedHandle>>,
    scratch: Vec<Arc<OwnedHandle>>,
    /// The keyword vectors of nodes run before, for the next nodes.
    keywords: Vec<Vec<Value>>,
    /// Reads inputs' sizes; made on first use, kept with the room.
    status: Option<Status>,
}

thread_local! {
    /// The thread's room for its next op run at once.
    static SPARE: RefCell<Option<PerCall>> = const { RefCell::new(None) };
}

impl PerCall {
    /// The thread's kept room, or new room (when another op of this thread
    /// holds it, or the thread is ending).
    fn take() -> PerCall {
        SPARE
            .try_with(|spare| spare.try_borrow_mut().ok()?.take())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Empties the room (dropping what it held here, outside the thread's
    /// state) and keeps it for the thread's next op.
    fn put(mut self) {
        self.sources.clear();
        self.inputs.clear();
        self.constants.clear();
        let keywords = &mut self.keywords;
        keywords.extend(self.nodes.drain(..).map(|node| node.keywords));
        self.values.clear();
        self.scratch.clear();
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                spare.get_or_insert(self);
            }
        });
    }
}

impl Sink for PerCall {
    fn input(&mut self, source: Source, row: &'static Op) -> Result<(Arg, Sizes)> {
        let (handle, list, arg, given): (_, _, fn(u32) -> Arg, _) = match source {
            Source::Tensor(handle) => (handle, &mut self.inputs, Arg::Input, None),
            Source::Scalar(handle, sizes) => (handle, &mut self.inputs, Arg::Input, Some(sizes)),
            Source::Constant(handle, sizes) => {
                (handle, &mut self.constants, Arg::Constant, Some(sizes))
            }
            // Nothing of it is pending: its operands are computed.
            Source::Pending(_) => return Err(malformed(row)),
        };
        let sizes = match given {
            Some(sizes) => sizes,
            None => {
                let status = match &mut self.status {
                    Some(status) => status,
                    empty => empty.insert(Status::new(handle.api(), row.name)?),
                };
                Sizes::of(&handle, status, row.name)?
            }
        };
        let index = u32::try_from(list.len()).map_err(|_| malformed(row))?;
        list.push(handle);
        Ok((arg(index), sizes))
    }

    fn node(&mut self, spec: NodeSpec<'_>) -> Result<u32> {
        let index = u32::try_from(self.nodes.len()).map_err(|_| malformed(spec.call.row))?;
        let room = self.keywords.pop().unwrap_or_default();
        self.nodes.push(Node::op_in(spec, room));
        Ok(index)
    }
}

/// Builds the node of `call` on `operands` with `keywords` (its output of
/// `kind`) on `context` into `sink`, ready to run.
fn build(
    sink: &mut PerCall,
    context: &Arc<BoundContext>,
    call: &PlannedOp,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Result<()> {
    let room = std::mem::take(&mut sink.sources);
    let mut sources: Sources =
        node::sources(context, call, operands, keywords, room, |tensor, _| {
            Ok(Source::Tensor(tensor.shared_handle()?))
        })
        .map_err(|unresolved| match unresolved {
            Unresolved::Failed(err) => err,
            Unresolved::SinkRan => malformed(call.row),
        })?;
    let built = node::build(sink, call, keywords, kind, &mut sources);
    sink.sources = sources.inputs;
    built.map(drop)
}

/// Runs `call` on `operands` with `keywords` now: one node (and the casts
/// and transposes around it) as eager ops. Its output is of `kind`.
pub(crate) fn run(
    context: &Arc<BoundContext>,
    call: &PlannedOp,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Result<Untyped> {
    let mut sink = PerCall::take();
    let output = build(&mut sink, context, call, operands, keywords, kind).and_then(|()| {
        let PerCall {
            inputs,
            constants,
            nodes,
            values,
            scratch,
            ..
        } = &mut sink;
        let mut emitter = EagerEmitter { context };
        emit_all_into(&mut emitter, inputs, constants, nodes, values, scratch)?;
        values.pop().ok_or_else(|| malformed(call.row))
    });
    sink.put();
    let handle = Arc::try_unwrap(output?).or_else(|shared| {
        const OP: &str = "materialize";
        let status = Status::new(context.wheel().api(), OP)?;
        shared.share(&status, OP)
    })?;
    Ok(Untyped::ready(handle, Arc::clone(context)))
}

/// Runs `call`, an op of `count` outputs, on `operands` with `keywords`
/// now: one eager op (after its casts).
pub(crate) fn run_many(
    context: &Arc<BoundContext>,
    call: &PlannedOp,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kinds: &[TensorKind],
) -> Result<Vec<Untyped>> {
    // The first output's kind sizes the node (an op may give none:
    // `unstack` of an empty axis).
    let first = kinds.first().copied().unwrap_or(TensorKind {
        dtype: call.element,
        rank: 0,
    });
    let mut sink = PerCall::take();
    let handles = build(&mut sink, context, call, operands, keywords, first).and_then(|()| {
        run_eager_many(
            context,
            &sink.inputs,
            &sink.constants,
            &sink.nodes,
            kinds.len(),
        )
    });
    sink.put();
    Ok(handles?
        .into_iter()
        .map(|handle| Untyped::ready(handle, Arc::clone(context)))
        .collect())
}
