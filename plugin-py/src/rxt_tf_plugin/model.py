"""The shape of the op table's rows (``spec.py``, generated from rxt-tf-spec)."""

from __future__ import annotations

from dataclasses import dataclass

Literal = bool | int | float | tuple[int, ...] | str
"""A literal value: of a keyword, or required by a signature (element types
are spelled ``tf.int64``)."""


@dataclass(frozen=True)
class SignatureRow:
    """Operand ranks an op accepts together, and the result they give."""

    operands: tuple[int, ...]
    """The operands' ranks, in order (0 for a float literal)."""
    result: int
    """The result's rank."""
    result_dtype: str
    """The result's element type (``float32``, ``int64``)."""
    when: tuple[tuple[str, tuple[Literal, ...]], ...]
    """Keyword values this signature requires (``keepdims`` must be ``True``)."""


@dataclass(frozen=True)
class KeywordRow:
    """A keyword an op accepts, with the literals it takes."""

    name: str
    """Its name, in Python and in ``tf!``."""
    kind: str
    """``bool``, ``int``, ``float``, ``ints`` (a tuple) or ``type``."""
    allowed: tuple[Literal, ...]
    """The values accepted; empty means any literal of ``kind``."""
    default: Literal | None
    """The value when omitted; ``None`` makes it required."""
    typed: bool
    """Whether signatures depend on its value."""

    @property
    def required(self) -> bool:
        """Whether it must be given."""
        return self.default is None

    def accepts(self, value: object) -> bool:
        """Whether ``value`` (a Python literal) is accepted."""
        kinds: dict[str, type] = {"bool": bool, "int": int, "float": float, "ints": tuple}
        if self.kind not in kinds:
            # An element type (`tf.int64`) is never a literal Rextio reports.
            return False
        # bool is an int in Python: compare types exactly so `axis=True` is refused.
        if type(value) is not kinds[self.kind]:
            return False
        return not self.allowed or value in self.allowed

    def rust(self, value: Literal) -> str:
        """``name = value`` as ``tf!`` spells it."""
        if isinstance(value, bool):
            text = str(value).lower()
        elif isinstance(value, tuple):
            text = "[" + ", ".join(str(item) for item in value) + "]"
        else:
            text = repr(value)
        return f"{self.name} = {text}"

    def python(self, value: Literal) -> str:
        """``name=value`` as Python spells it."""
        return f"{self.name}={value!r}"

    def allowed_text(self) -> str:
        """The accepted values for messages (``1``, ``0, 1 or -1``, ``a float literal``)."""
        if not self.allowed:
            return f"a {self.kind} literal"
        values = [repr(value) for value in self.allowed]
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
    """Rextio's site kind: ``call`` or ``binop``."""
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
    summary: str
    """What it computes."""
    signatures: tuple[SignatureRow, ...]
    """Accepted operand ranks, with results."""
    keywords: tuple[KeywordRow, ...]
    """Its keywords, in order."""
    rules: tuple[RuleRow, ...]
    """The Python forms lowered to it."""
