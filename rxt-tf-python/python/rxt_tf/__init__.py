"""rxt_tf: TensorFlow functions and Keras models at one native call's cost.

`rxt_tf.function` traces a Python function with TensorFlow's own
`tf.function` and calls its concrete functions through rxt-tf's runtime;
`rxt_tf.Predictor` calls one model or signature. `rxt_tf.stats()` counts
what calls did.
"""

from __future__ import annotations

import functools
import inspect
import types
import weakref
from collections.abc import Callable
from typing import Any, cast

import tensorflow as tf

from rxt_tf import _trace
from rxt_tf._native import Function as _NativeFunction
from rxt_tf._native import LitertFallbackWarning, Predictor, reset_stats, stats

__all__ = [
    "CACHE_SIZE",
    "Function",
    "LitertFallbackWarning",
    "Predictor",
    "function",
    "reset_stats",
    "stats",
]

CACHE_SIZE = 128
"""Keys (argument structure, tensor dtypes and shapes, Python values) kept
per function; the least recently used is forgotten first. `tf.function`
keeps its own concrete functions."""


class Function(_NativeFunction):
    """A Python function traced by `tf.function`, called through rxt-tf.

    Made by `rxt_tf.function`.
    """

    python_function: Callable[..., Any]
    input_signature: Any
    _bound: weakref.WeakKeyDictionary[Any, Function]

    def __new__(
        cls,
        python_function: Callable[..., Any],
        tf_function: Any,
        input_signature: Any = None,
        exact: bool = True,
        parameters_of: Any = None,
        backend: str = "tensorflow",
    ) -> Function:
        """Wraps `tf_function`, the `tf.function` of `python_function`.

        Its parameters are those of `parameters_of` (a bound method's,
        without `self`) when given, else of `python_function`.
        """
        self = cast(
            Function,
            super().__new__(
                cls,
                tf_function,
                _trace.parameters(parameters_of or python_function),
                _trace.trace,
                CACHE_SIZE,
                exact,
                backend,
            ),
        )
        self.python_function = python_function
        self.input_signature = input_signature
        self._bound = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, python_function)
        return self

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        """A method's function bound to `instance`, made once per instance.

        Kept in a weak map, and bound through `tf.function`'s own method
        binding, which holds the instance weakly: nothing here keeps the
        instance alive, and a copy of the instance gets its own binding.
        An instance that cannot be referenced weakly is bound at each access.
        """
        if instance is None:
            return self
        weakly = _weakly(instance)
        bound = self._bound.get(instance) if weakly else None
        if bound is None:
            parameters_of = types.MethodType(self.python_function, instance)
            bound = Function(
                self.python_function,
                self.tf_function.__get__(instance, owner),
                self.input_signature,
                self.exact,
                parameters_of=parameters_of,
                backend=self.backend,
            )
            del parameters_of
            if weakly:
                self._bound[instance] = bound
        return bound

    def __repr__(self) -> str:
        """`<rxt_tf.function 'name'>`."""
        name = getattr(self.python_function, "__qualname__", self.python_function)
        return f"<rxt_tf.function {name!r}>"


def _weakly(obj: Any) -> bool:
    try:
        weakref.ref(obj)
    except TypeError:
        return False
    return True


def _keras_layer(obj: Any) -> bool:
    try:
        import keras
    except ImportError:
        return False
    return isinstance(obj, keras.layers.Layer)


def _layer_call(layer: Any) -> Callable[..., Any]:
    """A function calling `layer` as `layer(...)` does.

    It takes the parameters of the layer's `call`, `training` False unless given.
    """
    signature = inspect.signature(layer.call)
    params = [
        p.replace(default=False) if p.name == "training" else p
        for p in signature.parameters.values()
    ]

    signature = signature.replace(parameters=params)

    def call(*args: Any, **kwargs: Any) -> Any:
        # Keras takes only the inputs positionally: the first parameter.
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        positional: list[Any] = []
        keywords: dict[str, Any] = {}
        for index, (name, value) in enumerate(bound.arguments.items()):
            kind = signature.parameters[name].kind
            if index == 0:
                positional.append(value)
            elif kind is inspect.Parameter.VAR_POSITIONAL:
                positional.extend(value)
            elif kind is inspect.Parameter.VAR_KEYWORD:
                keywords.update(value)
            else:
                keywords[name] = value
        return layer(*positional, **keywords)

    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__name__ = type(layer).__name__
    call.__qualname__ = type(layer).__qualname__
    return call


def function(
    fn: Callable[..., Any] | None = None,
    *,
    input_signature: Any = None,
    reduce_retracing: bool = True,
    exact: bool = True,
    backend: str = "tensorflow",
) -> Any:
    """Wraps `fn` so that calls run its `tf.function` through rxt-tf.

    `fn` is a function, a method, a Keras layer or model, or a callable.

    Used as `@rxt_tf.function`, `@rxt_tf.function(input_signature=...)` or
    `rxt_tf.function(layer)`. The function is traced by TensorFlow's own
    `tf.function` (AutoGraph, same semantics; `reduce_retracing` as there);
    calls under a gradient tape, while a graph is built, in a device scope or
    with functions run eagerly go through that `tf.function` itself.

    `exact` (the default) makes results equal the `tf.function`'s bit for
    bit: each call runs as one `StatefulPartitionedCall` where TensorFlow's
    graph for it is proven the one the `tf.function`'s call runs (of its
    definition, or of one made of that graph; checked once per definition
    and configuration, no kernel run), else as
    the `tf.function`'s own eager call does, by name (about three times
    slower); `rxt_tf.stats()["exact"]` counts each route. `exact=False`
    always takes the `StatefulPartitionedCall`, without the context's
    configuration: a result may then differ from the `tf.function`'s in
    signed zeros or NaN payloads.

    `backend="litert"` (opt-in, needs `ai-edge-litert==2.3.0`) runs each
    concrete function through LiteRT instead: converted once by
    TensorFlow's TFLite converter (variables read then), compiled per input
    shape for the CPU, within LiteRT's float tolerance of TensorFlow (not
    bitwise, `exact` does not apply); a call that does not convert runs on
    TensorFlow, counted in `rxt_tf.stats()`.
    """
    if fn is None:
        return lambda inner: function(
            inner,
            input_signature=input_signature,
            reduce_retracing=reduce_retracing,
            exact=exact,
            backend=backend,
        )
    python_function = _layer_call(fn) if _keras_layer(fn) else fn
    tf_function = tf.function(
        python_function, input_signature=input_signature, reduce_retracing=reduce_retracing
    )
    return Function(python_function, tf_function, input_signature, exact, backend=backend)
