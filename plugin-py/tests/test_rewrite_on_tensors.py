"""The rewrites of constructs on tensors, run in eager TensorFlow: the
original and the rewritten function give the same bits (NaN places and signed
zeros included), error for error."""

from __future__ import annotations

import ast
import os
from typing import Any

import pytest

from rxt_tf_plugin import rewrite

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

SUBSCRIPTS = [
    "x[-1]",
    "x[0]",
    "x[:, 1:]",
    "x[1:3, ::2]",
    "x[::-1]",
    "x[:-1] + x[1:]",
    "x[..., None]",
    "x[None]",
    "x[:, tf.newaxis, tf.newaxis, :]",
    "x[..., 0]",
    "x[0, ..., 1:]",
    "x[0, 0]",
    "x[5]",  # out of range: the same error
    "x[1:0]",  # empty
    "x[:, -2:-1]",
    "tf.shape(x)[-1]",
    "tf.shape(x)[0] * tf.shape(x)[1]",
]
"""Subscripts of a tensor as real code writes them (``x`` is a 3x4 matrix)."""


def _on_tensors(source: str) -> set[tuple[int, int]]:
    """Where Rextio would report a subscript of a tensor: every one here."""
    return {
        (node.lineno, node.col_offset)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Subscript)
    }


def _run(source: str, x: Any) -> Any:
    import tensorflow as tf

    scope: dict[str, Any] = {}
    exec(compile(source, "<m>", "exec"), scope)
    try:
        result = scope["f"](x)
    except Exception as exc:
        return type(exc).__name__
    assert isinstance(result, tf.Tensor)
    return (result.dtype.name, tuple(result.shape), result.numpy().tobytes())


@pytest.mark.parametrize("expression", SUBSCRIPTS)
def test_a_subscript_and_its_strided_slice_give_the_same_bits(expression: str) -> None:
    import numpy as np
    import tensorflow as tf

    source = f"import tensorflow as tf\n\n\ndef f(x):\n    return {expression}\n"
    fixed, edits = rewrite.fix(source, _on_tensors(source))
    assert edits and "[" not in fixed.split("return", 1)[1], fixed
    special = np.array(
        [np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-45, -3.5, 2.0, 7.0, -1.0, 5.0, np.float32(3.4e38)],
        np.float32,
    ).reshape(3, 4)
    for x in (tf.constant(special), tf.constant(np.arange(12, dtype=np.int32).reshape(3, 4))):
        assert _run(fixed, x) == _run(source, x), (expression, fixed)


@pytest.mark.parametrize(
    "expression",
    ["x[i]", "x[True]", "x[[0, 1]]", "x[()]", "x[1.0]", "x[i:]", "x[mask]"],
)
def test_subscripts_of_values_not_known_here_are_left_alone(expression: str) -> None:
    source = f"import tensorflow as tf\n\n\ndef f(x, i, mask):\n    return {expression}\n"
    assert rewrite.fix(source, _on_tensors(source)) == (source, [])


def test_only_subscripts_rextio_found_on_tensors_are_rewritten() -> None:
    source = "import tensorflow as tf\n\n\ndef f(x, shape):\n    return x[0] + shape[0]\n"
    first = next(
        (node.lineno, node.col_offset)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Subscript) and ast.unparse(node) == "x[0]"
    )
    fixed, _ = rewrite.fix(source, {first})
    assert fixed.endswith(
        "return tf.strided_slice(x, (0,), (1,), (1,), shrink_axis_mask=1) + shape[0]\n"
    )


HELPER = """import tensorflow as tf


def high_pass_x_y(image):
    \"\"\"Differences of neighbours.\"\"\"
    x_var = image[:, :, 1:, :] - image[:, :, :-1, :]
    y_var = image[:, 1:, :, :] - image[:, :-1, :, :]
    return x_var, y_var


def scaled(x, k):
    y = x * k
    return y + 1.0


def f(image):
    x_deltas, y_deltas = high_pass_x_y(image)
    z = scaled(image * 2.0, 0.5)
    x_var, image = high_pass_x_y(image)
    total = tf.reduce_sum(tf.abs(x_deltas)) + tf.reduce_sum(tf.abs(y_deltas))
    return total + x_var[0, 0, 0, 0] + image[0, 0, 0, 0] + z[0, 0, 0, 0]
"""


def _statements(source: str) -> set[tuple[int, int]]:
    """Every statement of ``f``'s body, as if Rextio refused each."""
    tree = ast.parse(source)
    f = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "f")
    return {(s.lineno, s.col_offset) for s in f.body}


def test_an_inlined_helper_gives_the_same_bits() -> None:
    import numpy as np
    import tensorflow as tf

    fixed, edits = rewrite.fix(HELPER, unsafe_at=_statements(HELPER))
    inlined = [e for e in edits if e.reason.startswith("inline the helper")]
    assert len(inlined) == 3 and all(e.unsafe for e in inlined), fixed
    body = fixed.split("def f(image):", 1)[1]
    assert "high_pass_x_y(" not in body and "scaled(" not in body, fixed
    # The helper's names are renamed apart from the caller's (`x_var`, `image`).
    assert "x_var_1 = " in body and "image_1 = image" in body, fixed
    values = np.array(
        [np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-45, -3.5, 2.0, 7.0, -1.0, 5.0, 3.4e38] * 6,
        np.float32,
    ).reshape(2, 3, 4, 3)
    for x in (tf.constant(values), tf.constant(values[:, :1])):
        assert _run(fixed, x) == _run(HELPER, x), fixed
    # Not without the unsafe positions.
    assert not [e for e in rewrite.fix(HELPER)[1] if e.reason.startswith("inline")]


@pytest.mark.parametrize(
    "helper",
    [
        "def h(x):\n    if x is None:\n        return x\n    return x\n",
        "def h(x, k=2.0):\n    return x * k\n",
        "def h(x):\n    y = x\n    y += 1.0\n    return y\n",
        "def h(x):\n    return tf.abs(x), x\n",  # `tf` is the caller's local below
        "def h(x):\n    return [v for v in (x,)]\n",
        "@tf.function\ndef h(x):\n    return x\n",
    ],
)
def test_helpers_that_are_not_straight_line_or_would_read_other_names_stay(helper: str) -> None:
    source = (
        "import tensorflow as tf\n\n\n" + helper + "\n\ndef f(x):\n    tf = 1\n"
        "    a, b = h(x)\n    c = h(x)\n    return a\n"
    )
    fixed, edits = rewrite.fix(source, unsafe_at=_statements(source))
    assert not [e for e in edits if e.reason.startswith("inline")], fixed


def test_a_parameter_named_as_the_helper_is_called_not_inlined() -> None:
    source = (
        "def h(x):\n    return x, x\n\n\ndef f(h, x):\n    a, b = h(x)\n    return a\n\n\n"
        "def outer(x):\n    def f(x):\n        a, b = h(x)\n        return a\n    return f(x)\n"
    )
    tree = ast.parse(source)
    everywhere = {(n.lineno, n.col_offset) for n in ast.walk(tree) if isinstance(n, ast.stmt)}
    fixed, edits = rewrite.fix(source, unsafe_at=everywhere)
    assert not [e for e in edits if e.reason.startswith("inline")], fixed


SHAPES = [
    "x.shape[-1]",
    "x.shape[0] * x.shape[1]",
    "len(x.shape)",
    "x.shape[2]",  # out of range: the same IndexError
]


@pytest.mark.parametrize("expression", SHAPES)
def test_shape_reads_and_get_shape_give_the_same_values(expression: str) -> None:
    import tensorflow as tf

    source = (
        "import tensorflow as tf\nfrom rxt_tf_plugin.types import TensorF32Cpu2D\n\n\n"
        f"def f(x: TensorF32Cpu2D):\n    return tf.fill((), float({expression}))\n"
    )
    fixed, edits = rewrite.fix(source)
    assert edits and ".shape" not in fixed and "get_shape()" in fixed, fixed
    for x in (tf.zeros((3, 4)), tf.zeros((0, 7))):
        assert _run(fixed, x) == _run(source, x), (expression, fixed)


@pytest.mark.parametrize(
    "expression",
    ["x.shape", "x.shape.rank", "x.shape[1:]", "y.shape[0]", "x.shape.as_list()[0]"],
)
def test_other_shape_reads_are_left_alone(expression: str) -> None:
    source = (
        "import tensorflow as tf\nfrom rxt_tf_plugin.types import TensorF32Cpu2D\n\n\n"
        f"def f(x: TensorF32Cpu2D, y):\n    return {expression}\n"
    )
    assert "get_shape" not in rewrite.fix(source)[0]


OPERATORS = [
    "-x",
    "-(x * 2.0)",
    "x ** 2",
    "x ** 0.5",
    "x ** (y - 1.0)",
    "(x) ** y",
    "x // 3",
    "x // y",
    "-x ** 2",
    "y * (x // y)",
]
"""Operators on a float32 tensor ``x`` (and ``y``) as real code writes them."""


@pytest.mark.parametrize("expression", OPERATORS)
def test_operators_and_their_ops_give_the_same_bits(expression: str) -> None:
    import numpy as np
    import tensorflow as tf

    source = (
        "import tensorflow as tf\nfrom rxt_tf_plugin.types import TensorF32Cpu2D\n\n\n"
        f"def f(x: TensorF32Cpu2D, y: TensorF32Cpu2D):\n    return {expression}\n"
    )
    unary = {
        (node.lineno, node.col_offset)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.UnaryOp)
    }
    fixed, edits = rewrite.fix(source, unary)
    body = fixed.split("return", 1)[1]
    assert edits and "**" not in body and "//" not in body, fixed
    assert ("-" not in body) or ("- 1.0" in body), fixed
    compile(fixed, "<fixed>", "exec")
    special = np.array(
        [np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-45, -3.5, 2.0, 7.0, -1.0, 5.0, 3.4e38], np.float32
    ).reshape(3, 4)
    scope: dict[str, Any] = {}
    exec(compile(source, "<m>", "exec"), scope)
    rewritten: dict[str, Any] = {}
    exec(compile(fixed, "<f>", "exec"), rewritten)
    x, y = tf.constant(special), tf.constant(special[::-1].copy())
    for args in ((x, y), (y, x)):
        want, got = scope["f"](*args), rewritten["f"](*args)
        assert (got.dtype, got.shape) == (want.dtype, want.shape)
        assert got.numpy().tobytes() == want.numpy().tobytes(), (expression, fixed)


def test_operators_of_values_not_known_as_tensors_are_left_alone() -> None:
    source = (
        "import tensorflow as tf\n\n\ndef f(x, n: int):\n    return -n, n ** 2, x // 2, 2 ** n\n"
    )
    assert rewrite.fix(source)[1] == []


@pytest.mark.parametrize(
    "call",
    [
        "tf.reduce_sum(x, axis=ax, keepdims=True)",
        "tf.nn.softmax(x, axis=ax)",
        "tf.math.log_softmax(x, axis=ax - 1)",
        "tf.expand_dims(x, axis=ax)",
        "tf.argmax(x, axis=ax)",
        "tf.reduce_max(x, axis=ax + 5)",  # out of range: the same error
    ],
)
def test_an_axis_passed_positionally_gives_the_same_bits(call: str) -> None:
    import numpy as np
    import tensorflow as tf

    source = f"import tensorflow as tf\n\n\ndef f(x, ax=1):\n    return {call}\n"
    fixed, edits = rewrite.fix(source)
    assert edits and "axis=" not in fixed, fixed
    special = np.array(
        [np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-45, -3.5, 2.0, 7.0, -1.0, 5.0, 3.4e38], np.float32
    ).reshape(3, 4)
    assert _run(fixed, tf.constant(special)) == _run(source, tf.constant(special)), fixed


def test_a_local_dtype_and_its_string_give_the_same_bits() -> None:
    import numpy as np
    import tensorflow as tf

    source = (
        "import tensorflow as tf\nfrom rxt_tf_plugin.types import TensorF32Cpu2D\n\n\n"
        "def f(x: TensorF32Cpu2D, m: TensorF32Cpu2D):\n"
        "    y = tf.nn.relu(x)\n"
        "    mask = tf.cast(m > 0.5, dtype=y.dtype)\n"
        "    return y * mask\n"
    )
    claimed = {
        (node.lineno, node.col_offset): "rxt-tf/tensor-f32-cpu-2d"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
    }
    fixed, edits = rewrite.fix(source, set(), set(), claimed)
    assert 'dtype="float32"' in fixed and edits, fixed
    scope: dict[str, Any] = {}
    exec(compile(source, "<m>", "exec"), scope)
    rewritten: dict[str, Any] = {}
    exec(compile(fixed, "<f>", "exec"), rewritten)
    x = tf.constant(np.array([[np.nan, -0.0, 0.0, 3.0], [-1.0, 0.25, 9.0, -np.inf]], np.float32))
    m = tf.constant(np.array([[0.9, 0.1, 0.7, 0.6], [0.2, 1.0, 0.0, 0.8]], np.float32))
    want, got = scope["f"](x, m), rewritten["f"](x, m)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    assert got.numpy().tobytes() == want.numpy().tobytes()


MOMENTS = [
    "tf.nn.moments(x, axes=[-1], keepdims=True)",
    "tf.nn.moments(x, [0])",
    "tf.nn.moments(x, [0, 1])",
    "tf.nn.moments(x, axes=(1,), shift=None, keepdims=False)",
    "tf.nn.moments(x, [2])",  # out of range: the same error
]
"""``tf.nn.moments`` of a float32 (and float64) 3x4 matrix as layers call it."""


@pytest.mark.parametrize("call", MOMENTS)
@pytest.mark.parametrize("marker", ["TensorF32Cpu2D", "TensorF64Cpu2D"])
def test_moments_and_one_call_per_output_give_the_same_bits(call: str, marker: str) -> None:
    import numpy as np
    import tensorflow as tf

    source = (
        f"import tensorflow as tf\nfrom rxt_tf_plugin.types import {marker}\n\n\n"
        f"def f(x: {marker}):\n"
        f"    mean, variance = {call}\n"
        "    return mean * 3.0 + variance\n"
    )
    fixed, edits = rewrite.fix(source)
    assert edits and "moments" not in fixed, fixed
    compile(fixed, "<fixed>", "exec")
    dtype = np.float64 if "64" in marker else np.float32
    cases = [
        np.array([[np.nan, -0.0, 0.0, 3.0], [1e30, -1e30, 7.5, 1e-38], [1.0, 2.0, 3.0, 4.0]]),
        np.arange(12.0).reshape(3, 4) / 7.0,
    ]
    for values in cases:
        x = tf.constant(values.astype(dtype))
        assert _run(source, x) == _run(fixed, x)


def test_moments_stays_where_it_cannot_be_proven() -> None:
    for call, why in [
        ("tf.nn.moments(h, [0])", "float16 runs in float32 and casts back"),
        ("tf.nn.moments(x, axes)", "axes not a literal"),
        ("tf.nn.moments(x, [0], shift=1.0)", "a shift"),
        ("tf.nn.moments(x, [0], name='m')", "a name"),
        ("tf.nn.moments(x, [0], keepdims=k)", "keepdims not a literal"),
    ]:
        source = (
            "import tensorflow as tf\nfrom rxt_tf_plugin.types import TensorF16Cpu2D, "
            "TensorF32Cpu2D\n\n\ndef f(x: TensorF32Cpu2D, h: TensorF16Cpu2D, axes, k):\n"
            f"    mean, variance = {call}\n    return mean\n"
        )
        assert "tf.nn.moments" in rewrite.fix(source)[0], why
