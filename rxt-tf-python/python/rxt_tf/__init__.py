"""rxt_tf: TensorFlow functions and Keras models at one native call's cost.

`rxt_tf.function` traces a Python function with TensorFlow's own
`tf.function` and calls its concrete functions through rxt-tf's runtime;
`rxt_tf.Predictor` calls one model or signature. `rxt_tf.stats()` counts
what calls did.
"""

from __future__ import annotations

import functools
import importlib.metadata
import inspect
import types
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, cast, overload

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


def _version() -> str:
    try:
        return importlib.metadata.version("rxt-tf")
    except importlib.metadata.PackageNotFoundError:
        return "0.1.0"


__version__ = _version()
"""The installed `rxt-tf` distribution's version ("0.1.0" when not installed)."""

CACHE_SIZE = 128
"""Keys (argument structure, tensor dtypes and shapes, Python values) kept
per function; the least recently used is forgotten first. `tf.function`
keeps its own concrete functions."""

_P = ParamSpec("_P")
_Q = ParamSpec("_Q")
_R = TypeVar("_R")
_S = TypeVar("_S")


class Function(_NativeFunction, Generic[_P, _R]):
    """A Python function traced by `tf.function`, called through rxt-tf.

    Made by `rxt_tf.function`. It takes the decorated function's parameters
    and returns what it returns; `get_concrete_function`,
    `experimental_get_tracing_count`, `python_function`, `input_signature`,
    `function_spec` and `__wrapped__` are those of its `tf.function`
    (`tf_function`).
    """

    __wrapped__: Callable[..., Any]
    _bound: weakref.WeakKeyDictionary[Any, Function[..., _R]]

    def __new__(
        cls,
        python_function: Callable[_P, _R],
        tf_function: Any,
        *,
        exact: bool = True,
        parameters_of: Callable[..., Any] | None = None,
        backend: str = "tensorflow",
    ) -> Function[_P, _R]:
        """Wraps `tf_function`, the `tf.function` of `python_function`.

        Its parameters are those of `parameters_of` (a bound method's,
        without `self`) when given, else of `python_function`.
        """
        self = cast(
            "Function[_P, _R]",
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
        self._bound = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, python_function)
        # The tf.function's: for a bound method, the method bound.
        self.__wrapped__ = getattr(tf_function, "__wrapped__", python_function)
        return self

    if TYPE_CHECKING:

        def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            """Calls the function: natively where rxt-tf may, else its `tf.function`."""
            ...

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> Function[_P, _R]: ...

    @overload
    def __get__(
        self: Function[Concatenate[_S, _Q], _R], instance: _S, owner: type[Any] | None = None
    ) -> Function[_Q, _R]: ...

    def __get__(self, instance: Any, owner: type[Any] | None = None) -> Any:
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
            python_function = self.python_function
            parameters_of = types.MethodType(python_function, instance)
            bound = Function(
                python_function,
                self.tf_function.__get__(instance, owner),
                exact=self.exact,
                parameters_of=parameters_of,
                backend=self.backend,
            )
            del parameters_of
            if weakly:
                self._bound[instance] = bound
        return bound

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> Any:
        """The `tf.function`'s concrete function for these arguments.

        As `tf.function`'s: tensors may be given as `tf.TensorSpec`s, and
        with an `input_signature` the arguments may be left out.
        """
        return self.tf_function.get_concrete_function(*args, **kwargs)

    def experimental_get_tracing_count(self) -> int:
        """How many times the `tf.function` has traced the Python function."""
        count: int = self.tf_function.experimental_get_tracing_count()
        return count

    @property
    def python_function(self) -> Callable[..., Any]:
        """The `tf.function`'s `python_function` (for a bound method, its wrapper)."""
        python_function: Callable[..., Any] = self.tf_function.python_function
        return python_function

    @property
    def input_signature(self) -> tuple[Any, ...] | None:
        """The `tf.function`'s input signature, a tuple of specs, or None."""
        signature: tuple[Any, ...] | None = self.tf_function.input_signature
        return signature

    @property
    def function_spec(self) -> Any:
        """The `tf.function`'s `function_spec`."""
        return self.tf_function.function_spec

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


@overload
def function(
    func: Callable[_P, _R],
    input_signature: Sequence[Any] | None = None,
    autograph: bool = True,
    jit_compile: bool | None = None,
    reduce_retracing: bool = False,
    experimental_implements: Any = None,
    experimental_autograph_options: Any = None,
    experimental_attributes: dict[str, Any] | None = None,
    experimental_relax_shapes: bool | None = None,
    experimental_compile: bool | None = None,
    experimental_follow_type_hints: bool | None = None,
    *,
    exact: bool = True,
    backend: str = "tensorflow",
) -> Function[_P, _R]: ...


@overload
def function(
    func: None = None,
    input_signature: Sequence[Any] | None = None,
    autograph: bool = True,
    jit_compile: bool | None = None,
    reduce_retracing: bool = False,
    experimental_implements: Any = None,
    experimental_autograph_options: Any = None,
    experimental_attributes: dict[str, Any] | None = None,
    experimental_relax_shapes: bool | None = None,
    experimental_compile: bool | None = None,
    experimental_follow_type_hints: bool | None = None,
    *,
    exact: bool = True,
    backend: str = "tensorflow",
) -> Callable[[Callable[_P, _R]], Function[_P, _R]]: ...


def function(
    func: Callable[..., Any] | None = None,
    input_signature: Sequence[Any] | None = None,
    autograph: bool = True,
    jit_compile: bool | None = None,
    reduce_retracing: bool = False,
    experimental_implements: Any = None,
    experimental_autograph_options: Any = None,
    experimental_attributes: dict[str, Any] | None = None,
    experimental_relax_shapes: bool | None = None,
    experimental_compile: bool | None = None,
    experimental_follow_type_hints: bool | None = None,
    *,
    exact: bool = True,
    backend: str = "tensorflow",
) -> Any:
    """Wraps `func` so that calls run its `tf.function` through rxt-tf.

    A drop-in for `tf.function`: the same parameters, positional or by
    keyword, with the same defaults, each passed to the `tf.function` that
    traces `func` (AutoGraph, same semantics). `func` is a function, a
    method, a Keras layer or model (called with `training=False` unless
    given), or a callable. Used as `@rxt_tf.function`,
    `@rxt_tf.function(input_signature=...)` or `rxt_tf.function(func, ...)`.
    Calls under a gradient tape, while a graph is built, in a device scope
    or with functions run eagerly go through that `tf.function` itself.

    `input_signature`, `autograph`, `reduce_retracing`,
    `experimental_implements`, `experimental_autograph_options`,
    `experimental_attributes`, `experimental_relax_shapes` and
    `experimental_follow_type_hints` are `tf.function`'s, unchanged.
    `reduce_retracing` defaults to False, as in `tf.function`: every new
    input shape traces anew (it was True before; pass
    `reduce_retracing=True` to relax shapes as it did).

    `jit_compile=True` (or its deprecated alias `experimental_compile`):
    XLA compiles the function, so results are XLA's, not TensorFlow's
    kernels'. With `exact` the calls run as the XLA-compiled `tf.function`'s
    own eager call does (by name, counted in
    `rxt_tf.stats()["exact"]["by_name"]`), and results equal that
    `tf.function`'s bit for bit. It raises `ValueError` with `exact=False`
    (that call would skip XLA) or `backend="litert"` (LiteRT runs it).

    `exact` (keyword only, the default) makes results equal the
    `tf.function`'s bit for bit: each call runs as one
    `StatefulPartitionedCall` where TensorFlow's graph for it is proven the
    one the `tf.function`'s call runs (of its definition, or of one made of
    that graph; checked once per definition and configuration, no kernel
    run), else as the `tf.function`'s own eager call does, by name (about
    three times slower); `rxt_tf.stats()["exact"]` counts each route.
    `exact=False` always takes the `StatefulPartitionedCall`, without the
    context's configuration: a result may then differ from the
    `tf.function`'s in signed zeros or NaN payloads.

    `backend="litert"` (keyword only, opt-in, needs `ai-edge-litert==2.3.0`)
    runs each concrete function through LiteRT instead: converted once by
    TensorFlow's TFLite converter (variables read then), compiled per input
    shape for the CPU, within LiteRT's float tolerance of TensorFlow (not
    bitwise, `exact` does not apply); a call that does not convert runs on
    TensorFlow, counted in `rxt_tf.stats()`.
    """
    options: dict[str, Any] = {
        "input_signature": input_signature,
        "autograph": autograph,
        "jit_compile": jit_compile,
        "reduce_retracing": reduce_retracing,
        "experimental_implements": experimental_implements,
        "experimental_autograph_options": experimental_autograph_options,
        "experimental_attributes": experimental_attributes,
    }
    # tf.function warns of a deprecated parameter whenever it is passed.
    deprecated = {
        "experimental_relax_shapes": experimental_relax_shapes,
        "experimental_compile": experimental_compile,
        "experimental_follow_type_hints": experimental_follow_type_hints,
    }
    options.update((name, value) for name, value in deprecated.items() if value is not None)
    if func is None:

        def decorate(inner: Callable[..., Any]) -> Function[..., Any]:
            return function(inner, **options, exact=exact, backend=backend)

        return decorate
    python_function = _layer_call(func) if _keras_layer(func) else func
    tf_function = tf.function(python_function, **options)
    _refuse_xla(tf_function, exact, backend)
    return Function(python_function, tf_function, exact=exact, backend=backend)


def _refuse_xla(tf_function: Any, exact: bool, backend: str) -> None:
    """Raises if `tf_function` is compiled by XLA and calls would not be.

    Its `jit_compile` is as `tf.function` settled it: `jit_compile`, else
    `experimental_compile`, else the `TF_FUNCTION_JIT_COMPILE_DEFAULT`
    environment variable.
    """
    if not getattr(tf_function, "_jit_compile", None):
        return
    if backend == "litert":
        raise ValueError(
            "rxt_tf.function: jit_compile=True does not apply to backend='litert' "
            "(LiteRT runs the function, not XLA): drop jit_compile, or keep "
            "backend='tensorflow' to run the XLA-compiled function"
        )
    if not exact:
        raise ValueError(
            "rxt_tf.function: jit_compile=True needs exact=True (the default): "
            "exact=False calls skip XLA and would give TensorFlow's kernels' "
            "results; drop exact=False, or call tf.function(..., jit_compile=True) "
            "directly"
        )
