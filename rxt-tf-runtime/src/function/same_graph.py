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


def inlined_is_same(name, arguments, concrete, output_types, config):
    """True when a StatefulPartitionedCall of definition `name` with the
    configuration `config` (serialized ConfigProto bytes) runs the graph
    that its call by name with `config` runs, up to node names and
    annotations; False when the graphs differ or could not be told apart
    for sure; None when the check must wait (tf.summary traces graphs)."""
    if _graphs_traced():
        return None
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
    count = len(output_types)
    with _LOCK, tf.device(_CPU):
        # A kernel surely cached: running it flushes the graphs collected
        # while a cancelled call was instantiated into the run metadata.
        probe = tf.constant(0)
        tf.identity(probe)
        expected = _instantiated(ctx, name, inputs, by_name, count, probe)
        inlined = _instantiated(
            ctx, "StatefulPartitionedCall", inputs, call, count, probe
        )
    # Exactly one function each: another thread's new function, or a
    # kernel already cached (nothing collected), leaves it unproven.
    if expected is None or inlined is None:
        return False
    return sorted(expected) == sorted(inlined)


def _graphs_traced():
    """Whether tf.summary's graph tracing (trace_on) collects graphs now."""
    try:
        from tensorflow.python.ops import summary_ops_v2
    except ImportError:
        return False
    return getattr(summary_ops_v2, "_current_trace_context", None) is not None


def _instantiated(ctx, op, inputs, attrs, count, probe):
    """The canonical partition graphs of one instantiation of `op`, or
    None unless exactly one function was instantiated meanwhile."""
    cancelled = cancellation.CancellationManager()
    cancelled.start_cancel()
    ctx.enable_graph_collection()
    try:
        try:
            execute.execute_with_cancellation(op, count, inputs, attrs, ctx, cancelled)
        except tf.errors.CancelledError:
            pass
        tf.identity(probe)
    finally:
        metadata = ctx.export_run_metadata()
        ctx.disable_graph_collection()
    functions = list(metadata.function_graphs)
    if len(functions) != 1:
        return None
    canonical = [_canonical(graph) for graph in functions[0].partition_graphs]
    return None if any(graph is None for graph in canonical) else canonical


def _canonical(graph):
    """`graph` as the sorted digests of its nodes, which name no node: each
    node's digest covers its op, device, attributes (annotations aside) and
    its inputs' digests, in order. None for a graph with a cycle (a lowered
    loop): such graphs are not compared."""
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
                return None
            producers = [source.lstrip("^").partition(":")[0] for source in node.input]
            waiting = [p for p in producers if p not in digests]
            if waiting:
                if node_name in visiting:
                    return None
                visiting.add(node_name)
                stack.extend(waiting)
                continue
            visiting.discard(node_name)
            stack.pop()
            digests[node_name] = _digest(node, digests)
    return sorted(digests.values())


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
    attrs = sorted(
        (key, value.SerializeToString(deterministic=True))
        for key, value in node.attr.items()
        if key not in _ANNOTATIONS
    )
    op = _SAME_OP.get(node.op, node.op)
    text = repr((op, node.device, attrs, data, sorted(control)))
    return hashlib.sha256(text.encode()).hexdigest()
