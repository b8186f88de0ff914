//! Building one TensorFlow node from a planned call: the one place that
//! turns `(call, operands, keywords)` into a node's inputs (tensors, scalar
//! and keyword constants, the casts a promoting row needs, the permutation
//! of a moved axis), checks it (the window refusal), and estimates its work
//! and output sizes.
//!
//! A node is built in two steps. [`sources`] finds where each of the op's
//! inputs comes from, before anything is locked (finding a tensor may run
//! other code: a promise of another trace). [`build`] then adds the node to
//! a [`Sink`]: the fused recording, or the per-call sink of an op run at
//! once. Both run what they hold through the same emitter. [`record`] does
//! both for a [`Target`] (the fused batch): a recorded op's operands go from
//! the batch into this module once, after [`plan`](crate::eager::plan).

use std::sync::Arc;

use rxt_tf_spec::{DType, Op, TensorKind, Value};

use crate::binding::context::BoundContext;
use crate::eager::malformed;
use crate::eager::operand::operand_handle;
use crate::eager::planned::{Operand, PlannedOp, Slot};
use crate::eager::sizes::Sizes;
use crate::eager::work::{estimate, output_sizes};
use crate::error::{Error, Result};
use crate::safe::handle::OwnedHandle;
use crate::tensor::Untyped;

/// Inputs of one op at most (operands, the tensors of a list, constants).
pub(crate) const MAX_ARGS: usize = rxt_tf_spec::MAX_LIST + 2;

/// Where an input of a recorded node comes from, among what its sink holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Arg {
    /// Operand `n` of the sink (a tensor or a run-time scalar).
    Input(u32),
    /// Constant `n` of the sink (a keyword's value).
    Constant(u32),
    /// The output of node `n` of the same sink.
    Node(u32),
}

/// Where an input of the op comes from, before the node is added.
pub(crate) enum Source {
    /// Output `n` of the sink's own nodes, not computed yet.
    Pending(u32),
    /// A computed tensor.
    Tensor(Arc<OwnedHandle>),
    /// A run-time scalar or literal (or list of integers), of these sizes:
    /// always its own input, so that whether two are equal is not part of
    /// a trace.
    Scalar(Arc<OwnedHandle>, Sizes),
    /// A keyword's constant, of these sizes.
    Constant(Arc<OwnedHandle>, Sizes),
}

impl Source {
    /// Whether it is a tensor operand (cast first by a promoting row).
    fn is_tensor(&self) -> bool {
        matches!(self, Source::Pending(_) | Source::Tensor(_))
    }
}

/// Why a node's sources were not found.
pub(crate) enum Unresolved {
    /// An operand failed (or a constant could not be made): so does the
    /// node, with that error.
    Failed(Error),
    /// The sink ran while its operands were found (to settle which
    /// operand's failure comes first): the node is to be added to a new
    /// one.
    SinkRan,
}

impl From<Error> for Unresolved {
    fn from(err: Error) -> Unresolved {
        Unresolved::Failed(err)
    }
}

/// The sources of one node, in the op's input order, and the permutation
/// constant when the call moves its axis last and back.
pub(crate) struct Sources {
    pub(crate) inputs: Vec<Source>,
    pub(crate) perm: Option<(Arc<OwnedHandle>, Sizes)>,
}

/// The sizes of the constant `value` becomes (known without asking
/// TensorFlow): a list is rank 1, anything else a scalar.
fn constant_sizes(value: &Value) -> Sizes {
    match value {
        Value::Ints(list) => Sizes::exact(&[i64::try_from(list.len()).unwrap_or(i64::MAX)]),
        _ => Sizes::exact(&[]),
    }
}

/// The sizes of the tensor a non-tensor operand becomes: a list of integers
/// is rank 1, pairs are `[n, 2]`, a scalar or literal is rank 0.
fn operand_sizes(operand: &Operand<'_>) -> Sizes {
    let length = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    match operand {
        Operand::Dims(list) => Sizes::exact(&[length(list.len())]),
        Operand::Pairs(pairs) => Sizes::exact(&[length(pairs.len()), 2]),
        _ => Sizes::exact(&[]),
    }
}

/// Finds the sources of `call` on `operands` with `keywords`, on `context`,
/// into `inputs` (emptied first; room a caller may keep): each tensor by
/// `tensor` (given the sources found so far), each scalar, literal and
/// keyword constant as a handle.
pub(crate) fn sources(
    context: &BoundContext,
    call: &PlannedOp,
    operands: &[Operand<'_>],
    keywords: &[Value],
    mut inputs: Vec<Source>,
    mut tensor: impl FnMut(&Untyped, &[Source]) -> std::result::Result<Source, Unresolved>,
) -> std::result::Result<Sources, Unresolved> {
    let row = call.row;
    inputs.clear();
    for slot in call.inputs(keywords) {
        match slot? {
            Slot::Operand(index) => {
                let operand = operands.get(index).ok_or_else(|| malformed(row))?;
                let tensors = operand.tensors();
                if tensors.is_empty() {
                    let handle = operand_handle(context, call, operand)?;
                    let handle = handle.ok_or_else(|| malformed(row))?;
                    inputs.push(Source::Scalar(handle, operand_sizes(operand)));
                }
                // One input per tensor: a list's are grouped again when
                // emitted (the call's `list_length`).
                for operand in tensors {
                    let source = tensor(operand, &inputs)?;
                    inputs.push(source);
                }
            }
            Slot::Operands(indices) => {
                // One input each, grouped again when emitted.
                for index in indices {
                    let operand = operands.get(*index).ok_or_else(|| malformed(row))?;
                    let operand = operand.tensor().ok_or_else(|| malformed(row))?;
                    let source = tensor(operand, &inputs)?;
                    inputs.push(source);
                }
            }
            Slot::Constant(value, dtype, given_at_run_time) => {
                let handle = context.constant(row.name, &value, dtype)?;
                let sizes = constant_sizes(&value);
                inputs.push(match given_at_run_time {
                    // An input each time: its value is not part of a trace.
                    true => Source::Scalar(handle, sizes),
                    false => Source::Constant(handle, sizes),
                });
            }
        }
    }
    let perm = match call.swap {
        Some(perm) => {
            let value = Value::Ints(perm);
            let handle = context.constant(row.name, &value, DType::I32)?;
            Some((handle, constant_sizes(&value)))
        }
        None => None,
    };
    Ok(Sources { inputs, perm })
}

/// Where a node is recorded (the fused batch): the source of each of its
/// tensors, and the sink the node is built into.
pub(crate) trait Target {
    /// The sink a node is built into.
    type Sink<'s>: Sink
    where
        Self: 's;

    /// The context the target records on.
    fn context(&self) -> &BoundContext;

    /// Where `tensor`, the next operand after `earlier`, comes from.
    fn source(
        &self,
        tensor: &Untyped,
        earlier: &[Source],
    ) -> std::result::Result<Source, Unresolved>;

    /// Adds the node `build` makes from `sources` (for `facts`) into the
    /// sink: its output, or [`Added::TargetRan`] if the target took no more
    /// nodes meanwhile (the caller starts another).
    fn add(
        &self,
        sources: &mut Sources,
        facts: CallFacts<'_>,
        build: impl FnOnce(&mut Self::Sink<'_>, &mut Sources) -> Result<u32>,
    ) -> Added;
}

/// What a recorded call is besides its sources: the planned op, its
/// keywords and its output's kind.
#[derive(Clone, Copy)]
pub(crate) struct CallFacts<'a> {
    pub(crate) call: &'a PlannedOp,
    pub(crate) keywords: &'a [Value],
    pub(crate) kind: TensorKind,
}

/// What adding a node to a recording target came to.
pub(crate) enum Added {
    /// The node's pending output, or the error that kept it out.
    Node(Result<Untyped>),
    /// The target ran meanwhile and takes no more nodes: the caller
    /// records into another.
    TargetRan,
}

/// Records `call` on `operands` with `keywords` (its output of `kind`) into
/// `target`: the sources first, before the target is locked (finding a
/// tensor may run other code), then the node.
pub(crate) fn record(
    target: &impl Target,
    call: &PlannedOp,
    operands: &[Operand<'_>],
    keywords: &[Value],
    kind: TensorKind,
) -> Added {
    let found = sources(
        target.context(),
        call,
        operands,
        keywords,
        SOURCE_ROOM.take(),
        |tensor, earlier| target.source(tensor, earlier),
    );
    match found {
        Ok(mut sources) => {
            let facts = CallFacts {
                call,
                keywords,
                kind,
            };
            let added = target.add(&mut sources, facts, |sink, sources| {
                build(sink, call, keywords, kind, sources)
            });
            sources.inputs.clear();
            SOURCE_ROOM.set(sources.inputs);
            added
        }
        Err(Unresolved::Failed(err)) => Added::Node(Err(err)),
        Err(Unresolved::SinkRan) => Added::TargetRan,
    }
}

thread_local! {
    /// The room of the sources of the thread's last recorded node, kept
    /// for its next (one allocation less per recorded op).
    static SOURCE_ROOM: std::cell::Cell<Vec<Source>> = const { std::cell::Cell::new(Vec::new()) };
}

/// One node to add: a planned op on its inputs.
pub(crate) struct NodeSpec<'k> {
    pub(crate) call: PlannedOp,
    pub(crate) keywords: &'k [Value],
    /// The first `arg_count` are its inputs, in the op's order.
    pub(crate) args: [Arg; MAX_ARGS],
    pub(crate) arg_count: usize,
    /// The permutation constant when the op's axis is moved last and back
    /// (the emitter adds the transposes).
    pub(crate) swap: Option<Arg>,
    /// Estimated work, in the units of the GIL policy.
    pub(crate) work: i64,
    /// What is known of its output: element type and sizes.
    pub(crate) dtype: DType,
    pub(crate) sizes: Sizes,
}

/// What holds nodes: the fused recording, or the per-call sink of an op
/// run at once.
pub(crate) trait Sink {
    /// The argument `source` becomes (added as an input or constant, or a
    /// pending node's), and its sizes.
    fn input(&mut self, source: Source, row: &'static Op) -> Result<(Arg, Sizes)>;
    /// Adds a node; its output is `Arg::Node` of the index returned.
    fn node(&mut self, node: NodeSpec<'_>) -> Result<u32>;
}

/// Adds `call` with `keywords`, whose output is of `kind`, on `sources`
/// (taken out of it) to `sink`: each tensor input cast first where the row
/// promotes it, the window checked, the work and the output sizes
/// estimated. Returns the node's index.
pub(crate) fn build(
    sink: &mut impl Sink,
    call: &PlannedOp,
    keywords: &[Value],
    kind: TensorKind,
    sources: &mut Sources,
) -> Result<u32> {
    let row = call.row;
    let arg_count = sources.inputs.len();
    if arg_count > MAX_ARGS {
        return Err(malformed(row));
    }
    let mut args = [Arg::Input(0); MAX_ARGS];
    let mut sizes = [Sizes::default(); MAX_ARGS];
    for (index, source) in sources.inputs.drain(..).enumerate() {
        let tensor = source.is_tensor();
        let (mut arg, arg_sizes) = sink.input(source, row)?;
        if tensor && call.promotes() {
            arg = cast(sink, arg, arg_sizes, call)?;
        }
        args[index] = arg;
        sizes[index] = arg_sizes;
    }
    let swap = match sources.perm.take() {
        Some((perm, sizes)) if call.swap_given_at_run_time() => {
            Some(sink.input(Source::Scalar(perm, sizes), row)?.0)
        }
        Some((perm, sizes)) => Some(sink.input(Source::Constant(perm, sizes), row)?.0),
        None => None,
    };
    let sizes = &sizes[..arg_count];
    crate::eager::window::check(row, keywords, sizes)?;
    sink.node(NodeSpec {
        call: *call,
        keywords,
        args,
        arg_count,
        swap,
        work: estimate(row, keywords, sizes),
        dtype: kind.dtype,
        sizes: output_sizes(row, keywords, kind, sizes),
    })
}

/// A node casting `arg` (a tensor of `call`'s operand element type, of
/// `sizes`) to the element type `call` promotes it to.
fn cast(sink: &mut impl Sink, arg: Arg, sizes: Sizes, call: &PlannedOp) -> Result<Arg> {
    let cast = PlannedOp::cast(call.operand_element);
    let keywords = call.cast_keywords();
    let mut args = [Arg::Input(0); MAX_ARGS];
    args[0] = arg;
    let node = sink.node(NodeSpec {
        call: cast,
        keywords: &keywords,
        args,
        arg_count: 1,
        swap: None,
        work: estimate(cast.row, &keywords, &[sizes]),
        dtype: call.element,
        sizes,
    })?;
    Ok(Arg::Node(node))
}
