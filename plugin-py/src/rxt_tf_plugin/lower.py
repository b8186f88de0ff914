"""Lowering: one claimed site becomes one ``::rxt_tf::tf!(...)?`` expression.

The site is decided again (:func:`rxt_tf_plugin.claim.decide`) and must match
the claim Rextio recorded; anything else raises ``ValueError``, so a stale or
forged claim never reaches the generated code.
"""

from __future__ import annotations

import re
from typing import Any

from rxt_tf_plugin import spec
from rxt_tf_plugin.claim import Verdict, decide
from rxt_tf_plugin.ops import CRATE, Op

_RUST_TYPES = {dtype: short for _, short, dtype, _ in spec.TENSOR_KINDS}
"""The Rust element type of each TensorFlow dtype name (``int32`` → ``i32``)."""


def lower_rust(site: Any, operands: tuple[str, ...], receiver: str | None = None) -> str:
    """The Rust expression for a claimed site with rendered ``operands``."""
    verdict = revalidate(site)
    op = verdict.op
    if op is None:  # pragma: no cover - revalidate() returns claimed verdicts only
        raise ValueError("rxt-tf: internal error: a claimed verdict without an op")
    if receiver is not None:
        raise ValueError(
            f"rxt-tf: cannot lower `{site.target}` with a receiver ({receiver}); "
            "only function-style calls are claimed"
        )
    expected = len(tuple(site.operand_types))
    if op.rule.scalar_shape and len(operands) == expected:
        operands = ("()", *operands)  # the shape the Python form leaves out
        expected += 1
    if len(operands) != expected:
        raise ValueError(
            f"rxt-tf: `{site.target}` was claimed with {expected} operand(s) but lowering "
            f"received {len(operands)}: {operands!r}"
        )
    for operand in operands:
        if not operand.strip():
            raise ValueError(f"rxt-tf: `{site.target}` received an empty operand")
    if op.row.rule == "sequence":
        return f"::{CRATE}::tf!({op.macro_name}({', '.join(_sequence(verdict, operands))}))?"
    # Positional keywords (`tf.reduce_sum(x, 0)`) come from the verdict, read
    # from the site's literals; their rendered text is not used.
    rendered = tuple(
        _rendered(verdict, index, operand) for index, operand in enumerate(operands[: op.arity])
    )
    lowered = f"::{CRATE}::tf!({_invocation(op, rendered, verdict, operands)})?"
    if verdict.runtime_lists:
        lowered = _with_runtime_lists(verdict, operands, rendered, op)
    if verdict.cast_to is not None:
        # `tf.zeros_like(x, dtype=...)` naming another type: the op's result
        # cast to it (zeros and ones convert exactly between all types).
        lowered = f"::{CRATE}::tf!(cast({lowered}, dtype = {_RUST_TYPES[verdict.cast_to]}))?"
    return lowered


def revalidate(site: Any) -> Verdict:
    """Decide the site again; it must be claimed under the rule it carries."""
    verdict = decide(site)
    if verdict.outcome != "claimed" or verdict.op is None or verdict.result is None:
        reason = verdict.message or "the site is not one rxt-tf covers"
        raise ValueError(f"rxt-tf: lowering a site that rxt-tf does not claim: {reason}")
    rule_id = getattr(site, "rule_id", None)
    if rule_id is not None and rule_id != verdict.op.rule_id:
        raise ValueError(
            f"rxt-tf: site `{site.target}` carries rule {rule_id!r} but matches "
            f"{verdict.op.rule_id!r}"
        )
    result_type = getattr(site, "result_type", None)
    if result_type is not None and result_type != verdict.result.key:
        raise ValueError(
            f"rxt-tf: site `{site.target}` carries result type {result_type!r} but "
            f"produces {verdict.result.key!r}"
        )
    return verdict


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FLOAT = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][+-]?\d+)?")


_FLOAT_TYPES = {
    "float32": "f32",
    "float64": "f64",
    "bfloat16": f"::{CRATE}::bf16",
    "float16": f"::{CRATE}::f16",
}
"""The Rust type of each float element type a float operand takes."""

_F32_OVERFLOW = 3.4028235677973366e38
"""The least magnitude a float rounds to an infinite float32 from (the
largest float32 plus half its last place)."""


def _scalar(rendered: str, element: str) -> str:
    """A float operand beside ``element`` tensors, as ``tf!`` takes it.

    Rextio renders a float literal with Python's ``repr`` (``0.5``,
    ``1e+20``, ``(-3.0)``, ``inf``): a literal stays a literal (``tf!``
    converts it to the tensor's type); any other float expression
    (``scale``, ``1.0 / (d as f64).sqrt()``) becomes a run-time ``Scalar`` of
    the element type, rounded from the Python float as TensorFlow converts
    it (to the nearest float32, infinite beyond its range; the half types
    through it, by ``Scalar::from_f64``).
    """
    rust = _FLOAT_TYPES.get(element)
    if rust is None:
        raise ValueError(f"rxt-tf: a float operand beside {element} tensors was claimed")
    text = rendered.strip()
    while text.startswith("(") and text.endswith(")") and _enclosed(text):
        text = text[1:-1].strip()
    if _FLOAT.fullmatch(text):
        if rust == "f64" or abs(float(text)) < _F32_OVERFLOW:
            return f"({text})" if text.startswith("-") else text
        # Eager TensorFlow converts it to an infinite float32.
        text = "-inf" if text.startswith("-") else "inf"
    path = rust if rust.startswith("::") else f"::core::{rust}"
    non_finite = {
        "inf": f"{path}::INFINITY",
        "-inf": f"{path}::NEG_INFINITY",
        "nan": f"{path}::NAN",
    }
    if text in non_finite:
        return f"::{CRATE}::ops::Scalar({non_finite[text]})"
    if rust.startswith("::"):
        return f"::{CRATE}::ops::Scalar::<{rust}>::from_f64({text})"
    return f"::{CRATE}::ops::Scalar((({text}) as {rust}))"


def _filled_float(rendered: str, op: str) -> str:
    """A lone Python float ``tf.fill`` or ``tf.constant`` makes a float32 of.

    A literal float32 holds stays a literal; anything else is converted when
    the op runs, raising ``ValueError`` where a finite value is beyond
    float32's range, as TensorFlow's conversion does there (a float operand
    beside a tensor becomes an infinity instead, see :func:`_scalar`).
    """
    text = rendered.strip()
    while text.startswith("(") and text.endswith(")") and _enclosed(text):
        text = text[1:-1].strip()
    if _FLOAT.fullmatch(text) and abs(float(text)) < _F32_OVERFLOW:
        return f"({text})" if text.startswith("-") else text
    text = _NON_FINITE.get(text, text)
    return f'(::{CRATE}::ops::Scalar::<f32>::from_python_float("{op}", {text})?)'


_NON_FINITE = {
    "inf": "::core::f64::INFINITY",
    "-inf": "::core::f64::NEG_INFINITY",
    "nan": "::core::f64::NAN",
}
"""Python's spellings of the floats Rust writes as constants."""


def _rendered(verdict: Verdict, index: int, operand: str) -> str:
    """Operand ``index`` as ``tf!`` takes it: a float, an int literal, a list or a tensor."""
    if index in verdict.scalars and verdict.op is not None and verdict.op.row.rule == "fill":
        return _filled_float(operand, verdict.op.row.name)
    if index in verdict.scalars:
        return _scalar(operand, verdict.element)
    if index in verdict.ints:
        return _int(verdict.ints[index])
    if index in verdict.lists:
        return f"[{', '.join(str(value) for value in verdict.lists[index])}]"
    return _operand(operand)


def _with_runtime_lists(
    verdict: Verdict, operands: tuple[str, ...], rendered: tuple[str, ...], op: Op
) -> str:
    """The invocation in a block binding each operand in Python's order.

    A tuple of ints known at run time (Rextio renders ``(i64, …)``) becomes
    the list ``tf!`` takes, ``[d.0, d.1, …]``; the operands before it are
    bound first, so they are evaluated (and fail) in the order Python
    evaluates the call's arguments.
    """
    lets: list[str] = []
    given: list[str] = []
    last = max(verdict.runtime_lists)
    for index, operand in enumerate(operands[: op.arity]):
        name = f"__rxt_tf_operand_{index}"
        count = verdict.runtime_lists.get(index)
        if count is not None:
            lets.append(f"let {name}: ({'i64, ' * count}) = {operand};")
            given.append(f"[{', '.join(f'{name}.{i}' for i in range(count))}]")
        elif (
            index > last
            or _IDENTIFIER.fullmatch(rendered[index])
            or index in verdict.ints
            or index in verdict.scalars
        ):
            given.append(rendered[index])
        else:
            lets.append(f"let {name} = {rendered[index]};")
            given.append(name)
    invocation = _invocation(op, tuple(given), verdict, operands)
    return f"{{ {' '.join(lets)} ::{CRATE}::tf!({invocation})? }}"


def _sequence(verdict: Verdict, operands: tuple[str, ...]) -> list[str]:
    """``tf.range``'s start, limit and delta: ints given, ``0`` and ``1`` where left out.

    A run-time int is an int32 ``Scalar``, checked: beyond int32's range it
    raises ``ValueError`` (TensorFlow would make an int64 range).
    """
    given = [
        _int(verdict.ints[index])
        if index in verdict.ints
        else f'(::{CRATE}::ops::Scalar::<i32>::from_python_int("range", {operand.strip()})?)'
        for index, operand in enumerate(operands)
    ]
    if len(given) == 1:
        return ["0", given[0], "1"]
    return given if len(given) == 3 else [*given, "1"]


def _int(value: int) -> str:
    """An int literal operand as ``tf!`` takes it: ``2``, ``(-2)``.

    Written from the value the claim read, not from Rextio's rendering (which
    spells a negative literal as a checked negation call).
    """
    return f"({value})" if value < 0 else str(value)


def _operand(rendered: str) -> str:
    """`rendered` as one operand: a bare name as is, anything else in parentheses.

    An operand one pair of parentheses already encloses whole (as Rextio
    renders nested calls) is not wrapped again.
    """
    text = rendered.strip()
    if _IDENTIFIER.fullmatch(text) or _enclosed(text):
        return text
    return f"({text})"


def _enclosed(text: str) -> bool:
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and index < len(text) - 1:
            return False  # the first `(` closes before the end: `(a) + (b)`
    return depth == 0


def _invocation(
    op: Op, operands: tuple[str, ...], verdict: Verdict, given: tuple[str, ...] = ()
) -> str:
    """The ``tf!`` invocation: ``operands`` as ``tf!`` takes them, then the keywords.

    A keyword known at run time is the Rust of its value in ``given``.
    """
    if op.kind == "binop" and op.row.operator == op.targets[0]:
        left, right = operands
        return f"{left} {op.row.operator} {right}"
    keywords = [
        f"{k.name} = {_operand(given[verdict.runtime_keywords[k.name]])}"
        if k.name in verdict.runtime_keywords
        else f"{k.name} = {_RUST_TYPES[str(verdict.keywords[k.name]).removeprefix('tf.')]}"
        if k.kind == "type"
        else k.rust(verdict.keywords[k.name])
        for k in op.keywords
        if k.name in verdict.keywords
    ]
    return f"{op.macro_name}({', '.join([*operands, *keywords])})"
