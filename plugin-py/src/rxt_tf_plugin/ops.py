"""The op table: the one source the claims, the lowering and the rule records read.

Each :class:`Op` row is one rule of the seed's table of supported forms. The
``tf!`` op names, operand counts and keywords here are those of the crates'
op table (``rxt-tf-runtime/src/ops/table.rs``, which the macros include); a
test keeps the two in step. Adding an op means a row there, its helper in the
runtime, and a row here.
"""

from __future__ import annotations

from dataclasses import dataclass

PLUGIN_ID = "rxt-tf"
"""The plugin id Rextio registers (``[plugins] enabled = ["rxt-tf"]``)."""

CRATE = "rxt_tf"
"""The Rust path of the facade crate in generated code."""

CRATE_NAME = "rxt-tf"
"""The facade crate's package name (the plugin's crate dependency)."""


@dataclass(frozen=True)
class TensorType:
    """A plugin tensor type: its key, annotation marker, Rust type and rank."""

    key: str
    marker: str
    rank: int

    @property
    def annotation(self) -> str:
        """The dotted annotation spelling Rextio resolves to this type."""
        return f"rxt_tf_plugin.types.{self.marker}"

    @property
    def rust_type(self) -> str:
        """The runtime's tensor type, through the facade."""
        return f"::{CRATE}::{self.marker}"


TENSOR_2D = TensorType(f"{PLUGIN_ID}/tensor-f32-cpu-2d", "TensorF32Cpu2D", 2)
TENSOR_1D = TensorType(f"{PLUGIN_ID}/tensor-f32-cpu-1d", "TensorF32Cpu1D", 1)
TENSOR_TYPES: tuple[TensorType, ...] = (TENSOR_2D, TENSOR_1D)
"""Every plugin tensor type."""

_BY_KEY = {tensor.key: tensor for tensor in TENSOR_TYPES}
_BY_RANK = {tensor.rank: tensor for tensor in TENSOR_TYPES}


def tensor_type(key: str | None) -> TensorType | None:
    """The plugin tensor type with this key, or ``None`` for any other type."""
    return None if key is None else _BY_KEY.get(key)


def tensor_of_rank(rank: int) -> TensorType:
    """The plugin tensor type of this rank (1 or 2)."""
    return _BY_RANK[rank]


@dataclass(frozen=True)
class Keyword:
    """A keyword an op accepts: only this literal value, required or optional."""

    name: str
    value: int | bool
    required: bool

    def rust(self) -> str:
        """The keyword as ``tf!`` spells it, e.g. ``axis = 1``."""
        value = str(self.value).lower() if isinstance(self.value, bool) else str(self.value)
        return f"{self.name} = {value}"


@dataclass(frozen=True)
class Op:
    """One supported form: which sites it claims and the ``tf!`` op it lowers to."""

    macro_name: str
    """The op's name inside ``tf!``."""
    kind: str
    """Rextio's site kind: ``call`` or ``binop``."""
    targets: tuple[str, ...]
    """Dotted call targets (aliases resolved), or the operator token."""
    signatures: tuple[tuple[tuple[int, ...], int], ...]
    """Accepted operand ranks, each with the result rank."""
    keywords: tuple[Keyword, ...]
    """Keywords accepted (calls only)."""
    rule_id: str
    """The rule record id; also ``Claimed.rule_id``."""
    code: str
    """The diagnostic code of a rejection."""
    constraint: str
    """What the rule requires, for the rule record and messages."""

    @property
    def arity(self) -> int:
        """Number of positional tensor operands."""
        return len(self.signatures[0][0])

    def result_rank(self, ranks: tuple[int, ...]) -> int | None:
        """The result rank for these operand ranks, or ``None`` if not accepted."""
        for operand_ranks, result in self.signatures:
            if operand_ranks == ranks:
                return result
        return None

    def rank_text(self) -> str:
        """Accepted operand ranks, e.g. ``rank-2 × rank-2``."""
        return " or ".join(
            " × ".join(f"rank-{rank}" for rank in ranks) for ranks, _ in self.signatures
        )


def _code(number: int) -> str:
    return f"RXTP-RXTTF-{number:03d}"


_ADD_PAIRS = (((2, 2), 2), ((1, 1), 1), ((2, 1), 2), ((1, 2), 2))
_AXIS_1 = (Keyword("axis", 1, required=True), Keyword("keepdims", False, required=False))

OPS: tuple[Op, ...] = (
    Op(
        macro_name="matmul",
        kind="call",
        targets=("tensorflow.matmul", "tensorflow.linalg.matmul"),
        signatures=(((2, 2), 2),),
        keywords=(),
        rule_id=f"{PLUGIN_ID}/matmul-f32-cpu-2d",
        code=_code(1),
        constraint="two rank-2 float32 CPU tensors, positional, no keywords",
    ),
    Op(
        macro_name="relu",
        kind="call",
        targets=("tensorflow.nn.relu",),
        signatures=(((2,), 2),),
        keywords=(),
        rule_id=f"{PLUGIN_ID}/relu-f32-cpu-2d",
        code=_code(2),
        constraint="one rank-2 float32 CPU tensor, positional, no keywords",
    ),
    Op(
        macro_name="add",
        kind="call",
        targets=("tensorflow.add", "tensorflow.math.add"),
        signatures=_ADD_PAIRS,
        keywords=(),
        rule_id=f"{PLUGIN_ID}/add-call-f32-cpu",
        code=_code(3),
        constraint="two float32 CPU tensors of ranks 2+2, 1+1, 2+1 or 1+2, no keywords",
    ),
    Op(
        macro_name="reduce_mean",
        kind="call",
        targets=("tensorflow.reduce_mean", "tensorflow.math.reduce_mean"),
        signatures=(((2,), 1),),
        keywords=_AXIS_1,
        rule_id=f"{PLUGIN_ID}/reduce-mean-axis1-f32-cpu-2d",
        code=_code(4),
        constraint="one rank-2 float32 CPU tensor with the literal keyword axis=1 "
        "(keepdims=False or omitted)",
    ),
    Op(
        macro_name="sigmoid",
        kind="call",
        targets=("tensorflow.nn.sigmoid",),
        signatures=(((2,), 2),),
        keywords=(),
        rule_id=f"{PLUGIN_ID}/sigmoid-f32-cpu-2d",
        code=_code(5),
        constraint="one rank-2 float32 CPU tensor, positional, no keywords",
    ),
    Op(
        macro_name="add",
        kind="binop",
        targets=("+",),
        signatures=_ADD_PAIRS,
        keywords=(),
        rule_id=f"{PLUGIN_ID}/add-binop-f32-cpu",
        code=_code(6),
        constraint="`a + b` of float32 CPU tensors of ranks 2+2, 1+1, 2+1 or 1+2",
    ),
)
"""Every supported form, in rule order."""

FALLBACK_RULE_ID = f"{PLUGIN_ID}/unsupported-tensor-surface"
"""The rule for covered sites whose operands are not plugin tensors."""
FALLBACK_CODE = _code(10)
"""Its diagnostic code."""


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
