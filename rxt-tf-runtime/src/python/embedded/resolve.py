"""What rxt-tf needs to call a TensorFlow function from Rust.

Found once per Python object: per concrete function (one, or one per
pattern of None arguments), which arguments are tensors, the concrete
function to keep alive, the name of its definition in the eager context,
its flattened inputs and outputs (element type code and rank, -1 when
unknown), its captured inputs, whether it reads trainable variables, and
whether it may join a fused trace (no stateful op but variable reads).
Raises TypeError for anything else.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import Any, TypeAlias

import tensorflow as tf
from tensorflow.python.eager.polymorphic_function import concrete_function, polymorphic_function

EXPECTED = "rxt-tf: expected a TensorFlow function, a Keras model or a SavedModel signature, got "

# Which leaves of a concrete function's arguments are tensors (True) and
# which are None (False), in `tf.nest.flatten` order; None: all tensors.
_Presence: TypeAlias = tuple[bool, ...] | None

# A concrete function traced again for exact input shapes (`_retracer`).
_Retrace: TypeAlias = Callable[[list[list[int]]], Any]

# An element type code (`DataType` enum) and a rank, -1 when unknown.
_Spec: TypeAlias = tuple[int, int]

# A concrete function as `_resolved` describes it: the function, its
# definition's name, its inputs' and outputs' specs, its captured inputs,
# whether it reads trainable variables, whether it is replayable.
_Resolved: TypeAlias = tuple[Any, str, list[_Spec], list[_Spec], list[Any], bool, bool]


def _keras_layer(obj: Any) -> bool:
    try:
        import keras
    except ImportError:
        return False
    return isinstance(obj, keras.layers.Layer)


def _presence(function: Any) -> tuple[bool, ...] | None:
    """Which leaves of `function`'s arguments are tensors.

    In `tf.nest.flatten` order, tensors (True) and None (False); None when
    a leaf is anything else (a Python value the trace holds).
    """
    leaves = tf.nest.flatten(function.structured_input_signature)
    if not all(leaf is None or isinstance(leaf, tf.TensorSpec) for leaf in leaves):
        return None
    return tuple(leaf is not None for leaf in leaves)


def _concretes(target: Callable[[], Any]) -> list[tuple[_Presence, Any, _Retrace | None]]:
    """The concrete functions of `target()`.

    Each with the presence of its arguments (None: all are tensors) and
    how to trace it again for exact input shapes (`_retracer`; None where
    it cannot be). Several only for a tf.function traced once per pattern
    of None arguments (`mask=None` and a mask). Only `target` (a weak
    reference where the object has one) is held in frames and closures:
    TensorFlow may keep the frames that traced a function, and they must
    not keep a model alive.
    """
    if isinstance(target(), concrete_function.ConcreteFunction):
        return [(None, target(), None)]
    if isinstance(target(), polymorphic_function.Function):
        signature = target().input_signature
        if signature is not None:
            retrace = _retracer(lambda: target().python_function, signature)
            return [(None, target().get_concrete_function(), retrace)]
        traced = target()._list_all_concrete_functions()
        if len(traced) == 1:
            presence = _presence(traced[0])
            return [(None if presence is None or all(presence) else presence, traced[0], None)]
        patterns = [_presence(function) for function in traced]
        if len(traced) > 1 and None not in patterns and len(set(patterns)) == len(traced):
            return [
                (pattern, function, None)
                for pattern, function in zip(patterns, traced, strict=True)
            ]
        raise TypeError(
            "rxt-tf: this tf.function has no input_signature and has been "
            f"traced {len(traced)} times; give it an input_signature (or "
            "trace it exactly once, or once per pattern of None arguments) "
            "so rxt-tf knows which one to call"
        )
    if _keras_layer(target()):
        specs = _keras_specs(target())
        single = len(specs) == 1

        def call(*xs: Any) -> Any:
            return target()(xs[0] if single else list(xs), training=False)

        # Traced under the model's own name (Keras makes each unique), which
        # a fallback's warning and `stats()` name it by.
        call.__name__ = re.sub(r"\W", "_", str(getattr(target(), "name", "call"))) or "call"

        retrace = _retracer(lambda: call, specs)
        return [(None, tf.function(call, input_signature=specs).get_concrete_function(), retrace)]
    raise TypeError(EXPECTED + type(target()).__name__)


def _retracer(python_function: Callable[[], Callable[..., Any]], signature: Any) -> _Retrace:
    """A function of exact input shapes to a concrete function traced for them.

    The shapes are lists of sizes, in `tf.nest.flatten` order; the function
    traced is `python_function()`. A graph traced for unknown sizes may
    hold sizes it cannot know (a recurrent layer's loop keeps its steps'
    shapes, the batch's unknown), which TFLite's converter refuses and a
    trace at the call's shapes does not have.
    """

    def retrace(shapes: list[list[int]]) -> Any:
        leaves = tf.nest.flatten(signature)
        if len(shapes) != len(leaves):
            raise ValueError(f"{len(shapes)} input shapes for {len(leaves)} inputs")
        exact = [
            tf.TensorSpec(shape, leaf.dtype) for leaf, shape in zip(leaves, shapes, strict=True)
        ]
        specs = tf.nest.pack_sequence_as(signature, exact)
        return tf.function(python_function(), input_signature=specs).get_concrete_function()

    return retrace


# Stateful ops a call may run again, or not at all, unobserved: reading a
# variable, and calling a function (whose own ops are checked).
_REPLAYABLE = {"ReadVariableOp", "StatefulPartitionedCall", "PartitionedCall"}


def _replayable(function: Any) -> bool:
    """Whether running `function` again, or not at all, changes nothing.

    Twice, or not at all when its result is unused: its graph and the
    functions it calls have no stateful op but variable reads (no
    assignment, no random op).
    """
    from tensorflow.python.framework import op_def_registry

    def stateful(op_type: str) -> bool:
        op_def = op_def_registry.get(op_type)
        return op_def is None or op_def.is_stateful

    types = {op.type for op in function.graph.get_operations()}
    library = function.graph.as_graph_def().library
    called = {f.signature.name for f in library.function}
    for nested in library.function:
        types.update(node.op for node in nested.node_def)
    return all(
        t in _REPLAYABLE or t in called or not stateful(t)
        for t in types
        if t not in ("Placeholder",)
    )


def _keras_specs(layer: Any) -> list[Any]:
    """The input specs of a Keras model or of a built layer of one input.

    A model's are its `keras.Input`s; a layer's, the shape it was built
    for, any batch size.
    """
    inputs = getattr(layer, "inputs", None)
    if inputs:
        return [tf.TensorSpec(t.shape, t.dtype) for t in inputs]
    built = getattr(layer, "_build_shapes_dict", None) or {}
    if len(built) == 1:
        (shape,) = built.values()
        if isinstance(shape, (tuple, list)) and shape and not isinstance(shape[0], (tuple, list)):
            shape = (None, *shape[1:])
            return [tf.TensorSpec(shape, layer.compute_dtype)]
    raise TypeError(
        "rxt-tf: this Keras model or layer has no known inputs; build it on "
        "keras.Input tensors (or build the layer for one input shape), or give "
        "rxt-tf a tf.function with an input_signature that calls it"
    )


def _spec(tensor: Any) -> _Spec:
    rank = tensor.shape.rank
    return (tensor.dtype.as_datatype_enum, -1 if rank is None else rank)


def resolve(obj: Any) -> list[tuple[_Presence, _Resolved, _Retrace | None]]:
    """Each concrete function of `obj`, as `_resolved` describes it."""
    target: Callable[[], Any]
    try:
        target = weakref.ref(obj)
    except TypeError:
        target = (lambda kept: lambda: kept)(obj)
    del obj
    return [
        (presence, _resolved(function), retrace)
        for presence, function, retrace in _concretes(target)
    ]


def _resolved(function: Any) -> _Resolved:
    definition = function.function_def
    captured = list(function.captured_inputs)
    arguments = len(definition.signature.input_arg) - len(captured)
    outputs = list(function.outputs)
    if arguments < 0 or len(outputs) != len(definition.signature.output_arg):
        raise TypeError(
            "rxt-tf: cannot call this function: its definition does not match its "
            "inputs and outputs"
        )
    return (
        function,
        definition.signature.name,
        [_spec(t) for t in function.inputs[:arguments]],
        [_spec(t) for t in outputs],
        captured,
        len(function.trainable_variables) > 0,
        _replayable(function),
    )
