"""Claim outcomes: keyword values given positionally, element-type keywords,
calls on operands that are not tensors, and sites rxt-tf does not cover.
"""

from __future__ import annotations

import pytest
from claims import AXES_TEXT, ONE_AXIS_TEXT, TENSORS_OR_NUMBERS, claim, describe
from rextio.plugins.api import NotCovered, ReceiverMeta, Rejected
from sites import T2, T4, Arg, F, binop, call, kw, lit, plus

# Keyword values given positionally are checked like keywords; an element
# type can only be omitted.
POSITIONAL_AND_TYPE_KEYWORDS = [
    (call("tensorflow.reduce_sum", T2, lit(2)), "RXTP-RXTTF-031", "got `axis=2`"),
    (call("tensorflow.reduce_mean", T2, lit(None)), "RXTP-RXTTF-004", AXES_TEXT),
    (call("tensorflow.reduce_max", T2, lit((0, 2))), "RXTP-RXTTF-032", "got `axis=(0, 2)`"),
    (call("tensorflow.argmax", T2, lit(7)), "RXTP-RXTTF-036", "got `axis=7`"),
    (call("tensorflow.argmax", T2, lit((0,))), "RXTP-RXTTF-036", ONE_AXIS_TEXT),
    (call("tensorflow.reduce_min", T2, lit(1), lit(1)), "RXTP-RXTTF-033", "`keepdims`"),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 1), kw("output_type", "tf.int64"))),
        "RXTP-RXTTF-036",
        "`output_type` omitted",
    ),
    # Calls of covered symbols on operands that are not tensors.
    (
        call("tensorflow.add", F, F),
        "RXTP-RXTTF-003",
        "got a float literal × a float literal",
    ),
    (call("tensorflow.add", lit(1), lit(2)), "RXTP-RXTTF-003", "got an int literal × an int"),
    (call("tensorflow.nn.relu", F), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.nn.relu", "list[float]"), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.maximum", "int", F), "RXTP-RXTTF-010", "must be rxt-tf tensors"),
    (call("tensorflow.nn.relu"), "RXTP-RXTTF-002", "got no operands"),
]


@pytest.mark.parametrize(
    ("site", "code", "words"),
    POSITIONAL_AND_TYPE_KEYWORDS,
    ids=[describe(row[0]) for row in POSITIONAL_AND_TYPE_KEYWORDS],
)
def test_positional_and_type_keywords_and_non_tensor_calls_are_rejected(  # type: ignore[no-untyped-def]
    site, code, words
) -> None:
    result = claim(site)
    assert isinstance(result, Rejected), result
    assert result.diagnostic.code == code
    assert words in result.diagnostic.message, result.diagnostic.message


RECEIVER = ReceiverMeta(arg_type=T2, expr_kind="name", is_safe=True)

NOT_COVERED = [
    # Symbols and operators rxt-tf does not cover.
    call("tensorflow.math.atan", T2),
    call("tensorflow.nn.conv3d", T4, T4),
    call("tensorflow.einsum", T2, T2),
    call("numpy.matmul", T2, T2),
    binop("**", T2, F),
    binop("//", T2, T2),
    # Method calls (a receiver).
    call("tensorflow.matmul", T2, T2, receiver=RECEIVER),
    call("tensorflow.nn.relu", T2, receiver=RECEIVER),
    # Untyped operands (positional keyword arguments included).
    call("tensorflow.matmul", None, T2),
    call("tensorflow.nn.relu", None),
    call("tensorflow.reduce_mean", None, keywords=(kw("axis", 1),)),
    call("tensorflow.reduce_mean", T2, None),
    call("tensorflow.add", T2, None),
    plus(None, T2),
    binop("*", F, None),
    # No tensor among the operands.
    binop("-", F, F),
    binop("*", "int", "int"),
    plus(lit(1), lit(2)),
    plus("int", "int"),
    plus("str", "str"),
    binop("/", lit(1), F),
]


@pytest.mark.parametrize("site", NOT_COVERED, ids=[describe(site) for site in NOT_COVERED])
def test_unknown_symbols_receivers_and_untyped_operands_are_not_covered(site) -> None:  # type: ignore[no-untyped-def]
    assert claim(site) == NotCovered()


def test_a_positional_bool_is_never_an_int_literal_operand() -> None:
    # `x * True`: Rextio gives a bool no literal; it is not a number the op takes.
    result = claim(binop("*", T2, Arg("bool")))
    assert isinstance(result, Rejected)
    assert TENSORS_OR_NUMBERS in result.diagnostic.message
