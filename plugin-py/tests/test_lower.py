"""Lowering: every claimed form becomes one `::rxt_tf::tf!(...)?` expression."""

from __future__ import annotations

from dataclasses import replace

import pytest
from claims import describe
from rextio.plugins.api import NON_LITERAL, Claimed, LoweredExpr, LoweringContext
from sites import (
    B2,
    D1,
    D2,
    FVAR,
    I32_1,
    I32_3,
    I64,
    I64_2,
    T1,
    T2,
    T3,
    T4,
    F,
    binop,
    call,
    kw,
    lit,
    plus,
    rule_id,
)
from test_claim_accepted import ACCEPTED
from test_claim_operands import NOT_COVERED
from test_claim_rejected import REJECTED

from rxt_tf_plugin import spec
from rxt_tf_plugin.ops import op_for
from rxt_tf_plugin.plugin import plugin

P = plugin()


def ctx(*operands: str, receiver: str | None = None) -> LoweringContext:
    return LoweringContext(
        operands=operands,
        target_language="rust",
        fresh_name=lambda prefix: f"{prefix}_0",
        receiver=receiver,
    )


def claimed(site):  # type: ignore[no-untyped-def]
    """The site as core hands it to lower(): with its claimed rule and type."""
    result = P.claim(site, None)
    assert isinstance(result, Claimed)
    return replace(site, rule_id=result.rule_id, result_type=result.result_type)


def tf(text: str) -> str:
    return f"::rxt_tf::tf!({text})?"


EXPECTED = [
    # (site, rendered operands, Rust)
    # The seed's rows.
    (call("tensorflow.matmul", T2, T2), ("x", "weight"), tf("matmul(x, weight)")),
    (call("tensorflow.linalg.matmul", T2, T2), ("a", "b"), tf("matmul(a, b)")),
    (call("tensorflow.nn.relu", T2), ("h",), tf("relu(h)")),
    (call("tensorflow.math.tanh", T1), ("b",), tf("tanh(b)")),
    (
        call("tensorflow.nn.sigmoid", T2),
        ("(::rxt_tf::tf!(matmul(x, w))?)",),
        tf("sigmoid((::rxt_tf::tf!(matmul(x, w))?))"),
    ),
    (call("tensorflow.add", T1, T2), ("a", "b"), tf("add(a, b)")),
    (call("tensorflow.math.add", T2, T1), ("h", "bias"), tf("add(h, bias)")),
    (plus(T2, T1), ("h", "bias"), tf("h + bias")),
    (plus(T1, T1), ("a", "b"), tf("a + b")),
    (plus(T2, T1), ("(a) + (b)", "x as T"), tf("((a) + (b)) + (x as T)")),
    (
        call("tensorflow.nn.relu", T2),
        ("if c { a } else { b }",),
        tf("relu((if c { a } else { b }))"),
    ),
    (
        call("tensorflow.reduce_mean", T2, keywords=(kw("axis", 1),)),
        ("h",),
        tf("reduce_mean(h, axis = 1)"),
    ),
    (
        call(
            "tensorflow.math.reduce_mean",
            T2,
            keywords=(kw("keepdims", False), kw("axis", 1)),
        ),
        ("h",),
        tf("reduce_mean(h, axis = 1, keepdims = false)"),
    ),
    # matmul: keywords in table order whatever their order in Python; `@`.
    (
        call("tensorflow.matmul", T2, T2, keywords=(kw("transpose_b", True),)),
        ("a", "b"),
        tf("matmul(a, b, transpose_b = true)"),
    ),
    (
        call(
            "tensorflow.linalg.matmul",
            T2,
            T2,
            keywords=(kw("transpose_b", False), kw("transpose_a", True)),
        ),
        ("a", "b"),
        tf("matmul(a, b, transpose_a = true, transpose_b = false)"),
    ),
    (binop("@", T2, T2), ("a", "b"), tf("matmul(a, b)")),
    (binop("@", T2, T2), ("x.clone()", "w"), tf("matmul((x.clone()), w)")),
    # Unary element-wise ops: the op's name in tf!, not the Python one.
    (call("tensorflow.sigmoid", T1), ("v",), tf("sigmoid(v)")),
    (call("tensorflow.math.abs", T2), ("x",), tf("abs(x)")),
    (call("tensorflow.negative", T1), ("x",), tf("neg(x)")),
    (call("tensorflow.math.square", T2), ("x",), tf("square(x)")),
    (call("tensorflow.exp", T1), ("x",), tf("exp(x)")),
    (call("tensorflow.math.log", T2), ("x",), tf("log(x)")),
    (call("tensorflow.math.sqrt", T1), ("x",), tf("sqrt(x)")),
    (call("tensorflow.math.rsqrt", T2), ("x",), tf("rsqrt(x)")),
    (call("tensorflow.nn.relu6", T1), ("x",), tf("relu6(x)")),
    (call("tensorflow.nn.elu", T2), ("x",), tf("elu(x)")),
    (call("tensorflow.math.softplus", T1), ("x",), tf("softplus(x)")),
    (call("tensorflow.nn.leaky_relu", T2), ("x",), tf("leaky_relu(x)")),
    # Broadcasting calls lower to the op, operators to the operator.
    (call("tensorflow.subtract", T2, T1), ("a", "b"), tf("sub(a, b)")),
    (call("tensorflow.math.multiply", T1, T1), ("a", "b"), tf("mul(a, b)")),
    (call("tensorflow.divide", T1, T2), ("a", "b"), tf("div(a, b)")),
    (call("tensorflow.maximum", T2, T2), ("a", "b"), tf("maximum(a, b)")),
    (call("tensorflow.math.minimum", T2, T1), ("a", "b"), tf("minimum(a, b)")),
    (binop("-", T2, T2), ("a", "b"), tf("a - b")),
    (binop("*", T1, T2), ("a", "b"), tf("a * b")),
    (binop("/", T2, T1), ("a", "b"), tf("a / b")),
    # Float literals, as Rextio renders them (Python's repr; negatives in parentheses).
    (binop("*", T2, F), ("x", "0.5"), tf("x * 0.5")),
    (binop("-", F, T1), ("(-3.0)", "x"), tf("(-3.0) - x")),
    (binop("-", F, T1), ("-3.0", "x"), tf("(-3.0) - x")),
    (binop("/", T2, F), ("x", "((-3.0))"), tf("x / (-3.0)")),
    (plus(F, T2), ("1e+20", "x"), tf("1e+20 + x")),
    (plus(T1, F), ("x", "1e-05"), tf("x + 1e-05")),
    (call("tensorflow.add", T2, F), ("x", "1e+20"), tf("add(x, 1e+20)")),
    (call("tensorflow.math.subtract", F, T1), ("(-3.0)", "x"), tf("sub((-3.0), x)")),
    (call("tensorflow.multiply", T1, F), ("x", "0.5"), tf("mul(x, 0.5)")),
    (call("tensorflow.divide", F, T2), ("(1.0)", "x"), tf("div(1.0, x)")),
    (call("tensorflow.maximum", F, T2), ("0.0", "x"), tf("maximum(0.0, x)")),
    (call("tensorflow.minimum", T2, F), ("x", "6.0"), tf("minimum(x, 6.0)")),
    # Int literals, written from the value the claim read (negatives in parentheses).
    (binop("*", T2, lit(2)), ("x", "2"), tf("x * 2")),
    (binop("*", I32_3, lit(2)), ("x", "2"), tf("x * 2")),
    (binop("-", lit(-3), I64), ("__rextio_checked_neg(3)?", "x"), tf("(-3) - x")),
    (plus(I32_1, lit(0)), ("x", "0"), tf("x + 0")),
    (call("tensorflow.maximum", I64_2, lit(0)), ("x", "0"), tf("maximum(x, 0)")),
    (
        call("tensorflow.multiply", lit(-1), T3),
        ("__rextio_checked_neg(1)?", "x"),
        tf("mul((-1), x)"),
    ),
    # Higher ranks and integer element types lower as the matrices do.
    (call("tensorflow.matmul", T4, T2), ("a", "b"), tf("matmul(a, b)")),
    (binop("@", I32_3, I32_3), ("a", "b"), tf("matmul(a, b)")),
    (call("tensorflow.nn.relu", I64), ("x",), tf("relu(x)")),
    (plus(I32_3, I32_1), ("h", "b"), tf("h + b")),
    (call("tensorflow.nn.bias_add", I32_3, I32_1), ("h", "b"), tf("bias_add(h, b)")),
    # bias_add: data_format is Python's only and is dropped.
    (call("tensorflow.nn.bias_add", T2, T1), ("h", "b"), tf("bias_add(h, b)")),
    (
        call("tensorflow.nn.bias_add", T2, T1, keywords=(kw("data_format", "NHWC"),)),
        ("h", "b"),
        tf("bias_add(h, b)"),
    ),
    # transpose: perm as a Rust array.
    (call("tensorflow.transpose", T2), ("x",), tf("transpose(x)")),
    (
        call("tensorflow.transpose", T2, keywords=(kw("perm", (1, 0)),)),
        ("x",),
        tf("transpose(x, perm = [1, 0])"),
    ),
    (
        call("tensorflow.transpose", T3, keywords=(kw("perm", (0, 2, 1)),)),
        ("x",),
        tf("transpose(x, perm = [0, 2, 1])"),
    ),
    (call("tensorflow.transpose", B2), ("mask",), tf("transpose(mask)")),
    # Reductions: keywords, and positional values read from the site (not the text).
    (
        call("tensorflow.reduce_sum", T3, keywords=(kw("axis", (0, 2)),)),
        ("x",),
        tf("reduce_sum(x, axis = [0, 2])"),
    ),
    (
        call("tensorflow.reduce_mean", T4, lit((-1, 1)), keywords=(kw("keepdims", True),)),
        ("x", "(__rextio_checked_neg(1)?, 1)"),
        tf("reduce_mean(x, axis = [-1, 1], keepdims = true)"),
    ),
    (
        call("tensorflow.reduce_max", I32_3, keywords=(kw("axis", 1),)),
        ("x",),
        tf("reduce_max(x, axis = 1)"),
    ),
    (
        call("tensorflow.reduce_sum", T2, keywords=(kw("axis", 0),)),
        ("x",),
        tf("reduce_sum(x, axis = 0)"),
    ),
    (
        call("tensorflow.math.reduce_max", T2, keywords=(kw("axis", 0), kw("keepdims", True))),
        ("x",),
        tf("reduce_max(x, axis = 0, keepdims = true)"),
    ),
    (
        call("tensorflow.reduce_max", T2, lit(-1)),
        ("h", "__rextio_checked_neg(1)?"),
        tf("reduce_max(h, axis = -1)"),
    ),
    (
        call("tensorflow.math.reduce_min", T2, lit(-2), keywords=(kw("keepdims", True),)),
        ("h", "__rextio_checked_neg(2)?"),
        tf("reduce_min(h, axis = -2, keepdims = true)"),
    ),
    (
        call("tensorflow.reduce_mean", T2, lit(1)),
        ("h", "ignored"),
        tf("reduce_mean(h, axis = 1)"),
    ),
    # softmax / log_softmax: the default axis is not written.
    (call("tensorflow.nn.softmax", T2), ("x",), tf("softmax(x)")),
    (
        call("tensorflow.math.softmax", T2, keywords=(kw("axis", 0),)),
        ("x",),
        tf("softmax(x, axis = 0)"),
    ),
    (
        call("tensorflow.nn.log_softmax", T1, keywords=(kw("axis", -1),)),
        ("v",),
        tf("log_softmax(v, axis = -1)"),
    ),
    # argmax: keyword or positional axis.
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 1),)),
        ("logits",),
        tf("argmax(logits, axis = 1)"),
    ),
    (
        call("tensorflow.math.argmax", T2, lit(-2)),
        ("logits", "__rextio_checked_neg(2)?"),
        tf("argmax(logits, axis = -2)"),
    ),
    (call("tensorflow.argmax", B2, lit(0)), ("mask", "0"), tf("argmax(mask, axis = 0)")),
    (
        call("tensorflow.cast", I32_3, lit("float32")),
        ("ids", '"float32"'),
        tf("cast(ids, dtype = f32)"),
    ),
    (
        call("tensorflow.zeros_like", T2, keywords=(kw("dtype", "int64"),)),
        ("x",),
        tf(f"cast({tf('zeros_like(x)')}, dtype = i64)"),
    ),
    (
        call("tensorflow.argmax", T2, keywords=(kw("axis", 1), kw("output_type", "int32"))),
        ("logits",),
        tf("argmax(logits, axis = 1, output_type = i32)"),
    ),
    (
        call("tensorflow.nn.softmax", T4, keywords=(kw("axis", 1),)),
        ("x",),
        tf("softmax(x, axis = 1)"),
    ),
]


@pytest.mark.parametrize(
    ("site", "operands", "rust"), EXPECTED, ids=[describe(row[0]) for row in EXPECTED]
)
def test_claimed_sites_lower_to_the_tf_macro(site, operands, rust) -> None:  # type: ignore[no-untyped-def]
    assert P.lower(claimed(site), ctx(*operands)) == LoweredExpr(rust=rust)


def rendered(site) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    """Operand texts as Rextio renders them: names, float and int literals."""
    texts = []
    literals = site.operand_literals or (None,) * len(site.operand_types)
    for index, (key, literal) in enumerate(zip(site.operand_types, literals, strict=True)):
        if literal is not None and literal.is_literal:
            texts.append(repr(literal.value))
        elif key == "float":
            texts.append("0.5")
        else:
            texts.append(f"v{index}")
    return tuple(texts)


RUST_TYPES = {dtype: short for _, short, dtype, _ in spec.TENSOR_KINDS}
"""The Rust element type of each dtype name (``float32`` → ``f32``)."""


def as_rust(value: object) -> str:
    """A literal as the lowering writes it: ``2``, ``(-3)``, ``[0, 2]``."""
    if isinstance(value, tuple):
        return "[" + ", ".join(str(item) for item in value) + "]"
    assert isinstance(value, int)
    return f"({value})" if value < 0 else str(value)


@pytest.mark.parametrize(
    ("site", "_rule", "_result"), ACCEPTED, ids=[describe(row[0]) for row in ACCEPTED]
)
def test_every_accepted_row_lowers(site, _rule, _result) -> None:  # type: ignore[no-untyped-def]
    operands = rendered(site)
    lowered = P.lower(claimed(site), ctx(*operands))
    runtime = [
        str(t).startswith("tuple[") and not lit.is_literal
        for t, lit in zip(
            site.operand_types, site.operand_literals or (NON_LITERAL,) * len(operands), strict=True
        )
    ]
    if any(runtime):
        # Sizes known at run time: a block binds the tuple, the list reads it.
        assert lowered.rust.startswith("{ let __rxt_tf_operand_") and lowered.rust.endswith(")? }")
    else:
        assert lowered.rust.startswith("::rxt_tf::tf!(") and lowered.rust.endswith(")?")
    assert lowered.helpers == () and lowered.uses == ()
    op = op_for(site.kind, site.target)
    assert op is not None
    literals = site.operand_literals or (NON_LITERAL,) * len(operands)
    for index, (text, literal) in enumerate(zip(operands, literals, strict=True)):
        # Tensors and float literals appear as rendered, int literal operands by
        # value; a positional literal after the operands is the keyword of
        # its position (the axis, a flag, or cast's dtype as its Rust type).
        if not literal.is_literal:
            expected = text
        elif index < op.arity:
            expected = as_rust(literal.value)
        elif isinstance(literal.value, str) and literal.value in RUST_TYPES:
            expected = f"dtype = {RUST_TYPES[literal.value]}"
        elif isinstance(literal.value, str):
            name = op.rule.positional[index - op.arity]
            expected = f'{name} = "{literal.value}"'

        elif isinstance(literal.value, bool):
            name = op.rule.positional[index - op.arity]
            expected = f"{name} = {str(literal.value).lower()}"
        else:
            name = op.rule.positional[index - op.arity]
            expected = f"{name} = {as_rust(literal.value).strip('()')}"
        assert expected in lowered.rust, (expected, lowered.rust)
    for keyword in site.keywords:
        if keyword.name in ("axis", "perm"):
            assert f"{keyword.name} = {as_rust(keyword.literal.value).strip('()')}" in (
                lowered.rust
            )


@pytest.mark.parametrize(
    ("rendering", "scalar"),
    [
        ("scale", "::rxt_tf::ops::Scalar(((scale) as f32))"),
        ("self.scale", "::rxt_tf::ops::Scalar(((self.scale) as f32))"),
        ("f(x)?", "::rxt_tf::ops::Scalar(((f(x)?) as f32))"),
        ("(-scale)", "::rxt_tf::ops::Scalar(((-scale) as f32))"),
        ("inf", "::rxt_tf::ops::Scalar(::core::f32::INFINITY)"),
        ("(-inf)", "::rxt_tf::ops::Scalar(::core::f32::NEG_INFINITY)"),
        ("nan", "::rxt_tf::ops::Scalar(::core::f32::NAN)"),
    ],
)
def test_a_float_expression_that_is_not_a_literal_is_a_run_time_scalar(
    rendering: str, scalar: str
) -> None:
    assert P.lower(claimed(binop("*", T2, F)), ctx("x", rendering)).rust == (
        f"::rxt_tf::tf!(x * {scalar})?"
    )
    assert P.lower(claimed(call("tensorflow.maximum", T2, F)), ctx("x", rendering)).rust == (
        f"::rxt_tf::tf!(maximum(x, {scalar}))?"
    )


@pytest.mark.parametrize(
    ("site", "_code", "_words"), REJECTED, ids=[describe(row[0]) for row in REJECTED]
)
def test_rejected_sites_do_not_lower(site, _code, _words) -> None:  # type: ignore[no-untyped-def]
    operands = tuple(f"v{i}" for i in range(len(site.operand_types)))
    with pytest.raises(ValueError, match="rxt-tf: lowering a site that rxt-tf does not claim"):
        P.lower(site, ctx(*operands))


@pytest.mark.parametrize("site", NOT_COVERED, ids=[describe(site) for site in NOT_COVERED])
def test_uncovered_sites_do_not_lower(site) -> None:  # type: ignore[no-untyped-def]
    operands = tuple(f"v{i}" for i in range(len(site.operand_types)))
    with pytest.raises(ValueError, match="does not claim"):
        P.lower(site, ctx(*operands))


def test_metadata_that_does_not_match_the_claim_raises() -> None:
    site = claimed(call("tensorflow.matmul", T2, T2))
    with pytest.raises(ValueError, match=f"carries rule '{rule_id('relu')}'"):
        P.lower(replace(site, rule_id=rule_id("relu")), ctx("a", "b"))
    with pytest.raises(ValueError, match="carries result type"):
        P.lower(replace(site, result_type=T1), ctx("a", "b"))
    with pytest.raises(ValueError, match="claimed with 2 operand"):
        P.lower(site, ctx("a"))
    with pytest.raises(ValueError, match="empty operand"):
        P.lower(site, ctx("a", " "))
    with pytest.raises(ValueError, match="with a receiver"):
        P.lower(site, ctx("a", "b", receiver="a"))
    with pytest.raises(ValueError, match="Rust only"):
        P.lower(
            site, LoweringContext(operands=("a", "b"), target_language="c", fresh_name=lambda p: p)
        )


def test_metadata_of_the_new_forms_must_match_too() -> None:
    # A binop claimed under the call rule, a reduction claimed with keepdims=True's type.
    site = claimed(binop("@", T2, T2))
    with pytest.raises(ValueError, match=f"carries rule '{rule_id('matmul')}'"):
        P.lower(replace(site, rule_id=rule_id("matmul")), ctx("a", "b"))
    reduction = claimed(call("tensorflow.reduce_sum", T2, keywords=(kw("axis", 0),)))
    with pytest.raises(ValueError, match="carries result type"):
        P.lower(replace(reduction, result_type=T2), ctx("x"))
    argmax = claimed(call("tensorflow.argmax", T2, lit(1)))
    with pytest.raises(ValueError, match="produces 'rxt-tf/tensor-i64-cpu-1d'"):
        P.lower(replace(argmax, result_type=T1), ctx("x", "1"))
    # The positional axis counts as an operand: its text must be there.
    with pytest.raises(ValueError, match="claimed with 2 operand"):
        P.lower(argmax, ctx("x"))
    with pytest.raises(ValueError, match="empty operand"):
        P.lower(argmax, ctx("x", ""))


@pytest.mark.parametrize(
    ("rendering", "scalar"),
    [
        ("1e+300", "::rxt_tf::ops::Scalar(::core::f32::INFINITY)"),
        ("(-1e+39)", "::rxt_tf::ops::Scalar(::core::f32::NEG_INFINITY)"),
        ("3.4028234663852886e+38", "3.4028234663852886e+38"),
    ],
)
def test_a_float_literal_beyond_float32_is_infinite_as_in_eager(
    rendering: str, scalar: str
) -> None:
    assert P.lower(claimed(binop("*", T2, F)), ctx("x", rendering)).rust == (
        f"::rxt_tf::tf!(x * {scalar})?"
    )


@pytest.mark.parametrize(
    ("rendering", "scalar"),
    [
        ("scale", "::rxt_tf::ops::Scalar(((scale) as f64))"),
        ("(1.0 / 255.0)", "::rxt_tf::ops::Scalar(((1.0 / 255.0) as f64))"),
        ("1e+300", "1e+300"),
        ("(-1e+39)", "(-1e+39)"),
        ("inf", "::rxt_tf::ops::Scalar(::core::f64::INFINITY)"),
        ("nan", "::rxt_tf::ops::Scalar(::core::f64::NAN)"),
    ],
)
def test_a_float_beside_float64_tensors_is_a_float64(rendering: str, scalar: str) -> None:
    # A float64 tensor keeps the Python float's value: no float32 rounding or
    # overflow, as TensorFlow converts it.
    assert P.lower(claimed(binop("*", D2, F)), ctx("x", rendering)).rust == (
        f"::rxt_tf::tf!(x * {scalar})?"
    )
    assert P.lower(claimed(call("tensorflow.maximum", FVAR, D1)), ctx(rendering, "x")).rust == (
        f"::rxt_tf::tf!(maximum({scalar}, x))?"
    )


def test_a_float_expression_operand_is_rounded_to_float32_at_run_time() -> None:
    # `x * (1.0 / 255.0)`: Rextio renders the expression in f64; the scalar
    # rounds it to float32 once, as TensorFlow converts the Python float.
    site = claimed(binop("*", T2, FVAR))
    assert P.lower(site, ctx("x", "(1.0f64 / 255.0f64)")).rust == (
        "::rxt_tf::tf!(x * ::rxt_tf::ops::Scalar(((1.0f64 / 255.0f64) as f32)))?"
    )


def test_sizes_known_at_run_time_are_read_after_the_tensor_as_python_evaluates() -> None:
    site = call("tensorflow.reshape", T2, "tuple[int, int, int]")
    lowered = P.lower(claimed(site), ctx("::rxt_tf::tf!(relu(x))?", "(b, -1, 4)")).rust
    assert lowered == (
        "{ let __rxt_tf_operand_0 = (::rxt_tf::tf!(relu(x))?); "
        "let __rxt_tf_operand_1: (i64, i64, i64, ) = (b, -1, 4); "
        "::rxt_tf::tf!(reshape(__rxt_tf_operand_0, [__rxt_tf_operand_1.0, "
        "__rxt_tf_operand_1.1, __rxt_tf_operand_1.2]))? }"
    )
    # A named tensor is read where it is: nothing to evaluate first.
    plain = P.lower(claimed(site), ctx("x", "shape")).rust
    assert plain.startswith("{ let __rxt_tf_operand_1: (i64, i64, i64, ) = shape; ")
    assert "reshape(x, [" in plain


def test_get_shape_of_a_tensor_is_claimed_as_a_list_of_ints_and_lowered_to_its_shape() -> None:
    from rextio.plugins.api import ReceiverMeta

    receiver = ReceiverMeta(arg_type=T2, expr_kind="name", is_safe=True)
    site = replace(call("x.get_shape"), receiver=receiver)
    claim = P.claim(site, None)
    assert isinstance(claim, Claimed)
    assert (claim.rule_id, claim.result_type) == ("rxt-tf/get-shape-cpu", "list[int]")
    lowered = P.lower(
        replace(site, rule_id=claim.rule_id, result_type=claim.result_type),
        LoweringContext(operands=(), target_language="rust", fresh_name=str, receiver="x"),
    )
    assert lowered.rust == "((x).shape()?)"
    # Not of another receiver, nor with arguments.
    other = replace(
        site, receiver=ReceiverMeta(arg_type="list[int]", expr_kind="name", is_safe=True)
    )
    assert not isinstance(P.claim(other, None), Claimed)
    assert not isinstance(P.claim(replace(site, operand_types=("int",)), None), Claimed)
    assert not isinstance(P.claim(replace(site, target="x.numpy"), None), Claimed)
