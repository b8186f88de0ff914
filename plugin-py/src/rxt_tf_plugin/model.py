"""The shape of the op table's rows (``spec.py``, generated from rxt-tf-spec)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

Literal = bool | int | float | tuple[int, ...] | str
"""A literal value of a keyword (element types are spelled ``tf.int64``)."""

_KIND_TEXT = {
    "bool": "a bool literal",
    "int": "an int literal",
    "float": "a float literal",
    "ints": "a tuple of int literals",
    "axes": "an int literal or a tuple of distinct int literals",
    "count": "a non-negative int literal",
    "str": "a string literal",
    "number": "an int or float literal",
    "spatial": "a positive int literal or a tuple of one or two",
    "volume": "a positive int literal or a tuple of one or three",
    "equation": "an einsum equation string",
    "contraction": "a non-negative int literal or a pair of int literals ((2, 0))",
    "type": "an element type",
}
"""How messages name each kind of keyword value, as Python spells it."""


def _is_bool(value: object) -> bool:
    return type(value) is bool


def _is_float(value: object) -> bool:
    return type(value) is float


_INT32 = range(-(2**31), 2**31)
"""The values of an int keyword: TensorFlow converts a Python int beyond int32 to
int64, where rxt-tf's keywords are int32 (such a call stays on Python)."""


def _is_int(value: object) -> bool:
    # bool is an int in Python: compare types exactly so `axis=True` is refused.
    return type(value) is int and value in _INT32


def _is_ints(value: object) -> bool:
    return type(value) is tuple and all(_is_int(item) for item in value)


def _is_axes(value: object) -> bool:
    return _is_int(value) or _is_ints(value)


def _is_count(value: object) -> bool:
    return _is_int(value) and isinstance(value, int) and value >= 0


def _is_contraction(value: object) -> bool:
    """``tf.tensordot``'s ``axes`` as Rextio reports them: a count or a pair of ints.

    A pair is one axis of each operand; Rextio reports no nested tuple.
    """
    return _is_count(value) or (_is_ints(value) and isinstance(value, tuple) and len(value) == 2)


_KIND_CHECKS: dict[str, Callable[[object], bool]] = {
    "bool": _is_bool,
    "int": _is_int,
    "float": _is_float,
    "ints": _is_ints,
    "axes": _is_axes,
    "count": _is_count,
    "str": lambda value: type(value) is str,
    "number": lambda value: type(value) in (int, float),
    "equation": lambda value: type(value) is str,
    "contraction": _is_contraction,
    "spatial": lambda value: (
        (_is_int(value) and isinstance(value, int) and value >= 1)
        or (
            _is_ints(value)
            and isinstance(value, tuple)
            and 1 <= len(value) <= 2
            and all(item >= 1 for item in value)
        )
    ),
    "volume": lambda value: (
        (_is_int(value) and isinstance(value, int) and value >= 1)
        or (
            _is_ints(value)
            and isinstance(value, tuple)
            and len(value) in (1, 3)
            and all(item >= 1 for item in value)
        )
    ),
}
"""Whether a Python value is of each keyword kind (an element type is checked
by name: Rextio reports no ``tf.int64`` literal, only the string ``"int64"``)."""


@dataclass(frozen=True)
class KeywordRow:
    """A keyword an op accepts, with the literals it takes."""

    name: str
    """Its name, in Python and in ``tf!``."""
    kind: str
    """``bool``, ``int``, ``float``, ``ints`` (a tuple), ``axes`` (an int or a tuple of
    distinct ints) or ``type``."""
    allowed: tuple[Literal, ...]
    """The values accepted; empty means any literal of ``kind``."""
    default: Literal | None
    """The value when omitted; ``None`` makes it required."""
    typed: bool
    """Whether the result's type depends on its value (``keepdims``, ``axis``)."""

    @property
    def required(self) -> bool:
        """Whether it must be given."""
        return self.default is None

    def accepts(self, value: object) -> bool:
        """Whether ``value`` (a Python literal) is of the kind and among the allowed values."""
        if self.kind == "type":
            # Rextio reports no `tf.int32` literal; TensorFlow also takes the
            # dtype's name as a string (`output_type="int32"`).
            return type(value) is str and f"tf.{value}" in self.allowed
        check = _KIND_CHECKS.get(self.kind)
        if check is None or not check(value):
            return False
        return not self.allowed or value in self.allowed

    def rust(self, value: Literal) -> str:
        """``name = value`` as ``tf!`` spells it.

        A tuple as a list (``[0, 2]``), a string in double quotes
        (``"DESCENDING"``: one of the keyword's allowed values, which hold no
        quote or backslash).
        """
        if isinstance(value, bool):
            text = str(value).lower()
        elif isinstance(value, tuple):
            text = "[" + ", ".join(str(item) for item in value) + "]"
        elif isinstance(value, str):
            text = f'"{value}"'
        else:
            text = repr(value)
        return f"{self.name} = {text}"

    def python(self, value: Literal) -> str:
        """``name=value`` as Python spells it."""
        return f"{self.name}={value!r}"

    def allowed_text(self) -> str:
        """The accepted values for messages (``False or True``, ``a float literal``)."""
        if not self.allowed:
            return _KIND_TEXT[self.kind]
        values = [
            repr(str(value).removeprefix("tf.") if self.kind == "type" else value)
            for value in self.allowed
        ]
        return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]


@dataclass(frozen=True)
class PythonKeywordRow:
    """A keyword only the Python form passes: accepted with these values, dropped."""

    name: str
    """The keyword."""
    values: tuple[Literal, ...]
    """The accepted literal values."""


@dataclass(frozen=True)
class RuleRow:
    """One rule record of the plugin: which Python sites lower to the op."""

    kind: str
    """Rextio's site kind: ``call``, ``binop`` or ``compare``."""
    targets: tuple[str, ...]
    """Dotted call targets (canonical first), or the operator token."""
    rule_id: str
    """The rule record id; also ``Claimed.rule_id``."""
    code: str
    """The diagnostic code of a rejection."""
    constraint: str
    """What the rule requires, in words."""
    positional: tuple[str, ...]
    """Keywords also accepted positionally after the operands, in order."""
    python_only: tuple[PythonKeywordRow, ...]
    """Keywords only Python passes (dropped when lowering)."""
    macro_only: tuple[str, ...] = ()
    """Keywords of the op that only ``tf!`` takes (Python's function has none)."""
    leading_literal_keeps_its_type: bool = False
    """Whether a literal first operand keeps Python's type (int32, float32)
    instead of taking the tensor's, as ``tf.add(2, x)`` does."""
    renamed: tuple[tuple[str, str], ...] = ()
    """Keywords Python names otherwise than the row, ``(python, row)``."""
    matching_dtype: str | None = None
    """A keyword Python may pass naming the call's own element type (dropped)."""
    other_dtype_casts: bool = False
    """Whether that keyword may name another type, lowered as a cast of the result."""
    needs_literal: bool = False
    """Whether one operand must be a number literal (``a == 0``: a tensor against a
    tensor gives a scalar where the shapes do not broadcast)."""
    scalar_shape: bool = False
    """Whether the Python form leaves out the first operand, a shape, making a
    scalar (``tf.constant(2.0)`` is ``fill((), 2.0)``)."""
    omitted_axis_is_every_axis: bool = False
    """Whether leaving out ``axis`` reduces every axis (``tf.reduce_sum(x)``)."""


@dataclass(frozen=True)
class FallbackRow:
    """The rule for covered sites of one kind whose operands are not rxt-tf tensors."""

    kind: str
    """``call`` or ``binop``."""
    rule_id: str
    """The rule record id."""
    code: str
    """Its diagnostic code."""


@dataclass(frozen=True)
class OpRow:
    """One op of the table."""

    name: str
    """Its name in ``tf!``."""
    operator: str | None
    """The binary operator ``tf!`` also accepts for it."""
    tf_op: str
    """The TensorFlow op it runs."""
    batched_tf_op: str | None
    """The kernel it runs above rank 2 (``BatchMatMulV2``), if another."""
    summary: str
    """What it computes."""
    rule: str
    """How it types operands and result: ``same-rank``, ``broadcast``, ``matmul``,
    ``bias-add``, ``reduce``, ``along-axis``, ``select``, … (``shapes.RULES``)."""
    ranks: tuple[tuple[int, int], ...]
    """The ranks accepted (lowest, highest) at each operand position; one per operand."""
    roles: tuple[str, ...]
    """What each operand position holds: ``element`` (the call's element type, or
    a literal where the op takes them), ``condition`` (a bool tensor), ``dims`` (a
    literal tuple of integers) or ``indices`` (an int32 or int64 tensor)."""
    literals: tuple[bool, ...]
    """Per operand position, whether a number literal (or run-time scalar) may stand
    for it (it takes the tensors' type): not for the tensor ``clip_by_value`` clips."""
    dtypes: tuple[str, ...]
    """The element types it takes (``float32``, ``int32``, ``int64``, ``bool``)."""
    promoted: Mapping[str, str]
    """Operand element types the op casts first, to the type of its result
    (``{"int32": "float64"}`` for ``div``, as ``tf.divide``)."""
    operands_text: str
    """The accepted operands in words, as the macros' messages put them."""
    keywords: tuple[KeywordRow, ...]
    """Its keywords, in order."""
    rules: tuple[RuleRow, ...]
    """The Python forms lowered to it."""

    def keyword(self, name: str) -> KeywordRow | None:
        """The keyword named ``name``."""
        return next((keyword for keyword in self.keywords if keyword.name == name), None)
