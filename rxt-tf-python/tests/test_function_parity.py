"""`rxt_tf.function` as a drop-in for `tf.function` (TensorFlow 2.21.0): the
same parameters with the same defaults, TensorFlow's own documented examples
run unchanged with the same results bit for bit, the same introspection, and
the decorated function's types kept for type checkers."""

from __future__ import annotations

import contextlib
import doctest
import inspect
import io
import linecache
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tensorflow as tf
from bitwise import same_bits

import rxt_tf

OURS = ("exact", "backend")
"""rxt_tf.function's own parameters, keyword only, after tf.function's."""


def normal(*shape: int, seed: int = 1) -> tf.Tensor:
    return tf.random.stateless_normal(shape, seed=[seed, 11])


def same_value(ours: Any, theirs: Any) -> bool:
    """The same value bit for bit: tensors and variables by dtype, shape and
    bytes (NaN places and signed zeros included), graph tensors by name,
    shape and dtype, lists and tuples item by item, anything else by `==`."""
    if isinstance(theirs, list | tuple):
        return (
            type(ours) is type(theirs)
            and len(ours) == len(theirs)
            and all(same_value(a, b) for a, b in zip(ours, theirs, strict=True))
        )
    if isinstance(theirs, tf.Variable):
        return isinstance(ours, tf.Variable) and same_bits(
            tf.convert_to_tensor(ours), tf.convert_to_tensor(theirs)
        )
    if tf.is_symbolic_tensor(theirs):
        return tf.is_symbolic_tensor(ours) and repr(ours) == repr(theirs)
    if isinstance(theirs, tf.Tensor) and theirs.dtype == tf.string:
        return (
            type(ours) is type(theirs)
            and ours.dtype == tf.string
            and ours.shape == theirs.shape
            and bool(np.array_equal(ours.numpy(), theirs.numpy()))
        )
    return same_bits(ours, theirs)


# (a) Parameters.


def test_every_tf_function_parameter_is_taken_with_its_default_and_kind() -> None:
    theirs = inspect.signature(tf.function).parameters
    ours = inspect.signature(rxt_tf.function).parameters
    assert list(ours) == [*theirs, *OURS]
    for name, parameter in theirs.items():
        assert ours[name].kind is parameter.kind, name
        default = ours[name].default
        assert type(default) is type(parameter.default) and default == parameter.default, name
    assert ours["reduce_retracing"].default is False
    assert [(ours[n].kind, ours[n].default) for n in OURS] == [
        (inspect.Parameter.KEYWORD_ONLY, True),
        (inspect.Parameter.KEYWORD_ONLY, "tensorflow"),
    ]


def fingerprint(tf_function: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each concrete function's inputs and the attributes the options set."""
    options = ("_XlaMustCompile", "_noinline", "_implements", "api_implements")
    return sorted(
        (
            str(concrete.structured_input_signature),
            [
                (k, str(concrete.function_def.attr[k]))
                for k in options
                if k in concrete.function_def.attr
            ],
        )
        for concrete in tf_function._list_all_concrete_functions()
    )


def settings(tf_function: Any) -> dict[str, Any]:
    """What a tf.function keeps of its parameters."""
    kept = ("_autograph", "_experimental_autograph_options", "_reduce_retracing", "_jit_compile")
    return {name: getattr(tf_function, name) for name in kept} | {
        "attributes": tf_function._attributes,
        "input_signature": tf_function.input_signature,
    }


def mixed(x):
    # XLA computes tanh and the reduction otherwise than TensorFlow's kernels.
    return tf.tanh(x) * 3.0 + tf.reduce_sum(x, axis=0)


PASSED: list[tuple[str, Any]] = [
    ("input_signature", [tf.TensorSpec((None, 8), tf.float32)]),
    ("autograph", False),
    ("jit_compile", True),
    ("jit_compile", False),
    ("reduce_retracing", True),
    ("experimental_implements", "rxt.mixed"),
    ("experimental_autograph_options", (tf.autograph.experimental.Feature.EQUALITY_OPERATORS,)),
    ("experimental_attributes", {"api_implements": "rxt.mixed", "_noinline": True}),
    ("experimental_relax_shapes", True),
    ("experimental_compile", True),
    ("experimental_follow_type_hints", True),
]


@pytest.mark.parametrize(("name", "value"), PASSED, ids=[f"{n}={v!r}"[:40] for n, v in PASSED])
def test_each_parameter_is_passed_to_the_tf_function(name: str, value: Any) -> None:
    ours = rxt_tf.function(mixed, **{name: value})
    theirs = tf.function(mixed, **{name: value})
    before = rxt_tf.stats()["native"]
    for batch in (1, 2, 3, 3):
        x = normal(batch, 8, seed=batch)
        assert same_value(ours(x), theirs(x)), batch
    assert rxt_tf.stats()["native"] - before == 4
    assert fingerprint(ours.tf_function) == fingerprint(theirs)
    assert ours.experimental_get_tracing_count() == theirs.experimental_get_tracing_count()
    assert ours.input_signature == theirs.input_signature
    assert settings(ours.tf_function) == settings(theirs)
    if name != "experimental_follow_type_hints":  # which TensorFlow ignores
        assert settings(theirs) != settings(tf.function(mixed)), "the default"


def test_parameters_pass_positionally_as_in_tf_function() -> None:
    spec = [tf.TensorSpec(None, tf.float32)]
    ours = rxt_tf.function(mixed, spec, False, None, True)
    theirs = tf.function(mixed, spec, False, None, True)
    assert settings(ours.tf_function) == settings(theirs)
    x = normal(2, 8)
    assert same_value(ours(x), theirs(x))
    decorated = rxt_tf.function(None, spec)(mixed)
    assert isinstance(decorated, rxt_tf.Function)
    assert decorated.input_signature == theirs.input_signature


def test_reduce_retracing_defaults_to_false_as_in_tf_function() -> None:
    ours, theirs = rxt_tf.function(mixed), tf.function(mixed)
    for batch in (1, 2, 3):
        assert same_value(ours(normal(batch, 8)), theirs(normal(batch, 8)))
    assert ours.experimental_get_tracing_count() == theirs.experimental_get_tracing_count() == 3
    assert fingerprint(ours.tf_function) == fingerprint(theirs)


def test_autograph_false_refuses_tensor_control_flow_as_tf_function_does() -> None:
    def branch(x):
        if tf.reduce_sum(x) > 0:
            return x
        return -x

    x = normal(3)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(branch, autograph=False)(x)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        rxt_tf.function(branch, autograph=False)(x)
    assert same_value(rxt_tf.function(branch)(x), tf.function(branch)(x))


def test_jit_compile_results_are_the_xla_compiled_tf_function_s_bit_for_bit() -> None:
    x = normal(64, 64, seed=5)
    xla = tf.function(mixed, jit_compile=True)(x)
    kernels = tf.function(mixed)(x)
    assert not same_value(xla, kernels)  # else this test shows nothing
    ours = rxt_tf.function(mixed, jit_compile=True)
    before = rxt_tf.stats()
    for _ in range(3):
        assert same_value(ours(x), xla)
    after = rxt_tf.stats()
    assert after["native"] - before["native"] == 3
    # XLA-compiled definitions take TensorFlow's own call, by name.
    assert after["exact"]["by_name"] - before["exact"]["by_name"] == 3


def test_jit_compile_of_a_method_is_the_xla_compiled_method_s() -> None:
    class Layer:
        def __init__(self) -> None:
            self.w = tf.Variable(normal(64, 64, seed=9))

        @rxt_tf.function(jit_compile=True)
        def ours(self, x):
            return mixed(tf.matmul(x, self.w))

        @tf.function(jit_compile=True)
        def theirs(self, x):
            return mixed(tf.matmul(x, self.w))

    layer, x = Layer(), normal(4, 64)
    assert same_value(layer.ours(x), layer.theirs(x))
    assert not same_value(layer.ours(x), tf.function(mixed)(tf.matmul(x, layer.w)))


@pytest.mark.parametrize("xla", [{"jit_compile": True}, {"experimental_compile": True}])
def test_jit_compile_is_refused_where_calls_would_skip_xla(xla: dict[str, bool]) -> None:
    with pytest.raises(ValueError, match=r"exact=True .*tf\.function\(\.\.\., jit_compile=True\)"):
        rxt_tf.function(mixed, **xla, exact=False)
    with pytest.raises(ValueError, match="exact=True"):
        rxt_tf.function(**xla, exact=False)(mixed)
    with pytest.raises(ValueError, match="backend='litert'"):
        rxt_tf.function(mixed, **xla, backend="litert")


def test_the_environment_s_jit_compile_default_is_refused_with_exact_false(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tensorflow.python.eager.polymorphic_function import polymorphic_function

    # What TF_FUNCTION_JIT_COMPILE_DEFAULT=1 sets when TensorFlow is imported.
    monkeypatch.setattr(polymorphic_function, "JIT_COMPILE_FUNCTIONS", True)
    with pytest.raises(ValueError, match="exact=True"):
        rxt_tf.function(mixed, exact=False)
    x = normal(64, 64, seed=5)
    assert same_value(rxt_tf.function(mixed)(x), tf.function(mixed)(x))
    assert rxt_tf.function(mixed, jit_compile=False, exact=False).exact is False


def test_unknown_keywords_raise_type_error_as_in_tf_function() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'compile'"):
        tf.function(mixed, compile=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'compile'"):
        rxt_tf.function(mixed, compile=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'compile'"):
        rxt_tf.function(compile=True)


def test_both_jit_compile_spellings_raise_as_in_tf_function() -> None:
    with pytest.raises(ValueError, match="Cannot specify both"):
        tf.function(mixed, jit_compile=True, experimental_compile=True)
    with pytest.raises(ValueError, match="Cannot specify both"):
        rxt_tf.function(mixed, jit_compile=True, experimental_compile=True)


# (b) TensorFlow's documented examples, run unchanged.


class _RxtTf(types.ModuleType):
    """`tensorflow` with `tf.function` rxt_tf's: what the examples see."""

    function = staticmethod(rxt_tf.function)

    def __getattr__(self, name: str) -> Any:
        return getattr(tf, name)


def run_examples(doc: str, module: Any) -> tuple[list[Any], dict[str, Any]]:
    """Runs a docstring's `>>>` examples in order, as doctest does.

    Returns each example with what it printed and the values it showed, and
    the examples' globals. Each example's source is put in `linecache`, so
    AutoGraph can read it, as it reads a file's.
    """
    globs: dict[str, Any] = {"tf": module}
    outcomes = []
    for number, example in enumerate(doctest.DocTestParser().get_examples(doc)):
        name = f"<docstring example {id(globs)}-{number}>"
        lines = example.source.splitlines(keepends=True)
        linecache.cache[name] = (len(example.source), None, lines, name)
        shown: list[Any] = []
        printed = io.StringIO()
        hook = sys.displayhook
        sys.displayhook = shown.append
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(example.source, name, "single"), globs)
        finally:
            sys.displayhook = hook
        outcomes.append((example, printed.getvalue(), [v for v in shown if v is not None]))
    return outcomes, globs


# The examples of the docstrings of TensorFlow 2.21.0's `tf.function`
# (tensorflow/python/eager/polymorphic_function/polymorphic_function.py:
# its features, side effects, `tf.TensorArray`, concrete functions,
# retracing, input signatures, the `MyModule` method creating a variable,
# state, and Python operations running once per trace), of
# `PolymorphicFunction.get_concrete_function` (tensorflow/python/types/core.py)
# and of `experimental_get_tracing_count`, read from the installed wheel and
# run unchanged. None of them shows `reduce_retracing`: it is compared above.
POLYMORPHIC = tf.types.experimental.PolymorphicFunction
DOCSTRINGS = {
    "tf.function": tf.function.__doc__,
    "get_concrete_function": POLYMORPHIC.get_concrete_function.__doc__,
    "experimental_get_tracing_count": type(
        tf.function(mixed)
    ).experimental_get_tracing_count.__doc__,
}


@pytest.mark.parametrize("source", list(DOCSTRINGS))
def test_tensorflow_s_documented_examples_give_the_same_bits(source: str) -> None:
    doc = DOCSTRINGS[source]
    assert doc is not None and ">>> @tf.function" in doc
    theirs, their_globals = run_examples(doc, tf)
    before = rxt_tf.stats()["native"]
    ours, our_globals = run_examples(doc, _RxtTf("tensorflow"))
    if source != "get_concrete_function":  # which calls concrete functions only
        assert rxt_tf.stats()["native"] > before
    assert isinstance(our_globals["f" if "f" in our_globals else "double"], rxt_tf.Function)
    assert len(ours) == len(theirs) >= 3
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    for (example, printed, shown), (_, their_printed, their_shown) in zip(
        ours, theirs, strict=True
    ):
        where = f"{source}: {example.source.strip()}"
        assert printed == their_printed, where
        assert same_value(shown, their_shown), where
        if example.want:  # as the docstring shows it
            got = printed + "".join(f"{value!r}\n" for value in shown)
            assert checker.check_output(example.want, got, flags), f"{where}\n{got}"
    if source == "tf.function":
        # The docstring defines `MyModule` without calling it.
        x = tf.constant([1.0, -2.0])
        for _ in range(2):
            assert same_value(our_globals["MyModule"]()(x), their_globals["MyModule"]()(x))


# (c) Introspection, as the tf.function's.


class Twin:
    """One method through each: their tf.functions compare."""

    def __init__(self) -> None:
        self.w = tf.Variable(2.0)

    @rxt_tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def ours(self, x):
        return x * self.w

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def theirs(self, x):
        return x * self.w


def test_get_concrete_function_is_the_tf_function_s() -> None:
    def add(x, y=1.0):
        return x + y

    ours = rxt_tf.function(add)
    spec = tf.TensorSpec([None], tf.float32)
    concrete = ours.get_concrete_function(spec)
    assert concrete is ours.tf_function.get_concrete_function(spec)
    assert concrete is ours.get_concrete_function(x=spec)
    assert concrete is ours.get_concrete_function(tf.constant([1.0, 2.0]))
    assert str(concrete.structured_input_signature) == str(
        tf.function(add).get_concrete_function(spec).structured_input_signature
    )
    twin = Twin()
    bound = twin.ours.get_concrete_function()
    assert bound is twin.ours.tf_function.get_concrete_function()
    assert str(bound.structured_input_signature) == str(
        twin.theirs.get_concrete_function().structured_input_signature
    )
    x = tf.constant([1.0, -0.0, float("nan")])
    assert same_value(bound(x), twin.theirs.get_concrete_function()(x))


def test_tracing_counts_follow_the_tf_function_s() -> None:
    def double(a):
        return a + a

    ours, theirs = rxt_tf.function(double), tf.function(double)
    calls: list[tuple[Any, ...]] = [
        (tf.constant(1),),
        (tf.constant(2),),
        (tf.constant("a"),),
        (tf.constant([1.0, 2.0]),),
        (3,),
        (3,),
        (4,),
    ]
    for args in calls:
        assert same_value(ours(*args), theirs(*args))
        assert ours.experimental_get_tracing_count() == theirs.experimental_get_tracing_count()
    assert ours.experimental_get_tracing_count() == 5
    twin = Twin()
    for x in (tf.constant(1.0), tf.constant([1.0, 2.0])):
        twin.ours(x)
        twin.theirs(x)
    assert twin.ours.experimental_get_tracing_count() == 1
    assert twin.theirs.experimental_get_tracing_count() == 1


def test_python_function_input_signature_spec_and_wrapped_are_the_tf_function_s() -> None:
    def scale(x, by=2.0):
        return x * by

    spec = [tf.TensorSpec([None], tf.float32)]
    for ours, theirs in (
        (rxt_tf.function(scale), tf.function(scale)),
        (rxt_tf.function(scale, input_signature=spec), tf.function(scale, input_signature=spec)),
    ):
        assert ours.python_function is theirs.python_function is scale
        assert ours.input_signature == theirs.input_signature
        assert ours.function_spec.fullargspec == theirs.function_spec.fullargspec
        assert ours.function_spec.function_type == theirs.function_spec.function_type
        assert ours.__wrapped__ is theirs.__wrapped__ is scale
        assert inspect.signature(ours) == inspect.signature(theirs)
        assert ours.__name__ == theirs.__name__ == "scale"
    twin = Twin()
    ours, theirs = twin.ours, twin.theirs
    # tf.function's binding wraps the method: each its own, named as it.
    assert ours.python_function is ours.tf_function.python_function
    assert ours.python_function.__qualname__ == "Twin.ours"
    assert theirs.python_function.__qualname__ == "Twin.theirs"
    assert ours.input_signature == theirs.input_signature
    assert str(ours.function_spec.function_type) == str(theirs.function_spec.function_type)
    assert inspect.signature(ours) == inspect.signature(theirs)  # (x): bound
    assert inspect.signature(Twin.ours) == inspect.signature(Twin.theirs)  # (self, x)
    assert ours.__wrapped__.__self__ is not None  # the method bound, as tf.function's


# (d) Types.


SNIPPET = """
import tensorflow as tf

import rxt_tf
from rxt_tf._stats import Stats


@rxt_tf.function
def scale(x: float, by: int = 2) -> float:
    return x * by


@rxt_tf.function(input_signature=[tf.TensorSpec(None, tf.float32)], jit_compile=True)
def name(n: int) -> str:
    return str(n)


def shift(x: float, by: int) -> float:
    return x + by


shifted = rxt_tf.function(shift, reduce_retracing=True, exact=True)


class Model:
    @rxt_tf.function
    def step(self, x: float, training: bool = False) -> float:
        return x


reveal_type(scale)
reveal_type(name)
reveal_type(shifted)
reveal_type(Model().step)
kept: float = scale(1.0, by=3)
counts: Stats = rxt_tf.stats()
reveal_type(counts["exact"]["by_name"])
reveal_type(rxt_tf.__version__)
scale("one")
text: int = name(3)
shifted(1.0)
Model().step(1.0, training="yes")
counts["nope"]
rxt_tf.function(shift, compile=True)
"""


def test_decorated_functions_keep_their_types_under_mypy_strict(tmp_path: Path) -> None:
    (tmp_path / "snippet.py").write_text(textwrap.dedent(SNIPPET))
    mypy = [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports"]
    mypy += ["--no-error-summary", "--cache-dir", str(tmp_path / "cache"), "snippet.py"]
    result = subprocess.run(mypy, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    lines = [line.split(": ", 1)[1] for line in result.stdout.splitlines()]
    # TensorFlow ships no types: a tf.Tensor parameter is Any to mypy, so
    # the snippet declares Python types.
    assert lines[:8] == [
        'note: Revealed type is "rxt_tf.Function[[x: float, by: int =], float]"',
        'note: Revealed type is "rxt_tf.Function[[n: int], str]"',
        'note: Revealed type is "rxt_tf.Function[[x: float, by: int], float]"',
        'note: Revealed type is "rxt_tf.Function[[x: float, training: bool =], float]"',
        'note: Revealed type is "int"',
        'note: Revealed type is "str"',
        'error: Argument 1 to "__call__" of "Function" has incompatible type "str"; '
        'expected "float"  [arg-type]',
        'error: Incompatible types in assignment (expression has type "str", '
        'variable has type "int")  [assignment]',
    ], result.stdout + result.stderr
    assert (
        lines[8]
        == 'error: Missing positional argument "by" in call to "__call__" of "Function"  [call-arg]'
    )
    assert lines[9].startswith('error: Argument "training" to "__call__" of "Function" has')
    assert lines[10].startswith('error: TypedDict "Stats" has no key "nope"')
    assert lines[11].startswith('error: No overload variant of "function" matches')
    assert result.returncode == 1


def test_stats_has_the_keys_and_types_its_typed_dict_declares() -> None:
    from rxt_tf import _stats

    rxt_tf.function(mixed)(normal(2, 8))
    counts = rxt_tf.stats()
    assert set(counts) == _stats.Stats.__required_keys__
    for key in ("native", "traces"):
        assert type(counts[key]) is int
    for key, typed in (
        ("fallbacks", _stats.Fallbacks),
        ("litert", _stats.LitertStats),
        ("exact", _stats.ExactStats),
    ):
        group: Any = counts[key]
        assert set(group) == typed.__required_keys__, key
        assert all(type(group[k]) is int for k in group if k != "reasons"), key
    reasons = counts["litert"]["reasons"]
    assert type(reasons) is dict
    assert all(type(k) is str and type(v) is str for k, v in reasons.items())


def test_the_version_is_the_installed_distribution_s() -> None:
    import importlib.metadata

    assert rxt_tf.__version__ == importlib.metadata.version("rxt-tf")
