"""The plugin's view of the op table: one :class:`Op` per rule record.

The rows come from ``spec.py``, generated from the crates' op table
(``rxt-tf-spec``) by ``cargo run -p xtask -- codegen``; the claims, the
lowering and the rule records all read them. Adding an op is a row there.
"""

from __future__ import annotations

from dataclasses import dataclass

from rxt_tf_plugin import spec
from rxt_tf_plugin.model import KeywordRow, Literal, OpRow, RuleRow, SignatureRow

PLUGIN_ID = "rxt-tf"
"""The plugin id Rextio registers (``[plugins] enabled = ["rxt-tf"]``)."""

CRATE = "rxt_tf"
"""The Rust path of the facade crate in generated code."""

CRATE_NAME = "rxt-tf"
"""The facade crate's package name (the plugin's crate dependency)."""


@dataclass(frozen=True)
class TensorType:
    """A plugin tensor type: its key, annotation marker, rank and element type."""

    key: str
    marker: str
    rank: int
    dtype: str = "float32"

    @property
    def annotation(self) -> str:
        """The dotted annotation spelling Rextio resolves to this type."""
        return f"rxt_tf_plugin.types.{self.marker}"

    @property
    def rust_type(self) -> str:
        """The runtime's tensor type, through the facade."""
        return f"::{CRATE}::{self.marker}"


TENSOR_TYPES: tuple[TensorType, ...] = tuple(
    TensorType(f"{PLUGIN_ID}/tensor-{short}-cpu-{rank}d", marker, rank, dtype)
    for marker, short, dtype, rank in spec.TENSOR_KINDS
)
"""Every plugin tensor type, from the op table."""

_BY_KEY = {tensor.key: tensor for tensor in TENSOR_TYPES}
_BY_KIND = {(tensor.rank, tensor.dtype): tensor for tensor in TENSOR_TYPES}


def tensor_type(key: str | None) -> TensorType | None:
    """The plugin tensor type with this key, or ``None`` for any other type."""
    return None if key is None else _BY_KEY.get(key)


def tensor_of(rank: int, dtype: str = "float32") -> TensorType:
    """The plugin tensor type of this rank and element type."""
    return _BY_KIND[(rank, dtype)]


@dataclass(frozen=True)
class Op:
    """One rule: the sites it claims and the ``tf!`` op they lower to."""

    row: OpRow
    """The op's row."""
    rule: RuleRow
    """The rule's row."""

    @property
    def macro_name(self) -> str:
        """The op's name inside ``tf!``."""
        return self.row.name

    @property
    def kind(self) -> str:
        """Rextio's site kind: ``call`` or ``binop``."""
        return self.rule.kind

    @property
    def targets(self) -> tuple[str, ...]:
        """Dotted call targets (aliases resolved), or the operator token."""
        return self.rule.targets

    @property
    def keywords(self) -> tuple[KeywordRow, ...]:
        """Keywords accepted (calls only; an operator takes none)."""
        return self.row.keywords if self.kind == "call" else ()

    @property
    def rule_id(self) -> str:
        """The rule record id; also ``Claimed.rule_id``."""
        return self.rule.rule_id

    @property
    def code(self) -> str:
        """The diagnostic code of a rejection."""
        return self.rule.code

    @property
    def constraint(self) -> str:
        """What the rule requires, for the rule record."""
        return self.rule.constraint

    @property
    def arity(self) -> int:
        """Number of positional tensor operands."""
        return len(self.row.signatures[0].operands)

    @property
    def spelling(self) -> str:
        """How messages show the form: ``tf.matmul`` or ``a + b``."""
        if self.kind == "binop":
            return f"a {self.targets[0]} b"
        return self.targets[0].replace("tensorflow.", "tf.", 1)

    def result(self, ranks: tuple[int, ...], keywords: dict[str, Literal]) -> SignatureRow | None:
        """The signature for these operand ranks and keyword values, if any.

        A float literal has rank 0; omitted keywords take their defaults.
        """
        values = {k.name: k.default for k in self.keywords}
        values.update(keywords)
        for signature in self.row.signatures:
            if signature.operands == ranks and all(
                values.get(name) in allowed for name, allowed in signature.when
            ):
                return signature
        return None

    def accepts_ranks(self, ranks: tuple[int, ...]) -> bool:
        """Whether some signature takes these operand ranks."""
        return any(signature.operands == ranks for signature in self.row.signatures)

    def scalar_positions(self) -> frozenset[int]:
        """Operand positions where some signature takes a float literal."""
        return frozenset(
            index
            for signature in self.row.signatures
            for index, rank in enumerate(signature.operands)
            if rank == 0
        )

    def rank_text(self) -> str:
        """Accepted operand ranks, e.g. ``rank-2 × rank-2``."""
        forms: list[str] = []
        for signature in self.row.signatures:
            form = " × ".join(
                f"rank-{rank}" if rank else "a float literal" for rank in signature.operands
            )
            if form not in forms:
                forms.append(form)
        return " or ".join(forms)


OPS: tuple[Op, ...] = tuple(Op(row, rule) for row in spec.OPS for rule in row.rules)
"""Every supported form, in table order."""

FALLBACKS = {fallback.kind: fallback for fallback in spec.FALLBACKS}
"""The rules for covered sites whose operands are not plugin tensors, by site kind."""


def op_for(kind: str, target: str) -> Op | None:
    """The op claiming sites of this kind and target, if any."""
    for op in OPS:
        if op.kind == kind and target in op.targets:
            return op
    return None


def covered_symbols() -> tuple[str, ...]:
    """Every dotted call target of the table, in table order."""
    return tuple(target for op in OPS if op.kind == "call" for target in op.targets)


def covered_modules() -> tuple[str, ...]:
    """The modules holding the covered symbols, in first-seen order."""
    modules: dict[str, None] = {}
    for symbol in covered_symbols():
        modules.setdefault(symbol.rpartition(".")[0], None)
    return tuple(modules)
