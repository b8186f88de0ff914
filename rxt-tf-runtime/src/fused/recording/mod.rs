//! The record of a batch's ops: its inputs, constants and nodes, what is
//! known of each node's output, and the trace key that names the graph.
//! Nodes of the table's ops are added by the eager layer's builder, through
//! this module's [`Sink`]; function calls are added here. Its
//! [`template`]s are recordings kept to be followed.

pub(crate) mod template;

use std::sync::{Arc, Weak};

use rxt_tf_spec::{Becomes, DType, Op};

use crate::binding::context::BoundContext;
use crate::eager::emit::{Node, NodeKind};
use crate::eager::function_node::{FunctionNode, FUNCTION_ROW};
use crate::eager::node::{Arg, NodeSpec, Sink, Source};
use crate::eager::sizes::Sizes;
use crate::eager::{is_set, malformed};
use crate::error::Result;
pub(crate) use crate::fused::input::RecordedInput;
use crate::fused::key::{KeyValue, Part};
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;
use crate::tensor::Promise;
use template::{Following, TracedCall};

/// What is known of a node's output before it runs.
pub(crate) struct Output {
    /// The promise of it the program holds, if any (a cast's has none).
    pub(crate) promise: Weak<Promise>,
    pub(crate) dtype: DType,
    pub(crate) sizes: Sizes,
}

/// The record of a batch's ops; its room is reused by the thread's next
/// batch (it holds no context, and nothing once cleared).
pub(crate) struct Recording {
    /// The call's inputs, each once (a run-time scalar each time).
    pub(crate) inputs: Vec<RecordedInput>,
    /// The keyword constants, each once: `Const` nodes of the function.
    pub(crate) constants: Vec<Arc<OwnedHandle>>,
    pub(crate) nodes: Vec<Node>,
    /// One per node.
    pub(crate) outputs: Vec<Output>,
    pub(crate) key: Vec<Part>,
    /// The nodes' estimated work, added up.
    pub(crate) work: i64,
    /// Reads inputs' sizes; made on first use, kept with the room.
    pub(crate) status: Option<Status>,
    /// The keyword vectors of cleared nodes, for the next nodes.
    keyword_room: Vec<Vec<rxt_tf_spec::Value>>,
    /// The calls recorded, as a template of the trace keeps them; `None`
    /// once the trace holds something a template does not (a function).
    pub(crate) calls: Option<Vec<TracedCall>>,
    /// The template the calls so far followed, if they did: then only
    /// `inputs` (and `constants`) are filled, the rest is the template's.
    pub(crate) following: Option<Following>,
}

/// The parts of a trace a run reads: its inputs, its nodes and what is
/// known of their outputs, their work.
#[derive(Clone, Copy)]
pub(crate) struct TraceParts<'a> {
    pub(crate) inputs: &'a [RecordedInput],
    pub(crate) nodes: &'a [Node],
    pub(crate) outputs: &'a [Output],
    pub(crate) work: i64,
}

/// Where the recording stands, to rewind to.
#[derive(Clone, Copy)]
pub(crate) struct Mark {
    pub(crate) key: usize,
    pub(crate) inputs: usize,
    pub(crate) constants: usize,
    pub(crate) nodes: usize,
    pub(crate) work: i64,
}

impl Recording {
    /// An empty recording.
    pub(crate) fn new() -> Recording {
        Recording {
            inputs: Vec::with_capacity(8),
            constants: Vec::with_capacity(4),
            nodes: Vec::with_capacity(8),
            outputs: Vec::with_capacity(8),
            key: Vec::with_capacity(32),
            work: 0,
            status: None,
            keyword_room: Vec::new(),
            calls: Some(Vec::new()),
            following: None,
        }
    }

    /// The trace's parts as recorded.
    pub(crate) fn parts(&self) -> TraceParts<'_> {
        TraceParts {
            inputs: &self.inputs,
            nodes: &self.nodes,
            outputs: &self.outputs,
            work: self.work,
        }
    }

    /// The sizes of `handle` (read with the recording's status, made on
    /// first use for `row`).
    pub(crate) fn sizes_of(
        &mut self,
        context: &BoundContext,
        handle: &OwnedHandle,
        row: &'static Op,
    ) -> Result<Sizes> {
        let status = match &mut self.status {
            Some(status) => status,
            empty => empty.insert(Status::new(context.wheel().api(), row.name)?),
        };
        Sizes::of(handle, status, row.name)
    }

    /// Where the recording stands now.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            key: self.key.len(),
            inputs: self.inputs.len(),
            constants: self.constants.len(),
            nodes: self.nodes.len(),
            work: self.work,
        }
    }

    /// Undoes what was added since `mark` (a node that failed to record).
    pub(crate) fn rewind(&mut self, mark: Mark) {
        self.key.truncate(mark.key);
        self.inputs.truncate(mark.inputs);
        self.constants.truncate(mark.constants);
        self.nodes.truncate(mark.nodes);
        self.outputs.truncate(mark.nodes);
        self.work = mark.work;
        // A call that failed is not in the trace: no template is kept.
        self.calls = None;
    }

    /// Empties the recording (keeping its room), for a trace on `context`.
    pub(crate) fn clear(&mut self, context: &Arc<BoundContext>) {
        self.inputs.clear();
        self.constants.clear();
        let room = &mut self.keyword_room;
        room.extend(self.nodes.drain(..).map(|node| node.keywords));
        self.outputs.clear();
        self.key.clear();
        self.key.push(Part::Context(Arc::as_ptr(context) as usize));
        self.work = 0;
        self.calls.get_or_insert_with(Vec::new).clear();
        self.following = None;
    }

    /// The nodes' count as a node index, for the next node.
    fn next_node(&self, row: &'static Op) -> Result<u32> {
        u32::try_from(self.nodes.len()).map_err(|_| malformed(row))
    }

    /// Adds a node calling `function` (key number `id`) on `sources` (its
    /// arguments, then its captures), whose output is of `dtype`; returns
    /// its index.
    pub(crate) fn push_function(
        &mut self,
        context: &BoundContext,
        function: &Arc<FunctionNode>,
        id: u64,
        sources: Vec<Source>,
        dtype: DType,
    ) -> Result<u32> {
        let row: &'static Op = &FUNCTION_ROW;
        // A function's trace is not kept as a template.
        self.calls = None;
        self.key.push(Part::Function(id));
        let mut sink = Recorder {
            recording: self,
            context,
        };
        let mut args = Vec::with_capacity(sources.len());
        for source in sources {
            if matches!(source, Source::Scalar(..) | Source::Constant(..)) {
                return Err(malformed(row));
            }
            let (arg, _) = sink.input(source, row)?;
            args.push(arg);
        }
        self.key.extend(args.iter().map(|&arg| Part::of(arg)));
        // A whole function: its work is not estimated; the fused call
        // releases the GIL.
        let work = i64::MAX / 4;
        self.work = self.work.saturating_add(work);
        let node = self.next_node(row)?;
        self.nodes.push(Node {
            kind: NodeKind::Function {
                function: Arc::clone(function),
                args,
            },
            keywords: Vec::new(),
            args: [Arg::Input(0); crate::eager::node::MAX_ARGS],
            arg_count: 0,
            swap: None,
            work,
        });
        self.outputs.push(Output {
            promise: Weak::new(),
            dtype,
            sizes: Sizes::default(),
        });
        Ok(node)
    }
}

/// A recording as the builder's sink, on the context of its batch.
pub(crate) struct Recorder<'r> {
    pub(crate) recording: &'r mut Recording,
    pub(crate) context: &'r BoundContext,
}

impl Recorder<'_> {
    /// The input index of `handle` and its sizes: a tensor (`given` is
    /// `None`) is added on first use, its sizes read then; a run-time scalar
    /// (`given` its sizes) every time.
    fn add_input(
        &mut self,
        handle: Arc<OwnedHandle>,
        given: Option<Sizes>,
        row: &'static Op,
    ) -> Result<(Arg, Sizes)> {
        let recording = &*self.recording;
        let known = given
            .is_none()
            .then(|| {
                recording
                    .inputs
                    .iter()
                    .position(|known| known.handle.as_ptr() == handle.as_ptr())
            })
            .flatten();
        if let Some(index) = known {
            let sizes = recording.inputs[index].sizes;
            let index = u32::try_from(index).map_err(|_| malformed(row))?;
            return Ok((Arg::Input(index), sizes));
        }
        let index = u32::try_from(recording.inputs.len()).map_err(|_| malformed(row))?;
        let dtype = handle.dtype();
        let sizes = match given {
            Some(sizes) => sizes,
            None => self.recording.sizes_of(self.context, &handle, row)?,
        };
        let rank = u8::try_from(sizes.rank()).map_err(|_| malformed(row))?;
        self.recording.key.push(Part::NewInput(dtype, rank));
        self.recording.inputs.push(RecordedInput {
            handle,
            dtype,
            sizes,
        });
        Ok((Arg::Input(index), sizes))
    }
}

impl Sink for Recorder<'_> {
    fn input(&mut self, source: Source, row: &'static Op) -> Result<(Arg, Sizes)> {
        match source {
            Source::Pending(index) => {
                let output = self
                    .recording
                    .outputs
                    .get(index as usize)
                    .ok_or_else(|| malformed(row))?;
                Ok((Arg::Node(index), output.sizes))
            }
            Source::Tensor(handle) => self.add_input(handle, None, row),
            Source::Scalar(handle, sizes) => self.add_input(handle, Some(sizes), row),
            Source::Constant(handle, sizes) => {
                let constants = &mut self.recording.constants;
                let known = constants
                    .iter()
                    .position(|known| known.as_ptr() == handle.as_ptr());
                let index = known.unwrap_or(constants.len());
                if known.is_none() {
                    constants.push(handle);
                }
                // Its value is in the key through the keyword that made it.
                let index = u32::try_from(index).map_err(|_| malformed(row))?;
                Ok((Arg::Constant(index), sizes))
            }
        }
    }

    fn node(&mut self, spec: NodeSpec<'_>) -> Result<u32> {
        let recording = &mut *self.recording;
        let row = spec.call.row;
        let index = recording.next_node(row)?;
        let key = &mut recording.key;
        key.push(Part::Op(std::ptr::from_ref(row) as usize));
        let runtime = spec.call.runtime;
        key.extend(spec.keywords.iter().zip(row.keywords).enumerate().map(
            |(index, (value, keyword))| {
                // A value given at run time that is an input of the
                // trace (or its swap's) is not part of its key.
                let input = matches!(
                    keyword.becomes,
                    Becomes::Input(_) | Becomes::ElementInput | Becomes::LastAxis
                );
                match input && is_set(runtime, index) {
                    true => Part::Keyword(KeyValue::GivenAtRunTime),
                    false => Part::Keyword(KeyValue::from(value)),
                }
            },
        ));
        let args = spec.args.get(..spec.arg_count).unwrap_or_default();
        key.extend(args.iter().map(|&arg| Part::of(arg)));
        if let Some(perm) = spec.swap {
            key.push(Part::Swapped);
            key.push(Part::of(perm));
        }
        recording.work = recording.work.saturating_add(spec.work);
        recording.outputs.push(Output {
            promise: Weak::new(),
            dtype: spec.dtype,
            sizes: spec.sizes,
        });
        let room = recording.keyword_room.pop().unwrap_or_default();
        recording.nodes.push(Node::op_in(spec, room));
        Ok(index)
    }
}
