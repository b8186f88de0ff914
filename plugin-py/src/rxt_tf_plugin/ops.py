"""The plugin's view of the op table: one :class:`Op` per rule record.

The rows come from ``spec.py``, generated from the crates' op table
(``rxt-tf-spec``) by ``cargo run -p xtask -- codegen``; the claims, the
lowering and the rule records all read them. Adding an op is a row there.
"""

from __future__ import annotations

from dataclasses import dataclass

from rxt_tf_plugin import spec
from rxt_tf_plugin.model import KeywordRow, OpRow, RuleRow
from rxt_tf_plugin.shapes import RULES, RuleFunction

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
    """``rxt-tf/tensor-<element>-cpu-<rank>d`` (``rxt-tf/tensor-i32-cpu-2d``)."""
    marker: str
    """The marker class in :mod:`rxt_tf_plugin.types` and the runtime's type name."""
    rank: int
    """Its rank."""
    dtype: str
    """Its element type, by TensorFlow's name (``float32``, ``int32``, …)."""

    def describe(self) -> str:
        """How messages name it: ``float32 rank-2``."""
        return f"{self.dtype} rank-{self.rank}"

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


def tensor_of(rank: int, dtype: str) -> TensorType:
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
        """Rextio's site kind: ``call``, ``binop`` or ``compare``."""
        return self.rule.kind

    @property
    def targets(self) -> tuple[str, ...]:
        """Dotted call targets (aliases resolved), or the operator token."""
        return self.rule.targets

    @property
    def is_operator(self) -> bool:
        """Whether the form is an operator (``a + b``, ``a > b``) rather than a call."""
        return self.kind in ("binop", "compare")

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
        """Number of positional operands."""
        return len(self.row.ranks)

    @property
    def spelling(self) -> str:
        """How messages show the form: ``tf.matmul`` or ``a + b``."""
        if self.is_operator:
            return f"a {self.targets[0]} b"
        return self.targets[0].replace("tensorflow.", "tf.", 1)

    @property
    def typing(self) -> RuleFunction:
        """The function of the op's rule (:mod:`rxt_tf_plugin.shapes`)."""
        return RULES[self.row.rule]


OPS: tuple[Op, ...] = tuple(Op(row, rule) for row in spec.OPS for rule in row.rules)
"""Every supported form, in table order."""

FALLBACKS = {fallback.kind: fallback for fallback in spec.FALLBACKS}
"""The rules for covered sites whose operands are not plugin tensors, by site kind."""


def op_for(kind: str, target: str) -> Op | None:
    """The first op claiming sites of this kind and target, if any."""
    found = ops_for(kind, target)
    return found[0] if found else None


def _by_site() -> dict[tuple[str, str], tuple[Op, ...]]:
    """The ops of each site kind and target, in table order."""
    found: dict[tuple[str, str], list[Op]] = {}
    for op in OPS:
        for target in dict.fromkeys(op.targets):
            found.setdefault((op.kind, target), []).append(op)
    return {site: tuple(ops) for site, ops in found.items()}


_BY_SITE = _by_site()
"""Every site's ops, looked up once per claim (Rextio asks for each site)."""


def ops_for(kind: str, target: str) -> tuple[Op, ...]:
    """The ops claiming sites of this kind and target, in table order.

    Several for one target where the operand's rank picks the op
    (``tf.nn.convolution``: ``conv2d`` at rank 4, ``conv1d`` at rank 3).
    """
    return _BY_SITE.get((kind, target), ())


def covered_symbols() -> tuple[str, ...]:
    """Every dotted call target of the table, in table order."""
    targets = (target for op in OPS if op.kind == "call" for target in op.targets)
    return tuple(dict.fromkeys(targets))


def covered_modules() -> tuple[str, ...]:
    """The modules holding the covered symbols, in first-seen order."""
    modules: dict[str, None] = {}
    for symbol in covered_symbols():
        modules.setdefault(symbol.rpartition(".")[0], None)
    return tuple(modules)
