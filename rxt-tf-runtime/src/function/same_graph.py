"""Whether one StatefulPartitionedCall of a function runs the very graph
that TensorFlow's eager call of the function by name runs.

Python's call of a tf.function runs its definition by name: TensorFlow
optimizes the definition's graph and runs it on the inter-op thread pool.
A StatefulPartitionedCall of the same definition is wrapped by TensorFlow
in a small function of its own, inlined, optimized and run on the calling
thread: about a third of the cost. Both graphs pass the same optimizers,
but with different node names and argument shapes, so they may differ
(`x + 0.0` kept or removed, the inputs of a commutative op swapped).

`inlined_is_same` instantiates both with TensorFlow's graph collection on
and compares the graphs TensorFlow will run. Neither call runs a kernel:
each is made with a cancellation manager cancelled beforehand, so
TensorFlow instantiates the function (and keeps the kernel in its cache)
and stops at "cancelled before it was started". A stateful op never runs.
"""

import hashlib
import threading

import tensorflow as tf
from tensorflow.python.eager import cancellation, context, execute
from tensorflow.python.framework import op_def_registry

# The answers: the same graph; not the same (or never provable: kept);
# not known this time (asked again, a few times); not now (tf.summary
# traces graphs: asked again, not counted).
SAME, DIFFERENT, RETRY, WAIT = 1, 0, -1, -2

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


class _Unprovable(Exception):
    """A graph this check cannot compare for sure."""


def inlined_is_same(name, arguments, concrete, output_types, config):
    """Whether a StatefulPartitionedCall of definition `name` with the
    configuration `config` (serialized ConfigProto bytes) runs the graph
    its call by name with `config` runs, up to node names and annotations:
    SAME, DIFFERENT (or not provable), RETRY or WAIT."""
    inputs = list(arguments) + list(concrete.captured_inputs)
    ctx = context.context()
    by_name = ("executor_type", "DEFAULT", "config_proto", config)
    call = (
        "Tin",
        [t.dtype.as_datatype_enum for t in inputs],
        "Tout",
        list(output_types),
        "f",
        name,
        "config_proto",
        config,
    )
    body = {node.name for node in concrete.function_def.node_def}
    count = len(output_types)
    with _LOCK, _no_graph_trace() as traced, tf.device(_CPU):
        if traced:
            return WAIT
        # A kernel surely cached: running it flushes the graphs collected
        # while a cancelled call was instantiated into the run metadata.
        probe = tf.constant(0)
        tf.identity(probe)
        expected = _instantiated(ctx, name, inputs, by_name, count, probe)
        inlined = _instantiated(
            ctx, "StatefulPartitionedCall", inputs, call, count, probe
        )
    if expected is DIFFERENT or inlined is DIFFERENT:
        return DIFFERENT
    if expected is RETRY or inlined is RETRY:
        return RETRY
    # The graphs instantiated must be these calls' own, not another
    # thread's meanwhile.
    if not body <= {node.name for node in expected.pre_optimization_graph.node}:
        return RETRY
    if [_called(node) for node in inlined.pre_optimization_graph.node].count(name) != 1:
        return RETRY
    try:
        same = _canonical(expected) == _canonical(inlined)
    except _Unprovable:
        return DIFFERENT
    return SAME if same else DIFFERENT


class _no_graph_trace:
    """Holds tf.summary's trace lock, so graph tracing does not start
    meanwhile; says whether it is on (the check must then wait)."""

    def __enter__(self):
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

    def __exit__(self, *exc):
        if self._lock is not None:
            self._lock.release()
        return False


def _instantiated(ctx, op, inputs, attrs, count, probe):
    """The one function graph TensorFlow instantiated for a cancelled call
    of `op`: DIFFERENT when none was (the kernel was cached already, or the
    call was not cancelled), RETRY when several were (another thread's)."""
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
    functions = list(metadata.function_graphs)
    if ran or not functions:
        return DIFFERENT
    if len(functions) != 1:
        return RETRY
    return functions[0]


def _called(node):
    """The function a call node calls, if it is one."""
    if node.op in ("StatefulPartitionedCall", "PartitionedCall") and "f" in node.attr:
        return node.attr["f"].func.name
    return None


def _canonical(function_graph):
    """The partition graphs of `function_graph`, each as the sorted digests
    of its nodes, which name no node. Raises _Unprovable for what this
    cannot compare: a cycle (a lowered loop), a function-valued attribute,
    two stateful nodes alike (which of them a consumer reads would not
    show)."""
    return sorted(_digests(graph) for graph in function_graph.partition_graphs)


def _digests(graph):
    nodes = {node.name: node for node in graph.node}
    digests = {}
    visiting = set()
    for root in nodes:
        stack = [root]
        while stack:
            node_name = stack[-1]
            if node_name in digests:
                stack.pop()
                continue
            node = nodes.get(node_name)
            if node is None:
                raise _Unprovable("an input from outside the graph")
            producers = [source.lstrip("^").partition(":")[0] for source in node.input]
            waiting = [p for p in producers if p not in digests]
            if waiting:
                if node_name in visiting:
                    raise _Unprovable("a cycle")
                visiting.add(node_name)
                stack.extend(waiting)
                continue
            visiting.discard(node_name)
            stack.pop()
            digests[node_name] = _digest(node, digests)
    seen = set()
    for node_name, digest in digests.items():
        if digest in seen and _stateful(nodes[node_name].op):
            raise _Unprovable("two stateful nodes alike")
        seen.add(digest)
    return sorted(digests.values())


def _stateful(op):
    """Whether `op` is stateful (an op TensorFlow does not know counts)."""
    op_def = op_def_registry.get(op)
    return op_def is None or op_def.is_stateful


def _digest(node, digests):
    """The digest of `node` once its producers have theirs."""
    data = []
    control = []
    for source in node.input:
        if source.startswith("^"):
            control.append(digests[source[1:]])
        else:
            producer, _, port = source.partition(":")
            data.append((digests[producer], port or "0"))
    attrs = []
    for key, value in node.attr.items():
        if key in _ANNOTATIONS:
            continue
        if value.HasField("func") or value.list.func:
            raise _Unprovable("a function-valued attribute")
        attrs.append((key, value.SerializeToString(deterministic=True)))
    op = _SAME_OP.get(node.op, node.op)
    text = repr((op, node.device, sorted(attrs), data, sorted(control)))
    return hashlib.sha256(text.encode()).hexdigest()
