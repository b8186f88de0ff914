"""Helpers shared by the claim tests (`test_claim_*.py`): the plugin, the
claim call, keyword shorthands, readable test ids and the words the
diagnostics use.
"""

from __future__ import annotations

from rextio.plugins.api import NON_LITERAL, KeywordArg
from sites import SHORT, kw

from rxt_tf_plugin.plugin import plugin

P = plugin()


def claim(site):  # type: ignore[no-untyped-def]
    return P.claim(site, None)


def true(name: str) -> KeywordArg:
    return kw(name, True)


def false(name: str) -> KeywordArg:
    return kw(name, False)


def describe(site) -> str:  # type: ignore[no-untyped-def]
    """A readable test id: ``call:tensorflow.reduce_sum(T2, 1) [keepdims=True]``."""
    literals = site.operand_literals or (NON_LITERAL,) * len(site.operand_types)
    operands = ", ".join(
        repr(literal.value) if literal.is_literal else SHORT.get(str(key), str(key))
        for key, literal in zip(site.operand_types, literals, strict=True)
    )
    keywords = ", ".join(
        f"{k.name}={k.literal.value!r}" if k.literal.is_literal else f"{k.name}=<expr>"
        for k in site.keywords
    )
    return f"{site.kind}:{site.target}({operands}){f' [{keywords}]' if keywords else ''}"


def ranks(low: int, high: int) -> str:
    """``ranks 2-4`` as the messages write it: with an en dash, as the macros do."""
    return f"ranks {low}\N{EN DASH}{high}"


NUMBERS = "float32, float64, bfloat16, float16, int32 or int64"
FLOATS = "float32, float64, bfloat16 or float16"
EVERY_TYPE = "float32, float64, bfloat16, float16, int32, int64 or bool"
TENSORS_ONLY = (
    "operands must be rxt-tf tensors (rxt_tf_plugin.types markers such as TensorF32Cpu2D), got"
)
TENSORS_OR_NUMBERS = (
    "operands must be rxt-tf tensors (rxt_tf_plugin.types markers such as TensorF32Cpu2D) "
    "or number literals, got"
)
AXES_TEXT = "supports only `axis` = an int literal or a tuple of distinct int literals"
ONE_AXIS_TEXT = "supports only `axis` = an int literal"
FLOAT_BESIDE_INT = (
    "a float literal cannot stand beside an int32 tensor (TensorFlow raises TypeError"
)
