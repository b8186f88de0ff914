//! An op run at once (outside a fusing scope, or in a per-op one): its
//! node built by the eager layer's builder into a sink of its own, then
//! run through the same emitter a failed fused call is replayed with.

use std::sync::Arc;

use rxt_tf_spec::{Op, TensorKind, Value};

use crate::binding::context::BoundContext;
use crate::eager::malformed;
use crate::eager::node::{self, Arg, NodeSpec, Sink, Source, Sources, Unresolved};
use crate::eager::work::Dims;
use crate::eager::{Call, Input};
use crate::error::Result;
use crate::fused::emit::{emit_all, run_eager_many, EagerEmitter, Node};
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;
use crate::tensor::Untyped;

/// The nodes of one op run at once (its casts, then itself) and what they
/// take.
struct PerCall {
    inputs: Vec<Arc<OwnedHandle>>,
    constants: Vec<Arc<OwnedHandle>>,
    nodes: Vec<Node>,
    status: Status,
}

impl Sink for PerCall {
    fn input(&mut self, source: Source, row: &'static Op) -> Result<(Arg, Dims)> {
        let (list, arg): (_, fn(u32) -> Arg) = match source {
            Source::Tensor(handle) | Source::Scalar(handle) => {
                (Some((handle, &mut self.inputs)), Arg::Input)
            }
            Source::Constant(handle) => (Some((handle, &mut self.constants)), Arg::Constant),
            // Nothing of it is pending: its operands are computed.
            Source::Pending(_) => (None, Arg::Node),
        };
        let (handle, list) = list.ok_or_else(|| malformed(row))?;
        let dims = Dims::of(&handle, &self.status, row.name)?;
        let index = u32::try_from(list.len()).map_err(|_| malformed(row))?;
        list.push(handle);
        Ok((arg(index), dims))
    }

    fn node(&mut self, spec: NodeSpec<'_>) -> Result<u32> {
        let index = u32::try_from(self.nodes.len()).map_err(|_| malformed(spec.call.row))?;
        self.nodes.push(Node::op(spec));
        Ok(index)
    }
}

/// Builds the node of `call` on `operands` with `keywords` (its output of
/// `kind`) on `context`, ready to run.
fn build(
    context: &Arc<BoundContext>,
    call: &Call,
    operands: &[Input<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Result<PerCall> {
    let sources: Sources = node::sources(context, call, operands, keywords, |tensor, _| {
        Ok(Source::Tensor(tensor.shared_handle()?))
    })
    .map_err(|unresolved| match unresolved {
        Unresolved::Failed(err) => err,
        Unresolved::SinkRan => malformed(call.row),
    })?;
    let mut sink = PerCall {
        inputs: Vec::with_capacity(sources.inputs.len()),
        constants: Vec::new(),
        nodes: Vec::with_capacity(1),
        status: Status::new(context.wheel().api(), call.row.name)?,
    };
    node::build(&mut sink, call, keywords, kind, sources)?;
    Ok(sink)
}

/// Runs `call` on `operands` with `keywords` now: one node (and the casts
/// and transposes around it) as eager ops. Its output is of `kind`.
pub(crate) fn run(
    context: &Arc<BoundContext>,
    call: &Call,
    operands: &[Input<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Result<Untyped> {
    let sink = build(context, call, operands, keywords, kind)?;
    let mut emitter = EagerEmitter { context };
    let mut values = emit_all(&mut emitter, &sink.inputs, &sink.constants, &sink.nodes)?;
    let output = values.pop().ok_or_else(|| malformed(call.row))?;
    let handle = Arc::try_unwrap(output).or_else(|shared| {
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
    call: &Call,
    operands: &[Input<'_>],
    keywords: &[Value],
    kinds: &[TensorKind],
) -> Result<Vec<Untyped>> {
    let first = kinds.first().copied().ok_or_else(|| malformed(call.row))?;
    let sink = build(context, call, operands, keywords, first)?;
    let handles = run_eager_many(
        context,
        &sink.inputs,
        &sink.constants,
        &sink.nodes,
        kinds.len(),
    )?;
    Ok(handles
        .into_iter()
        .map(|handle| Untyped::ready(handle, Arc::clone(context)))
        .collect())
}
