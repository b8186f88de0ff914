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
