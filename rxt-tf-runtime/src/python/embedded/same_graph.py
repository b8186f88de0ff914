"""Whether a function's inlined call runs the graph its call by name runs.

That is, whether one StatefulPartitionedCall of a function runs the very
graph that TensorFlow's eager call of the function by name runs.

Python's call of a tf.function runs its definition by name: TensorFlow
optimizes the definition's graph and runs it on the inter-op thread pool.
A StatefulPartitionedCall of the same definition is wrapped by TensorFlow
in a small function of its own, inlined, optimized and run on the calling
thread: about a third of the cost. Both graphs pass the same optimizers,
but with different node names and argument shapes, so they may differ
(`x + 0.0` kept or removed, the inputs of a commutative op swapped).

`inlined_is_same` instantiates both with TensorFlow's graph collection on
and compares the graphs TensorFlow will run. Where they differ, it makes a
definition of the by-name graph itself (as TensorFlow's passes left it)
and checks that its StatefulPartitionedCall, without a configuration (so
without Grappler), runs that very graph. Neither call runs a kernel:
each is made with a cancellation manager cancelled beforehand, so
TensorFlow instantiates the function (and keeps the kernel in its cache)
and stops at "cancelled before it was started". A stateful op never runs.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

import tensorflow as tf
from tensorflow.core.framework import graph_pb2
from tensorflow.python.eager import cancellation, context, execute
from tensorflow.python.framework import graph_to_function_def, op_def_registry

# The answers: the same graph; the same graph through the optimized
# definition (named with it); not the same (or never provable: kept); not
# known this time (asked again, a few times); not now (tf.summary traces
# graphs: asked again, not counted).
SAME, OPTIMIZED, DIFFERENT, RETRY, WAIT = 1, 2, 0, -1, -2

# Annotations TensorFlow's graph passes write and no kernel reads:
# inferred shapes (`_input_shapes` is "not used except as a debug hint",
# in TensorFlow's words) and the Python name of an argument.
_ANNOTATIONS = frozenset({"_output_shapes", "_input_shapes", "_user_specified_name"})

# Arguments and results kept in device memory, as the inlined call keeps
# int32 ones: on CPU:0 (the only device rxt-tf calls on) device and host
# memory are one, and both ops hand over the same tensor.
_SAME_OP = {"_DeviceArg": "_Arg", "_DeviceRetval": "_Retval"}

# The device rxt-tf places its calls on: the kernels checked are the ones
# its calls then find in TensorFlow's cache.
_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"

# Graph collection is the context's, for every thread: one check at a time.
_LOCK = threading.Lock()

# Numbers the optimized definitions' names.
_OPTIMIZED = itertools.count()

wrapper_calls = 0
"""How many StatefulPartitionedCalls the checks made: each goes through
TensorFlow's wrapper of its arity, whose removal frees its kernel (the
caller notes that the wrapper was used when this moves)."""


class _Unprovable(Exception):
    """A graph this check cannot compare for sure."""


def inlined_is_same(
    name: str,
    arguments: Iterable[Any],
    concrete: Any,
    output_types: Sequence[int],
    config: bytes,
) -> tuple[int, str | None]:
    """How a call of definition `name` can run the graph its call by name runs.

    Under the configuration `config` (serialized ConfigProto bytes), up to
    node names and annotations: `(SAME, None)` as a
    StatefulPartitionedCall with `config`; `(OPTIMIZED, optimized)` as a
    StatefulPartitionedCall of the definition `optimized` without one
    (added to the context: the caller removes it when done); else
    `(DIFFERENT, None)`, `(RETRY, None)` or `(WAIT, None)`.
    """
    attrs = concrete.function_def.attr
    if any(key in attrs and attrs[key].b for key in ("_XlaMustCompile", "_noinline")):
        # Compiled by XLA, or called as a function of its own by name.
        return DIFFERENT, None
    inputs = list(arguments) + list(concrete.captured_inputs)
    ctx = context.context()
    types = [t.dtype.as_datatype_enum for t in inputs]
    by_name = ("executor_type", "DEFAULT", "config_proto", config)
    call = ("Tin", types, "Tout", list(output_types), "f", name, "config_proto", config)
    body = {node.name for node in concrete.function_def.node_def}
    count = len(output_types)
    with _LOCK, _no_graph_trace() as traced, tf.device(_CPU):
        if traced:
            return WAIT, None
        # A kernel surely cached: running it flushes the graphs collected
        # while a cancelled call was instantiated into the run metadata.
        probe = tf.constant(0)
        tf.identity(probe)
        expected = _instantiated(
            ctx,
            name,
            inputs,
            by_name,
            count,
            probe,
            lambda graph: body <= {node.name for node in graph.pre_optimization_graph.node},
        )
        if expected is DIFFERENT or expected is RETRY:
            return expected, None
        try:
            wanted = _canonical(expected)
        except _Unprovable:
            return DIFFERENT, None
        inlined = _instantiated(
            ctx, "StatefulPartitionedCall", inputs, call, count, probe, _calls(name)
        )
        if inlined is RETRY:
            return RETRY, None
        if inlined is not DIFFERENT and _proven(inlined, wanted):
            return SAME, None
        return _through_optimized(
            ctx, concrete, expected, inputs, types, output_types, probe, wanted
        )


def _proven(function_graph: Any, wanted: list[list[str]]) -> bool:
    """Whether `function_graph`'s partitions are `wanted` (canonical)."""
    try:
        return _canonical(function_graph) == wanted
    except _Unprovable:
        return False


def _through_optimized(
    ctx: Any,
    concrete: Any,
    expected: Any,
    inputs: list[Any],
    types: list[int],
    output_types: Sequence[int],
    probe: Any,
    wanted: list[list[str]],
) -> tuple[int, str | None]:
    """The answer through a definition of the by-name graph `expected`.

    The definition is added to the context under a new name. On OPTIMIZED
    the caller owns it (and removes it); otherwise it is removed here.
    """
    definition = _optimized_definition(expected)
    if definition is None:
        return DIFFERENT, None
    optimized = f"{concrete.function_def.signature.name}_rxt_tf_optimized_{next(_OPTIMIZED)}"
    definition.signature.name = optimized
    ctx.add_function_def(definition)
    proven = False
    try:
        call = ("Tin", types, "Tout", list(output_types), "f", optimized)
        again = _instantiated(
            ctx,
            "StatefulPartitionedCall",
            inputs,
            call,
            len(output_types),
            probe,
            _calls(optimized),
        )
        proven = again is not DIFFERENT and again is not RETRY and _proven(again, wanted)
    finally:
        if not proven:
            ctx.remove_function(optimized)
    if proven:
        return OPTIMIZED, optimized
    return (RETRY if again is RETRY else DIFFERENT), None


def _optimized_definition(function_graph: Any) -> Any | None:
    """A FunctionDef of the one partition graph of `function_graph`.

    Its `_Arg` nodes the inputs and its `_Retval` nodes the outputs, in
    index order; None when it cannot be made.
    """
    if len(function_graph.partition_graphs) != 1:
        return None
    (partition,) = function_graph.partition_graphs
    graph_def = graph_pb2.GraphDef()
    arguments: dict[int, str] = {}
    results: dict[int, str] = {}
    for node in partition.node:
        if node.op in ("_Arg", "_DeviceArg"):
            placeholder = graph_def.node.add(name=node.name, op="Placeholder")
            placeholder.attr["dtype"].type = node.attr["T"].type
            arguments[node.attr["index"].i] = node.name
        elif node.op in ("_Retval", "_DeviceRetval"):
            if len(node.input) != 1 or node.input[0].startswith("^"):
                return None
            results[node.attr["index"].i] = node.input[0]
        else:
            copied = graph_def.node.add()
            copied.CopyFrom(node)
            copied.ClearField("device")
    if sorted(arguments) != list(range(len(arguments))):
        return None
    if sorted(results) != list(range(len(results))):
        return None
    graph = tf.Graph()
    try:
        with graph.as_default():
            tf.graph_util.import_graph_def(graph_def, name="")
        inputs = [graph.get_tensor_by_name(arguments[i] + ":0") for i in sorted(arguments)]
        outputs = [
            graph.get_tensor_by_name(results[i] if ":" in results[i] else results[i] + ":0")
            for i in sorted(results)
        ]
        operations = [op for op in graph.get_operations() if op.type != "Placeholder"]
        return graph_to_function_def.graph_to_function_def(graph, operations, inputs, outputs)
    except (ValueError, TypeError, KeyError, tf.errors.OpError):
        return None


class _no_graph_trace:
    """Holds tf.summary's trace lock, so graph tracing does not start meanwhile.

    Says whether it is on (the check must then wait).
    """

    _lock: Any
    _module: Any

    def __enter__(self) -> bool:
        try:
            from tensorflow.python.ops import summary_ops_v2
        except ImportError:
            self._lock = None
            return False
        self._module = summary_ops_v2
        self._lock = getattr(summary_ops_v2, "_current_trace_context_lock", None)
        if self._lock is not None:
            self._lock.acquire()
        return getattr(summary_ops_v2, "_current_trace_context", None) is not None

    def __exit__(self, *exc: object) -> Literal[False]:
        if self._lock is not None:
            self._lock.release()
        return False


def _instantiated(
    ctx: Any,
    op: str,
    inputs: list[Any],
    attrs: tuple[object, ...],
    count: int,
    probe: Any,
    ours: Callable[[Any], bool],
) -> Any:
    """The function graph TensorFlow instantiated for a cancelled call of `op`.

    Told from another thread's meanwhile by `ours`: DIFFERENT when none
    was (the kernel was cached already, or the call was not cancelled),
    RETRY when several could be it.
    """
    global wrapper_calls
    if op == "StatefulPartitionedCall":
        wrapper_calls += 1
    cancelled = cancellation.CancellationManager()
    cancelled.start_cancel()
    ran = False
    ctx.enable_graph_collection()
    try:
        try:
            execute.execute_with_cancellation(op, count, inputs, attrs, ctx, cancelled)
            ran = True
        except tf.errors.CancelledError:
            pass
        tf.identity(probe)
    finally:
        try:
            metadata = ctx.export_run_metadata()
        finally:
            ctx.disable_graph_collection()
    if ran:
        return DIFFERENT
    return _pick(metadata.function_graphs, ours)


def _pick(function_graphs: Iterable[Any], ours: Callable[[Any], bool]) -> Any:
    """The one of `function_graphs` that `ours` accepts.

    DIFFERENT when none is (the kernel was cached already), RETRY when
    several are and they differ. Several alike (another thread
    instantiated the same definition the same way meanwhile) are as good
    as one.
    """
    found = [graph for graph in function_graphs if ours(graph)]
    if not found:
        return DIFFERENT
    if len(found) > 1:
        try:
            first = _canonical(found[0])
            if any(_canonical(graph) != first for graph in found[1:]):
                return RETRY
        except _Unprovable:
            return RETRY
    return found[0]


def _calls(name: str) -> Callable[[Any], bool]:
    """Whether a function graph is that of a call of the definition `name`."""

    def calls(function_graph: Any) -> bool:
        called = [_called(node) for node in function_graph.pre_optimization_graph.node]
        return called.count(name) == 1

    return calls


def _called(node: Any) -> str | None:
    """The function a call node calls, if it is one."""
    if node.op in ("StatefulPartitionedCall", "PartitionedCall") and "f" in node.attr:
        called: str = node.attr["f"].func.name
        return called
    return None


def _canonical(function_graph: Any) -> list[list[str]]:
    """The partition graphs of `function_graph`, each as the sorted digests of its nodes.

    The digests name no node. Raises _Unprovable for what this cannot
    compare: a cycle (a lowered loop), a function-valued attribute, two
    stateful nodes alike (which of them a consumer reads would not show).
    """
    return sorted(_digests(graph) for graph in function_graph.partition_graphs)


def _digests(graph: Any) -> list[str]:
    """The sorted digests of `graph`'s nodes (see `_canonical`).

    An `Identity` on its input's device hands over the very tensor it is
    given: its consumers read its input instead, and it is no node of its
    own; a `NoOp` nothing depends on does nothing: left out.
    """
    nodes = _without_idle_no_ops({node.name: node for node in graph.node})
    digests: dict[str, str] = {}
    forwarded: dict[str, tuple[str, str]] = {}
    visiting: set[str] = set()
    for root in nodes:
        stack = [root]
        while stack:
            node_name = stack[-1]
            if node_name in digests or node_name in forwarded:
                stack.pop()
                continue
            node = nodes.get(node_name)
            if node is None:
                raise _Unprovable("an input from outside the graph")
            producers = [_source(source)[0] for source in node.input]
            waiting = [p for p in producers if p not in digests and p not in forwarded]
            if waiting:
                if node_name in visiting:
                    raise _Unprovable("a cycle")
                visiting.add(node_name)
                stack.extend(waiting)
                continue
            visiting.discard(node_name)
            stack.pop()
            if _forwards(node, nodes):
                forwarded[node_name] = _tensor(node.input[0], digests, forwarded)
            else:
                digests[node_name] = _digest(node, digests, forwarded)
    seen: set[str] = set()
    for node_name, digest in digests.items():
        if digest in seen and _stateful(nodes[node_name].op):
            raise _Unprovable("two stateful nodes alike")
        seen.add(digest)
    return sorted(digests.values())


def _without_idle_no_ops(nodes: dict[str, Any]) -> dict[str, Any]:
    """`nodes` without the `NoOp`s no node reads or waits for."""
    nodes = dict(nodes)
    while True:
        read = {_source(source)[0] for node in nodes.values() for source in node.input}
        idle = [name for name, node in nodes.items() if node.op == "NoOp" and name not in read]
        if not idle:
            return nodes
        for name in idle:
            del nodes[name]


def _source(source: str) -> tuple[str, str]:
    """`(producer, port)` of an input (`^producer` for a control one)."""
    if source.startswith("^"):
        return source[1:], "^"
    producer, _, port = source.partition(":")
    return producer, port or "0"


def _forwards(node: Any, nodes: dict[str, Any]) -> bool:
    """Whether `node` is an `Identity` of one data input on its device."""
    if node.op != "Identity" or len(node.input) != 1:
        return False
    producer, port = _source(node.input[0])
    return port != "^" and nodes[producer].device == node.device


def _tensor(
    source: str, digests: dict[str, str], forwarded: dict[str, tuple[str, str]]
) -> tuple[str, str]:
    """The digest and port of the tensor an input reads, through forwarding `Identity` nodes."""
    producer, port = _source(source)
    if producer in forwarded:
        return forwarded[producer]
    return digests[producer], port


def _waited(source: str, digests: dict[str, str], forwarded: dict[str, tuple[str, str]]) -> str:
    """The digest of the node a control input waits for.

    Through an `Identity`, the node it forwards.
    """
    producer = source[1:]
    if producer in forwarded:
        # The port counts: waiting on `Identity(Switch:1)` is not waiting
        # on `Identity(Switch:0)` (a dead branch's pivot).
        digest, port = forwarded[producer]
        return f"{digest}:{port}"
    return digests[producer]


def _stateful(op: str) -> bool:
    """Whether `op` is stateful (an op TensorFlow does not know counts)."""
    op_def = op_def_registry.get(op)
    return op_def is None or op_def.is_stateful


def _digest(node: Any, digests: dict[str, str], forwarded: dict[str, tuple[str, str]]) -> str:
    """The digest of `node` once its producers have theirs."""
    data: list[tuple[str, str]] = []
    control: list[str] = []
    for source in node.input:
        if source.startswith("^"):
            control.append(_waited(source, digests, forwarded))
        else:
            data.append(_tensor(source, digests, forwarded))
    attrs: list[tuple[str, bytes]] = []
    for key, value in node.attr.items():
        if key in _ANNOTATIONS:
            continue
        if value.HasField("func") or value.list.func:
            raise _Unprovable("a function-valued attribute")
        # A resource named after its node: the name is the node's, and
        # names differ between the graphs.
        if (key == "shared_name" and not value.s) or (key == "use_node_name_sharing" and value.b):
            raise _Unprovable("a resource named after its node")
        attrs.append((key, value.SerializeToString(deterministic=True)))
    op = _SAME_OP.get(node.op, node.op)
    text = repr((op, node.device, sorted(attrs), data, sorted(control)))
    return hashlib.sha256(text.encode()).hexdigest()
