"""What the native half asks of Python once per key or per object.

A function's parameters, the concrete function `tf.function` chooses for a
call, and the structure its outputs are packed into.
"""

from __future__ import annotations

import inspect
from typing import Any

import tensorflow as tf
from tensorflow.python.eager.polymorphic_function import function_type_utils

Parameter = tuple[str, int, bool, Any]
"""`(name, kind, has_default, default)`, kind as `inspect.Parameter.kind`."""


def parameters(fn: Any) -> list[Parameter]:
    """The parameters of `fn` (a bound method's without `self`)."""
    return [
        (p.name, int(p.kind), p.default is not p.empty, None if p.default is p.empty else p.default)
        for p in inspect.signature(fn).parameters.values()
    ]


class Unsupported(Exception):
    """An output structure rxt-tf does not pack."""


def encode(structure: Any, counter: list[int]) -> Any:
    """`structure` with each tensor replaced by its index among the outputs.

    Tensors are numbered in `tf.nest.flatten` order (a dict's by sorted key).
    """
    if structure is None:
        return ("none",)
    # A loaded signature's outputs are described by dense specs.
    if isinstance(structure, tf.Tensor) or type(structure) is tf.TensorSpec:
        counter[0] += 1
        return ("tensor", counter[0] - 1)
    if type(structure) is dict:
        try:
            ordered = sorted(structure)
        except TypeError as err:
            raise Unsupported from err
        encoded = {key: encode(structure[key], counter) for key in ordered}
        return ("dict", [(key, encoded[key]) for key in structure])
    if isinstance(structure, tuple) and hasattr(type(structure), "_fields"):
        return ("namedtuple", type(structure), [encode(item, counter) for item in structure])
    if type(structure) is tuple:
        return ("tuple", [encode(item, counter) for item in structure])
    if type(structure) is list:
        return ("list", [encode(item, counter) for item in structure])
    raise Unsupported


def outputs(concrete: Any) -> Any:
    """The encoded output structure of `concrete`.

    None if rxt-tf does not pack it (composite tensors, say).
    """
    counter = [0]
    try:
        encoded = encode(concrete.structured_outputs, counter)
    except Unsupported:
        return None
    return encoded if counter[0] == len(concrete.outputs) else None


def trace(
    tf_function: Any, args: tuple[Any, ...], kwargs: dict[str, Any], tensors: list[Any]
) -> tuple[Any, Any]:
    """`tf_function`'s concrete function for this call, and its encoded outputs.

    The outputs are None when rxt-tf cannot make the call itself: the
    tensors it would pass (`tensors`, in the order rxt-tf flattened them) are
    not the ones TensorFlow passes, or the outputs are not packed.
    """
    concrete = tf_function.get_concrete_function(*args, **kwargs)
    bound = function_type_utils.canonicalize_function_inputs(
        args, kwargs, tf_function._function_type, tf_function._default_values
    )
    function_type = concrete.function_type
    flat = function_type.unpack_inputs(function_type.bind(*bound.args, **bound.kwargs))
    same = len(flat) == len(tensors) and all(a is b for a, b in zip(flat, tensors, strict=True))
    return concrete, outputs(concrete) if same else None


def describe(concrete: Any) -> tuple[Any, list[str]]:
    """A Predictor's encoded outputs and the names of its inputs."""
    encoded = outputs(concrete)
    if encoded is None:
        raise TypeError("rxt_tf.Predictor: the function returns composite tensors")
    return encoded, [str(name) for name in getattr(concrete, "_arg_keywords", None) or []]
