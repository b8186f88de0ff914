"""Claim decisions: a pure function of a Rextio claim site and the op table.

:func:`decide` reads only the site's kind, target, receiver, operand types,
operand literals, expression tree and keyword literals, so the same site
always gets the same :class:`Verdict`; the plugin turns it into Rextio's
``Claimed`` / ``Rejected`` / ``NotCovered`` and lowering calls it again to
revalidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rxt_tf_plugin import spec
from rxt_tf_plugin.model import KeywordRow, Literal
from rxt_tf_plugin.ops import FALLBACKS, Op, TensorType, ops_for, tensor_of, tensor_type
from rxt_tf_plugin.shapes import Keywords, Problem

FLOAT = "float"
"""Rextio's type of a float operand (a float literal is never a literal to it)."""

INT = "int"
"""Rextio's type of an int operand (an int literal is a literal to it)."""


RUNTIME_SIZES = frozenset({"reshape", "per-axis", "fill", "filled"})
"""The rules whose list operand may hold run-time ints (``tf.ones((n, n))``): the
result's rank is the list's length, and TensorFlow checks the values when the
op runs (``reshape``'s at most one ``-1``, non-negative sizes and multiples)."""


@dataclass(frozen=True)
class Verdict:
    """The outcome for one site."""

    outcome: str
    """``claimed``, ``rejected`` or ``not-covered``."""
    op: Op | None = None
    """The op claimed or the one whose rule rejected the site."""
    result: TensorType | None = None
    """The result type of a claimed site."""
    code: str | None = None
    """The diagnostic code of a rejection."""
    message: str = ""
    """Why the site was rejected."""
    suggestion: str = ""
    """What to write instead."""
    keywords: dict[str, Literal] = field(default_factory=dict)
    """The op keywords of a claimed site (given by keyword or position)."""
    scalars: frozenset[int] = frozenset()
    """Operand positions holding a float (a literal, or a run-time float expression)."""
    element: str = ""
    """The element type of the op's tensor operands (``float32``, …): a float
    operand becomes a value of it, as TensorFlow converts a Python float."""
    ints: dict[int, int] = field(default_factory=dict)
    """Operand positions holding an int literal, with its value."""
    lists: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Operand positions holding a literal tuple of integers (``reshape``'s sizes)."""
    runtime_lists: dict[int, int] = field(default_factory=dict)
    """Operand positions holding a tuple of ints known at run time, with its length."""
    runtime_keywords: dict[str, int] = field(default_factory=dict)
    """Keywords given positionally as values known at run time (``tf.reduce_sum(x, ax)``),
    by the operand position of the value."""
    runtime_ints: frozenset[int] = frozenset()
    """Operand positions holding an int known at run time (``tf.range(n)``)."""
    cast_to: str | None = None
    """The element type the result is cast to (``tf.zeros_like(x, dtype=...)``
    naming another type than ``x``'s), or ``None``."""


NOT_COVERED = Verdict("not-covered")


@dataclass(frozen=True)
class _Operand:
    """One operand of a claimed form: a plugin tensor, or a number literal."""

    tensor: TensorType | None = None
    """The tensor's type; ``None`` for a number."""
    number: str | None = None
    """``int`` for an int literal, ``float`` for a float (literal or not); ``None``
    for a tensor."""
    value: int | None = None
    """An int literal's value."""
    dims: tuple[int, ...] | None = None
    """A literal tuple of integers, where the op takes a list."""
    runtime: int | None = None
    """The length of a tuple of ints known only at run time, where the op takes a list."""

    @property
    def rank(self) -> int:
        if self.dims is not None or self.runtime is not None:
            return 1
        return self.tensor.rank if self.tensor is not None else 0

    def describe(self) -> str:
        if self.tensor is not None:
            return self.tensor.describe()
        if self.dims is not None:
            return f"the tuple {self.dims!r}"
        if self.runtime is not None:
            return f"a tuple of {self.runtime} ints"
        return "an int literal" if self.number == INT else "a float literal"


def _rejected(op: Op, message: str, suggestion: str, *, code: str | None = None) -> Verdict:
    return Verdict(
        "rejected",
        op=op,
        code=code or op.code,
        message=f"rxt-tf cannot lower `{op.spelling}`: {message}",
        suggestion=suggestion,
    )


def decide(site: Any) -> Verdict:
    """Decide whether rxt-tf lowers this claim site (Rextio ``ClaimSite``).

    Where several ops claim the target, the one whose ranks take the first
    operand's decides (``tf.nn.convolution``: ``conv2d`` at rank 4,
    ``conv1d`` at rank 3), else the first.
    """
    candidates = ops_for(str(site.kind), str(site.target))
    if not candidates or getattr(site, "receiver", None) is not None:
        return NOT_COVERED
    types = tuple(site.operand_types)
    first = tensor_type(str(types[0])) if types else None
    fitting = [
        op
        for op in candidates
        if first is not None and op.row.ranks[0][0] <= first.rank <= op.row.ranks[0][1]
    ]
    return _decide((fitting or list(candidates))[0], site)


def _decide(op: Op, site: Any) -> Verdict:
    """Whether ``op`` lowers ``site``."""
    operand_types: Sequence[str | None] = tuple(site.operand_types)
    literals: Sequence[Any] = tuple(getattr(site, "operand_literals", ()) or ())
    if any(key is None for key in operand_types):
        return NOT_COVERED
    if op.rule.scalar_shape:
        # `tf.constant(v)`: `fill((), v)` of a lone number.
        if len(operand_types) != 1 or operand_types[0] not in (FLOAT, INT):
            got = ", ".join(str(key) for key in operand_types)
            return _rejected(
                op,
                f"takes one number, got ({got}) (a tensor, list or other value stays on Python)",
                f"write {op.spelling}(2.0)",
            )
        operand_types = ("tuple[()]", *operand_types)
        literals = (EMPTY_SHAPE, *(literals or (None,)))
    if (
        op.is_operator
        and not any(tensor_type(key) is not None for key in operand_types[: op.arity])
        and not any(str(key).startswith("tensorflow.") for key in operand_types[: op.arity])
    ):
        # An operator with no tensor among its operands (`1.0 - 2.0`, ints,
        # strings) is not TensorFlow's at all.
        return NOT_COVERED
    if op.row.rule == "sequence":
        return _sequence(op, operand_types, literals, tuple(getattr(site, "keywords", ())))
    if op.rule.needs_literal and not any(
        key in (FLOAT, INT) or getattr(tensor_type(key), "rank", None) == 0
        for key in operand_types[: op.arity]
    ):
        return _rejected(
            op,
            f"`{op.spelling}` of two tensors gives a scalar where their shapes do not "
            "broadcast (Tensor.__eq__), which no typed result holds",
            f"write tf.{op.macro_name}(a, b), which raises there instead",
        )
    found = _positional_keywords(op, operand_types, literals)
    if isinstance(found, Verdict):
        return found
    positional, runtime_keywords = found
    operands = _operands(op, operand_types, literals)
    if isinstance(operands, Verdict):
        return operands
    given = tuple(getattr(site, "keywords", ()))
    matching = op.rule.matching_dtype
    named = [_literal(k) for k in given if matching is not None and str(k.name) == matching]
    given = tuple(k for k in given if matching is None or str(k.name) != matching)
    keywords = _keywords(op, given, positional)
    if isinstance(keywords, Verdict):
        return keywords
    if op.rule.omitted_axis_is_every_axis and "axis" not in keywords:
        # `axis=None`: every axis, as TensorFlow writes them for a known rank.
        rank = operands[0].rank if operands else 0
        if rank < 1:
            return _rejected(
                op, "reduces no axis of a rank-0 tensor without `axis`", "keep it on Python"
            )
        keywords = {**keywords, "axis": tuple(range(rank))}
    dtype = _made_type(op, keywords) if _makes_tensor(op) else _element_type(op, operands)
    if isinstance(dtype, Verdict):
        return dtype
    cast_to = _cast_to(op, named, dtype)
    if cast_to is None and any(name != dtype for name in named):
        shown = ", ".join(repr(name) for name in named)
        return _rejected(
            op,
            f"`{matching}={shown}` is not the tensor's element type, {dtype} (TensorFlow "
            "converts or raises there)",
            f"omit `{matching}` or write `{matching}={dtype!r}`",
        )
    ranks = tuple(operand.rank for operand in operands)
    lists = {i: operand.dims for i, operand in enumerate(operands) if operand.dims is not None}
    runtime = {i: o.runtime for i, o in enumerate(operands) if o.runtime is not None}
    # A run-time tuple is typed by its length: zeros stand for its values,
    # which TensorFlow checks when the op runs.
    sizes = {**lists, **{i: (0,) * count for i, count in runtime.items()}}
    typed = op.typing(
        ranks, Keywords(op.row, keywords, lists=tuple(sizes[i] for i in sorted(sizes)))
    )
    if isinstance(typed, Problem):
        return _rejected(op, typed.message, typed.suggestion)
    keywords = {**keywords, **dict(typed.derived)}
    return Verdict(
        "claimed",
        op=op,
        result=tensor_of(typed.rank, cast_to or typed.dtype or op.row.promoted.get(dtype, dtype)),
        cast_to=cast_to,
        keywords=keywords,
        scalars=frozenset(i for i, operand in enumerate(operands) if operand.number == FLOAT),
        element=dtype,
        ints={i: operand.value for i, operand in enumerate(operands) if operand.value is not None},
        lists=lists,
        runtime_lists=runtime,
        runtime_keywords=runtime_keywords,
    )


@dataclass(frozen=True)
class _EmptyShape:
    """The literal ``()`` a scalar-making Python form leaves out."""

    is_literal: bool = True
    value: tuple[int, ...] = ()


EMPTY_SHAPE = _EmptyShape()

SEQUENCE_DEFAULTS = {1: ("start", "delta"), 2: ("delta",), 3: ()}
"""What ``tf.range`` of one, two or three operands leaves to its defaults
(``start = 0``, ``delta = 1``): ``tf.range(n)`` is ``range(0, n, 1)``."""


def _sequence(
    op: Op, operand_types: Sequence[str | None], literals: Sequence[Any], keywords: tuple[Any, ...]
) -> Verdict:
    """``tf.range`` of one to three ints (literals or run-time), as int32.

    TensorFlow converts each Python int to int32 where it fits and makes the
    range of the widest type; an int literal beyond int32 (an int64 range)
    is not claimed, and a run-time one raises ``ValueError`` natively.
    """
    if keywords:
        return _rejected(
            op, "takes its operands positionally only", "write tf.range(start, limit, delta)"
        )
    if not 1 <= len(operand_types) <= 3 or any(key != INT for key in operand_types):
        got = ", ".join(str(key) for key in operand_types)
        return _rejected(
            op,
            f"takes one to three ints, got ({got}) (a float range stays on Python)",
            "write tf.range(n), tf.range(start, limit) or tf.range(start, limit, delta) of ints",
        )
    ints = {i: v for i in range(len(operand_types)) if (v := _int_literal(literals, i)) is not None}
    low, high = spec.INT_BOUNDS["int32"]
    if any(not low <= value <= high for value in ints.values()):
        return _rejected(
            op,
            "an int beyond int32's range makes an int64 range, which rxt-tf does not type",
            "keep this tf.range on Python",
        )
    return Verdict(
        "claimed",
        op=op,
        result=tensor_of(1, "int32"),
        element="int32",
        ints=ints,
        runtime_ints=frozenset(i for i in range(len(operand_types)) if i not in ints),
    )


def _cast_to(op: Op, named: Sequence[Literal | None], dtype: str) -> str | None:
    """The other element type a dtype keyword names, where the rule casts to it."""
    if not op.rule.other_dtype_casts or len(named) != 1:
        return None
    name = named[0]
    if not isinstance(name, str):
        return None
    name = name.removeprefix("tf.")
    if name == dtype or name not in spec.DTYPES:
        return None
    return name


def _operands(
    op: Op, operand_types: Sequence[str | None], literals: Sequence[Any]
) -> tuple[_Operand, ...] | Verdict:
    """The operands: plugin tensors, or number literals where the op takes them."""
    operands: list[_Operand] = []
    for index, key in enumerate(operand_types[: op.arity]):
        tensor = tensor_type(key)
        literal = op.row.literals[index]
        if op.row.roles[index] == "size":
            if key != INT:
                return _rejected(
                    op,
                    f"needs an int as operand {index + 1}, got {key}",
                    "pass an int literal or an int variable",
                )
            size = _int_literal(literals, index)
            if size is not None and size < 0:
                return _rejected(
                    op,
                    f"needs a non-negative size as operand {index + 1}, got {size} (TensorFlow "
                    "raises InvalidArgumentError)",
                    "pass a size of at least 0",
                )
            operands.append(_Operand(number=INT, value=size))
        elif op.row.roles[index] == "dims":
            dims = _int_tuple(literals, index)
            count = _ints_count(key)
            if dims is None and count is not None and op.row.rule in RUNTIME_SIZES:
                operands.append(_Operand(runtime=count))
                continue
            if dims is None:
                also = (
                    " or a typed tuple of ints (`(n, n)`)" if op.row.rule in RUNTIME_SIZES else ""
                )
                return _rejected(
                    op,
                    f"needs a literal tuple of integers{also} as operand {index + 1}, got {key}",
                    "write the sizes as a tuple literal, e.g. `(2, -1)`",
                )
            operands.append(_Operand(dims=dims))
        elif tensor is not None:
            operands.append(_Operand(tensor=tensor))
        elif literal and key == FLOAT:
            # A float literal, variable or expression (`1.0 / math.sqrt(d)`):
            # lowering reads a literal as one and passes anything else as a
            # run-time scalar of the tensor's element type.
            operands.append(_Operand(number=FLOAT))
        elif literal and key == INT and _int_literal(literals, index) is not None:
            operands.append(_Operand(number=INT, value=_int_literal(literals, index)))
        else:
            found = ", ".join(str(key) for key in operand_types[: op.arity])
            accepted = "rxt-tf tensors (rxt_tf_plugin.types markers such as TensorF32Cpu2D)"
            if any(op.row.literals):
                accepted += " or number literals"
            return _rejected(
                op,
                f"operands must be {accepted}, got ({found})",
                "annotate the operands with rxt_tf_plugin.types markers "
                "(TensorF32Cpu2D, TensorI64Cpu1D, ...)",
                code=FALLBACKS[op.kind].code,
            )
    return tuple(operands)


def _makes_tensor(op: Op) -> bool:
    """Whether the op takes no tensor, only sizes (``tf.zeros((2, 3))``)."""
    return all(role in ("dims", "size") for role in op.row.roles)


def _made_type(op: Op, keywords: dict[str, Literal]) -> str | Verdict:
    """The element type of a tensor the op makes: its ``dtype``, given or default."""
    rule = next((k for k in op.keywords if k.kind == "type"), None)
    if rule is None:
        return _rejected(op, "makes a tensor of no stated element type", "keep it on Python")
    value = keywords.get(rule.name, rule.default)
    return str(value).removeprefix("tf.")


def _element_type(op: Op, operands: tuple[_Operand, ...]) -> str | Verdict:
    """The operands' one element type, checked with their ranks against the op's."""
    got = " × ".join(operand.describe() for operand in operands) or "no operands"
    fits = len(operands) == op.arity and all(
        low <= operand.rank <= high
        for operand, (low, high) in zip(operands, op.row.ranks, strict=True)
    )
    advice = {
        "condition": "pass a bool condition (a comparison, or tf.cast(c, 'bool'))",
        "indices": "pass int32 or int64 indices (tf.cast(ids, 'int32'))",
    }
    for operand, role in zip(operands, op.row.roles, strict=False):
        fixed = spec.ROLE_DTYPES.get(role)
        if fixed is not None and (operand.tensor is None or operand.tensor.dtype not in fixed):
            return _rejected(
                op,
                f"needs operands of {op.row.operands_text}, got {got}",
                advice.get(role, f"pass a tensor of {' or '.join(fixed)}"),
            )
    tensors = [
        operand.tensor
        for operand, role in zip(operands, op.row.roles, strict=False)
        if operand.tensor is not None and role == "element"
    ] or [
        # An op of no operand of its element type (`one_hot`): its indices.
        operand.tensor
        for operand, role in zip(operands, op.row.roles, strict=False)
        if operand.tensor is not None and role == "indices"
    ]
    if not tensors and fits and "dims" in op.row.roles:
        # A new tensor of a lone Python number (`tf.fill(dims, 0.5)`): the
        # number's own type, as TensorFlow converts it.
        numbers = [operand.number for operand in operands if operand.number is not None]
        least, most = spec.INT_BOUNDS["int32"]
        if any(o.value is not None and not least <= o.value <= most for o in operands):
            return _rejected(
                op,
                "an int beyond int32's range makes an int64 tensor, which rxt-tf does not "
                "type from a lone int",
                "keep it on Python, or write an int of int32's range",
            )
        if numbers:
            return "float32" if FLOAT in numbers else "int32"
    if not tensors or not fits:
        return _rejected(
            op,
            f"needs operands of {op.row.operands_text}, got {got}",
            "pass tensors of the supported element types and ranks",
        )
    dtypes = sorted({tensor.dtype for tensor in tensors})
    if len(dtypes) > 1:
        return _rejected(
            op,
            f"needs operands of one element type, got {got}",
            "cast one operand to the other's element type first (tf.cast is not lowered, so "
            "do it outside this function)",
        )
    dtype = dtypes[0]
    if dtype not in op.row.dtypes:
        return _rejected(
            op,
            f"needs operands of {op.row.operands_text}, got {got}",
            "pass tensors of the supported element types",
        )
    for operand in operands:
        if operand.number is None:
            continue
        if dtype == "bool" or (operand.number == FLOAT and dtype not in spec.FLOAT_DTYPES):
            return _rejected(
                op,
                f"{operand.describe()} cannot stand beside {_a(dtype)} tensor (TensorFlow "
                f"raises TypeError converting it to {dtype}), got {got}",
                "pass a tensor" if dtype == "bool" else "write an int literal",
            )
        low, high = spec.INT_BOUNDS.get(dtype, (None, None))
        if operand.value is not None and low is not None and high is not None:
            if not low <= operand.value <= high:
                return _rejected(
                    op,
                    f"the literal {operand.value} does not fit {dtype}",
                    f"write a literal between {low} and {high}",
                )
    first = operands[0] if operands else None
    if op.rule.leading_literal_keeps_its_type and first is not None and first.number:
        kept = "int32" if first.number == INT else "float32"
        if dtype != kept:
            return _rejected(
                op,
                f"a literal first operand ({first.describe()}) is {kept} here, the other "
                f"operand {dtype} (TensorFlow raises InvalidArgumentError), got {got}",
                "put the tensor first, or write the operator (`x + 2`)",
            )
    return dtype


def _int_tuple(literals: Sequence[Any], index: int) -> tuple[int, ...] | None:
    """The literal tuple of integers Rextio reports for operand `index`, if it is one."""
    literal = literals[index] if index < len(literals) else None
    if literal is None or not getattr(literal, "is_literal", False):
        return None
    value = literal.value
    if not isinstance(value, tuple) or not all(
        isinstance(item, int) and not isinstance(item, bool) for item in value
    ):
        return None
    return value


def _ints_count(key: str | None) -> int | None:
    """How many ints a ``tuple[int, int]`` type holds; ``None`` for another type."""
    text = str(key)
    if not (text.startswith("tuple[") and text.endswith("]")):
        return None
    items = [item.strip() for item in text[len("tuple[") : -1].split(",")]
    if not items or any(item != INT for item in items):
        return None
    return len(items)


def _a(dtype: str) -> str:
    """``a float32``, ``an int32``."""
    return f"{'an' if dtype[0] in 'aeiou' else 'a'} {dtype}"


def _int_literal(literals: Sequence[Any], index: int) -> int | None:
    """The int literal Rextio reports for operand `index`, if it is one."""
    literal = literals[index] if index < len(literals) else None
    if literal is None or not getattr(literal, "is_literal", False):
        return None
    value = literal.value
    return value if type(value) is int else None


RUNTIME_KEYWORDS = frozenset({"axis", "axes"})
"""Keywords ``tf!`` takes as Rust expressions (an axis known at run time,
checked against the rank when the op runs); Rextio offers one given
positionally as a typed ``int`` where the value is no literal."""


def _positional_keywords(
    op: Op, operand_types: Sequence[str | None], literals: Sequence[Any]
) -> tuple[dict[str, Literal], dict[str, int]] | Verdict:
    """Keywords the rule takes positionally after the operands (`axis`).

    Also those of them known only at run time, by operand position.
    """
    extra = len(operand_types) - op.arity
    if extra <= 0:
        return {}, {}
    names = op.rule.positional
    if extra > len(names):
        if not names:
            return _rejected(
                op,
                f"takes {op.arity} operand(s), got {len(operand_types)}",
                f"pass {op.arity} tensor operand(s)",
            )
        required = ", ".join(_example(k) for k in op.keywords if k.required)
        return _rejected(
            op,
            f"takes at most {len(names)} argument(s) after the operands ({', '.join(names)})",
            f"write {op.spelling}(x, {required})",
        )
    values: dict[str, Literal] = {}
    runtime: dict[str, int] = {}
    for offset, name in enumerate(names[:extra]):
        index = op.arity + offset
        literal = literals[index] if index < len(literals) else None
        rule = next(k for k in op.keywords if k.name == name)
        known = literal is not None and getattr(literal, "is_literal", False)
        if not known and name in RUNTIME_KEYWORDS and rule.kind in ("int", "axes"):
            if operand_types[index] == INT:
                # One axis: 0 stands in for typing (it fits every rank the
                # rule takes an axis of); the value is checked when the op runs.
                values[name] = 0
                runtime[name] = index
                continue
        if literal is None or not getattr(literal, "is_literal", False):
            spelled = f"{rule.name}=<{rule.allowed_text()}>"
            return _rejected(
                op,
                f"a positional `{name}` must be a literal Rextio can read; "
                f"pass it as the keyword `{spelled}`",
                f"write `{spelled}` as a keyword",
            )
        if not rule.accepts(literal.value):
            return _rejected(op, f"supports only {_accepted(rule)}", f"write `{_example(rule)}`")
        values[name] = literal.value
    return values, runtime


_EXAMPLES: dict[str, Literal] = {
    "bool": True,
    "int": 0,
    "axes": 0,
    "count": 0,
    "str": "CONSTANT",
    "number": 0,
    "float": 1.0,
    "ints": (1, 0),
    "spatial": 2,
    "volume": 2,
    "contraction": 1,
}
"""A value of each keyword kind for suggestions, where the keyword lists none."""


def _example(rule: KeywordRow) -> str:
    """``axis=0``: the keyword with its first accepted value, for messages."""
    if rule.kind == "type":
        return rule.python(str(rule.allowed[0]).removeprefix("tf."))
    if rule.allowed:
        return rule.python(rule.allowed[0])
    return rule.python(_EXAMPLES[rule.kind])


def _accepted(rule: KeywordRow) -> str:
    """``the literal `axis=1``` or ```axis` = 0, 1 or -1``, for messages."""
    if rule.kind == "type":
        how = "as a dtype name" if rule.required else "omitted or a dtype name"
        return f"`{rule.name}` {how}, {rule.allowed_text()}"
    if len(rule.allowed) == 1:
        return f"the literal `{rule.python(rule.allowed[0])}`"
    return f"`{rule.name}` = {rule.allowed_text()}"


def _keywords(
    op: Op, given: tuple[Any, ...], positional: dict[str, Literal]
) -> dict[str, Literal] | Verdict:
    """The op keywords of the site (positional ones included), checked."""
    values: dict[str, Literal] = dict(positional)
    renamed = dict(op.rule.renamed)
    names = [renamed.get(str(keyword.name), str(keyword.name)) for keyword in given]
    python_only = {k.name: k for k in op.rule.python_only}
    for keyword in given:
        name = renamed.get(str(keyword.name), str(keyword.name))
        if names.count(name) > 1 or name in positional:
            return _rejected(op, f"keyword `{name}` given twice", f"pass `{name}` once")
        value = _literal(keyword)
        if name in python_only:
            accepted = python_only[name].values
            if value not in accepted:
                shown = " or ".join(repr(v) for v in accepted)
                return _rejected(
                    op,
                    f"supports `{name}` only as {shown}",
                    f"omit `{name}` or write `{name}={accepted[0]!r}`",
                )
            continue
        rule = next((k for k in op.keywords if k.name == name), None)
        spelled_as_the_row = name == str(keyword.name) and name in renamed.values()
        if rule is None or name in op.rule.macro_only or spelled_as_the_row:
            python_names = {row: python for python, row in renamed.items()}
            known = list(
                dict.fromkeys(
                    [
                        *(
                            python_names.get(k.name, k.name)
                            for k in op.keywords
                            if k.name not in op.rule.macro_only
                        ),
                        *python_only,
                    ]
                )
            )
            allowed = (
                "it takes no keyword arguments"
                if not known
                else "it accepts only " + " and ".join(f"`{k}`" for k in known)
            )
            return _rejected(
                op,
                f"unsupported keyword `{keyword.name}`; {allowed}",
                "remove the keyword (this call stays on the Python route otherwise)",
            )
        if name != str(keyword.name) and rule.kind == "int" and _one_int(value):
            # A renamed size Python also takes as a 1-tuple (`strides=(2,)` is
            # `conv1d`'s `stride=2`, as `tf.nn.convolution` reads it).
            value = value[0]  # type: ignore[index]
        if value is None or not rule.accepts(value):
            return _rejected(op, f"supports only {_accepted(rule)}", f"write `{_example(rule)}`")
        values[name] = value
    for rule in op.keywords:
        if rule.name == "axis" and op.rule.omitted_axis_is_every_axis:
            continue  # every axis where it is left out
        if rule.required and rule.name not in values:
            return _rejected(
                op,
                f"needs the literal keyword `{rule.name}` ({rule.allowed_text()})",
                f"write `{_example(rule)}`",
            )
    return values


def _one_int(value: object) -> bool:
    """A 1-tuple of an int (``(2,)``)."""
    return isinstance(value, tuple) and len(value) == 1 and type(value[0]) is int


def _literal(keyword: Any) -> Literal | None:
    """The keyword's literal value, or ``None`` for an expression."""
    literal = getattr(keyword, "literal", None)
    if literal is None or not getattr(literal, "is_literal", False):
        return None
    value = literal.value
    if isinstance(value, bool | int | float | str | tuple):
        return value
    return None
