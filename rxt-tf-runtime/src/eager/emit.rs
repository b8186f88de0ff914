//! Emitting nodes: into a graph (the fused function), or as eager ops one
//! by one (an op run at once, and the replay that names a failing op). One
//! walk over the nodes serves all three, so they run the same ops with the
//! same attributes, and the transposes around an op whose axis is moved
//! last are added here only.

use std::fmt;
use std::sync::Arc;

use rxt_tf_spec::{DType, Op, Value};

use crate::binding::context::BoundContext;
use crate::eager::function_node::{FunctionNode, FUNCTION_ROW};
use crate::eager::node::{Arg, NodeSpec, MAX_ARGS};
use crate::eager::{malformed, run_op, run_op_then, PlannedOp};
use crate::error::Result;
use crate::safe::graph::{GraphOutput, OwnedGraph};
use crate::safe::handle::OwnedHandle;
use crate::safe::op::OwnedOp;
use crate::safe::status::Status;

/// What a node runs.
#[derive(Clone)]
pub(crate) enum NodeKind {
    /// An op of the table, planned.
    Op(PlannedOp),
    /// A TensorFlow function of the context (an `rxt_tf::Function` of one
    /// output) on `args`: the call's arguments, then its captures.
    Function {
        function: Arc<FunctionNode>,
        args: Vec<Arg>,
    },
}

/// One recorded op: what it runs, keyword values and inputs in the op's
/// order.
#[derive(Clone)]
pub(crate) struct Node {
    pub(crate) kind: NodeKind,
    pub(crate) keywords: Vec<Value>,
    /// The first `arg_count` are its inputs.
    pub(crate) args: [Arg; MAX_ARGS],
    pub(crate) arg_count: usize,
    /// The permutation constant when the op's axis is moved last and back
    /// (softmax on axis 0; the permutation is the call's `swap`).
    pub(crate) swap: Option<Arg>,
    /// Estimated work, in the units of the GIL policy.
    pub(crate) work: i64,
}

impl Node {
    /// The node `spec` describes, its keywords copied into `room` (emptied
    /// first): a vector its sink keeps from node to node.
    pub(crate) fn op_in(spec: NodeSpec<'_>, mut room: Vec<Value>) -> Node {
        room.clear();
        room.extend_from_slice(spec.keywords);
        Node {
            kind: NodeKind::Op(spec.call),
            keywords: room,
            args: spec.args,
            arg_count: spec.arg_count,
            swap: spec.swap,
            work: spec.work,
        }
    }

    /// The row its errors name.
    pub(crate) fn row(&self) -> &'static Op {
        match &self.kind {
            NodeKind::Op(call) => call.row,
            NodeKind::Function { .. } => &FUNCTION_ROW,
        }
    }
}

/// The name of an emitted op in a graph: its node's index, its row, and
/// which part of the node it is (the op, or a transpose around it).
/// Formatted only where a graph needs it.
#[derive(Clone, Copy)]
pub(crate) struct NodeName {
    index: usize,
    row: &'static str,
    part: &'static str,
}

impl fmt::Display for NodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n{}_", self.index)?;
        for piece in self.row.split(' ') {
            f.write_str(piece)?;
            f.write_str("_")?;
        }
        f.write_str(self.part)
    }
}

/// Where emitted nodes go: builds (or runs) one op of `call` on `inputs`.
pub(crate) trait Emitter {
    /// What a node produces.
    type Value: Clone;
    /// Emits one op.
    fn emit(
        &mut self,
        name: NodeName,
        call: &PlannedOp,
        keywords: &[Value],
        inputs: &[Self::Value],
        work: i64,
    ) -> Result<Self::Value>;

    /// Emits one call of a TensorFlow function.
    fn call_function(
        &mut self,
        name: NodeName,
        function: &FunctionNode,
        inputs: &[Self::Value],
        work: i64,
    ) -> Result<Self::Value>;
}

/// Emits `nodes` on `inputs` and `constants`, returning every node's value,
/// or the first error.
pub(crate) fn emit_all<E: Emitter>(
    emitter: &mut E,
    inputs: &[E::Value],
    constants: &[E::Value],
    nodes: &[Node],
) -> Result<Vec<E::Value>> {
    let mut values = Vec::with_capacity(nodes.len());
    emit_all_into(
        emitter,
        inputs,
        constants,
        nodes,
        &mut values,
        &mut Vec::new(),
    )?;
    Ok(values)
}

/// As [`emit_all`], into `values` (emptied first), with `scratch` as room
/// for each node's arguments: buffers a caller keeps from call to call.
pub(crate) fn emit_all_into<E: Emitter>(
    emitter: &mut E,
    inputs: &[E::Value],
    constants: &[E::Value],
    nodes: &[Node],
    values: &mut Vec<E::Value>,
    scratch: &mut Vec<E::Value>,
) -> Result<()> {
    values.clear();
    for (index, node) in nodes.iter().enumerate() {
        let lookup = |arg: &Arg| -> Result<E::Value> {
            argument(arg, inputs, constants, values, node.row()).cloned()
        };
        let value = emit_node(emitter, index, node, lookup, scratch)?;
        values.push(value);
    }
    Ok(())
}

/// Emits every node it can, each node's own result: a node whose operand
/// failed gets that operand's error, a node that fails its own, every other
/// node its value. What op-by-op execution gives each tensor.
pub(crate) fn emit_each<E: Emitter>(
    emitter: &mut E,
    inputs: &[E::Value],
    constants: &[E::Value],
    nodes: &[Node],
) -> Vec<Result<E::Value>> {
    let mut values: Vec<Result<E::Value>> = Vec::with_capacity(nodes.len());
    let mut scratch = Vec::new();
    for (index, node) in nodes.iter().enumerate() {
        let from_inputs = |arg: &Arg| -> Result<E::Value> {
            match *arg {
                Arg::Node(n) => match values.get(n as usize) {
                    Some(result) => result.clone(),
                    None => Err(malformed(node.row())),
                },
                _ => argument(arg, inputs, constants, &[], node.row()).cloned(),
            }
        };
        let value = emit_node(emitter, index, node, from_inputs, &mut scratch);
        values.push(value);
    }
    values
}

/// The value `arg` names, among `inputs`, `constants` and the nodes'
/// `values` so far.
fn argument<'v, V>(
    arg: &Arg,
    inputs: &'v [V],
    constants: &'v [V],
    values: &'v [V],
    row: &Op,
) -> Result<&'v V> {
    let found = match *arg {
        Arg::Input(n) => inputs.get(n as usize),
        Arg::Constant(n) => constants.get(n as usize),
        Arg::Node(n) => values.get(n as usize),
    };
    found.ok_or_else(|| malformed(row))
}

/// Emits node `index` (and, when its axis is swapped, the transposes
/// around it), its arguments looked up by `lookup` into `args` (room kept
/// by the caller).
fn emit_node<E: Emitter>(
    emitter: &mut E,
    index: usize,
    node: &Node,
    lookup: impl Fn(&Arg) -> Result<E::Value>,
    args: &mut Vec<E::Value>,
) -> Result<E::Value> {
    let row = node.row();
    let name = |part| NodeName {
        index,
        row: row.name,
        part,
    };
    let call = match &node.kind {
        NodeKind::Op(call) => call,
        NodeKind::Function {
            function,
            args: function_args,
        } => {
            args.clear();
            for arg in function_args {
                args.push(lookup(arg)?);
            }
            return emitter.call_function(name("call"), function, args, node.work);
        }
    };
    let used = node
        .args
        .get(..node.arg_count)
        .ok_or_else(|| malformed(row))?;
    args.clear();
    for arg in used {
        args.push(lookup(arg)?);
    }
    match (node.swap, call.swap) {
        (Some(perm_arg), Some(perm)) => {
            let perm_value = lookup(&perm_arg)?;
            let transpose = PlannedOp::transpose(call.element, perm);
            let keywords = [Value::Ints(perm)];
            let first = args.first_mut().ok_or_else(|| malformed(row))?;
            let moved = [first.clone(), perm_value.clone()];
            *first = emitter.emit(name("in"), &transpose, &keywords, &moved, node.work)?;
            let output = emitter.emit(name("op"), call, &node.keywords, args, node.work)?;
            emitter.emit(
                name("out"),
                &transpose,
                &keywords,
                &[output, perm_value],
                node.work,
            )
        }
        _ => emitter.emit(name("op"), call, &node.keywords, args, node.work),
    }
}

/// The inputs of one emitted op, as the op takes them: one at a time, or a
/// list (the tensors of `concat`'s list operand).
enum Group<'v, V> {
    /// One input.
    One(&'v V),
    /// A list input.
    List(&'v [V]),
}

/// `inputs` grouped by the call's input slots: the list operand's
/// `list_length` values form one list, every other slot one value.
fn input_groups<'v, V>(
    call: &PlannedOp,
    inputs: &'v [V],
) -> impl Iterator<Item = Result<Group<'v, V>>> + 'v {
    let row = call.row;
    let list_length = call.list_length;
    let mut rest = inputs;
    row.inputs.iter().map(move |slot| {
        let (is_list, take) = match slot {
            rxt_tf_spec::Input::Operand(index)
                if row.rule.role(*index) == rxt_tf_spec::Role::Tensors =>
            {
                (true, list_length)
            }
            rxt_tf_spec::Input::Operands(indices) => (true, indices.len()),
            _ => (false, 1),
        };
        if rest.len() < take {
            return Err(malformed(row));
        }
        let (group, after) = rest.split_at(take);
        rest = after;
        Ok(match (is_list, group) {
            (false, [one]) => Group::One(one),
            _ => Group::List(group),
        })
    })
}

/// Builds the nodes into a graph.
pub(crate) struct GraphEmitter<'g> {
    pub(crate) graph: &'g mut OwnedGraph,
    pub(crate) status: &'g Status,
}

impl Emitter for GraphEmitter<'_> {
    type Value = GraphOutput;

    fn emit(
        &mut self,
        name: NodeName,
        call: &PlannedOp,
        keywords: &[Value],
        inputs: &[GraphOutput],
        _work: i64,
    ) -> Result<GraphOutput> {
        let mut node = self
            .graph
            .node(call.tf_op, &name.to_string(), call.row.name)?;
        for (attr, value) in call.attributes(keywords) {
            node.set_attr(attr, &value)?;
        }
        for group in input_groups(call, inputs) {
            match group? {
                Group::One(input) => node.add_input(*input)?,
                Group::List(list) => node.add_input_list(list)?,
            }
        }
        node.finish(self.status)
    }

    fn call_function(
        &mut self,
        name: NodeName,
        function: &FunctionNode,
        inputs: &[GraphOutput],
        _work: i64,
    ) -> Result<GraphOutput> {
        let op = FUNCTION_ROW.name;
        let mut node = self
            .graph
            .node(c"StatefulPartitionedCall", &name.to_string(), op)?;
        node.set_type_list(c"Tin", &function.input_types)?;
        node.set_type_list(c"Tout", &function.output_types)?;
        node.set_function(c"f", &function.name)?;
        node.add_input_list(inputs)?;
        node.finish(self.status)
    }
}

/// Runs the nodes as eager ops, one `TFE_Execute` each: the per-op path.
pub(crate) struct EagerEmitter<'c> {
    pub(crate) context: &'c Arc<BoundContext>,
}

impl Emitter for EagerEmitter<'_> {
    type Value = Arc<OwnedHandle>;

    fn emit(
        &mut self,
        _name: NodeName,
        call: &PlannedOp,
        keywords: &[Value],
        inputs: &[Arc<OwnedHandle>],
        work: i64,
    ) -> Result<Arc<OwnedHandle>> {
        run_op(self.context, call, keywords, work, |op| {
            add_eager_inputs(op, call, inputs)
        })
        .map(Arc::new)
    }

    fn call_function(
        &mut self,
        _name: NodeName,
        function: &FunctionNode,
        inputs: &[Arc<OwnedHandle>],
        _work: i64,
    ) -> Result<Arc<OwnedHandle>> {
        let handles: Vec<&OwnedHandle> = inputs.iter().map(|handle| &**handle).collect();
        let outputs = function.execute(self.context, &handles)?;
        let [output] =
            <[OwnedHandle; 1]>::try_from(outputs).map_err(|_| crate::Error::Internal {
                op: FUNCTION_ROW.name,
                defect: "a function node gave other than one output",
            })?;
        Ok(Arc::new(output))
    }
}

/// Adds `inputs` to the eager `op` of `call`, grouped as the op takes them.
fn add_eager_inputs(
    op: &mut OwnedOp<'_>,
    call: &PlannedOp,
    inputs: &[Arc<OwnedHandle>],
) -> Result<()> {
    for group in input_groups(call, inputs) {
        match group? {
            Group::One(input) => op.add_input(input)?,
            Group::List(list) => {
                let handles: Vec<&OwnedHandle> = list.iter().map(|h| &**h).collect();
                op.add_input_list(&handles)?;
            }
        }
    }
    Ok(())
}

/// Runs `nodes` as eager ops on `inputs` and `constants` (an op run at
/// once: its casts, then itself), the last one with `count` outputs; when
/// its axis is swapped, its first input is moved and each output moved
/// back (each in its own element type), as [`emit_node`] does for one.
pub(crate) fn run_eager_many(
    context: &Arc<BoundContext>,
    inputs: &[Arc<OwnedHandle>],
    constants: &[Arc<OwnedHandle>],
    nodes: &[Node],
    count: usize,
) -> Result<Vec<OwnedHandle>> {
    let (last, before) = nodes.split_last().ok_or_else(|| crate::Error::Internal {
        op: "op",
        defect: "an op run at once built no node",
    })?;
    let row = last.row();
    let NodeKind::Op(call) = &last.kind else {
        return Err(malformed(row));
    };
    let mut emitter = EagerEmitter { context };
    let values = emit_all(&mut emitter, inputs, constants, before)?;
    let mut args = last
        .args
        .get(..last.arg_count)
        .ok_or_else(|| malformed(row))?
        .iter()
        .map(|arg| argument(arg, inputs, constants, &values, row).cloned())
        .collect::<Result<Vec<_>>>()?;
    let swap = match (last.swap, call.swap) {
        (Some(perm_arg), Some(perm)) => {
            let perm_value = argument(&perm_arg, inputs, constants, &values, row)?;
            Some((perm, Arc::clone(perm_value)))
        }
        (None, None) => None,
        _ => return Err(malformed(row)),
    };
    let keywords = |perm| [Value::Ints(perm)];
    if let Some((perm, perm_value)) = &swap {
        let first = args.first_mut().ok_or_else(|| malformed(row))?;
        let transpose = PlannedOp::transpose(call.element, perm);
        let moved = [Arc::clone(first), Arc::clone(perm_value)];
        *first = emitter.emit(IN, &transpose, &keywords(perm), &moved, last.work)?;
    }
    let outputs = run_op_then(
        context,
        call,
        &last.keywords,
        |op| add_eager_inputs(op, call, &args),
        |op| op.execute_many(last.work, count),
    )?;
    let Some((perm, perm_value)) = swap else {
        return Ok(outputs);
    };
    outputs
        .into_iter()
        .map(|output| {
            let element = DType::from_code(output.dtype()).ok_or_else(|| malformed(row))?;
            let transpose = PlannedOp::transpose(element, perm);
            let back = [Arc::new(output), Arc::clone(&perm_value)];
            let back = emitter.emit(OUT, &transpose, &keywords(perm), &back, last.work)?;
            Arc::try_unwrap(back).or_else(|shared| {
                let status = Status::new(context.wheel().api(), row.name)?;
                shared.share(&status, row.name)
            })
        })
        .collect()
}

/// The names of the transposes around an op run at once (an eager op's
/// name is not used).
const IN: NodeName = NodeName {
    index: 0,
    row: "op",
    part: "in",
};
const OUT: NodeName = NodeName {
    index: 0,
    row: "op",
    part: "out",
};
