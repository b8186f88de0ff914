"""How each rule of the op table types a site: one small function per rule.

An op row names its rule (``OpRow.rule``) and the ranks it accepts at each
operand position (``OpRow.ranks``, from ``Rule::ranks``); the claim checks
those. The rule's function here then checks the typed keywords against the
operand ranks and gives the result's rank (and element type, where the rule
fixes it), as ``Rule::result_rank`` and ``axes_fit`` of rxt-tf-spec do; the
tests hold them to the crate's values (``spec.RESULT_RANKS``, ``spec.AXES_FIT``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rxt_tf_plugin.model import Literal, OpRow


@dataclass(frozen=True)
class Typed:
    """The result of a site a rule accepts."""

    rank: int
    """Its rank."""
    dtype: str | None = None
    """Its element type; ``None`` for the operands' own."""


@dataclass(frozen=True)
class Problem:
    """Why a rule refuses a site's keywords."""

    message: str
    """What is wrong."""
    suggestion: str
    """What to write instead."""


@dataclass(frozen=True)
class Keywords:
    """The keyword values of a site: the given ones, else the op's defaults."""

    row: OpRow
    """The op."""
    given: Mapping[str, Literal]
    """The values the site gives (by keyword or position)."""
    lists: tuple[tuple[int, ...], ...] = ()
    """The literal tuples of integers of an op that takes them (``reshape``'s sizes)."""

    def value(self, name: str) -> Literal | None:
        """The value of keyword ``name``: given, else its default."""
        if name in self.given:
            return self.given[name]
        keyword = self.row.keyword(name)
        return None if keyword is None else keyword.default


RuleFunction = Callable[[tuple[int, ...], Keywords], Typed | Problem]
"""A rule: operand ranks (each accepted at its position) and keywords → result."""


def axes_fit(axes: tuple[int, ...], rank: int) -> bool:
    """Whether ``axes`` fit a tensor of ``rank``.

    Each must be in ``-rank..rank`` and none named twice once negative axes
    are counted from the end.
    """
    seen: set[int] = set()
    for axis in axes:
        normalized = axis + rank if axis < 0 else axis
        if not 0 <= normalized < rank or normalized in seen:
            return False
        seen.add(normalized)
    return True


def _axes(value: Literal | None) -> tuple[int, ...]:
    """An ``axis`` value as a tuple of axes (``1`` is ``(1,)``)."""
    if isinstance(value, tuple):
        return value
    return (value,) if isinstance(value, int) and not isinstance(value, bool) else ()


def _misfit(value: Literal | None, rank: int) -> Problem:
    return Problem(
        f"`axis={value!r}` does not fit a rank-{rank} tensor: each axis must be in "
        f"{-rank}..{rank - 1} and named once",
        f"write axes between {-rank} and {rank - 1}",
    )


def same_rank(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``same-rank``: one tensor; the result has its type."""
    del keywords
    return Typed(ranks[0])


def broadcast(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``broadcast``: two operands (a literal is rank 0); the result has the larger rank."""
    del keywords
    return Typed(max(ranks))


def matmul(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``matmul``: batch dimensions broadcast; the result has the larger rank."""
    del keywords
    return Typed(max(ranks))


def bias_add(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``bias-add``: a tensor and a rank-1 bias; the result has the tensor's type."""
    del keywords
    return Typed(ranks[0])


def reduce(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``reduce``: loses the ``axis`` axes, unless ``keepdims`` is ``True``."""
    return _reduced(ranks[0], "axis", keywords)


def moments(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``moments``: the mean and the variance lose the ``axes`` axes, unless ``keepdims``.

    Rextio has no type for the pair: this types each of its two tensors.
    """
    return _reduced(ranks[0], "axes", keywords)


def _reduced(rank: int, name: str, keywords: Keywords) -> Typed | Problem:
    """A reduction of a rank-``rank`` tensor over the axes of keyword ``name``."""
    value = keywords.value(name)
    axes = _axes(value)
    if not axes:
        return Problem(
            f"`{name}={value!r}` names no axis", f"name at least one axis, e.g. `{name}={rank - 1}`"
        )
    if not axes_fit(axes, rank):
        return _misfit(value, rank)
    keepdims = keywords.value("keepdims") is True
    return Typed(rank if keepdims else rank - len(axes))


def along_axis(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``along-axis``: works along ``axis`` (in range); the result has the tensor's type."""
    rank = ranks[0]
    value = keywords.value("axis")
    if not axes_fit(_axes(value), rank):
        return _misfit(value, rank)
    return Typed(rank)


def arg_reduce(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``arg-reduce``: the index along ``axis`` (rank - 1), of ``output_type``."""
    rank = ranks[0]
    value = keywords.value("axis")
    if not axes_fit(_axes(value), rank):
        return _misfit(value, rank)
    return Typed(rank - 1, str(keywords.value("output_type")).removeprefix("tf."))


def permute(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``permute``: ``perm`` omitted (axes reversed) or a permutation of the axes."""
    rank = ranks[0]
    perm = keywords.given.get("perm")
    if perm is not None and (not isinstance(perm, tuple) or sorted(perm) != list(range(rank))):
        reversed_axes = tuple(range(rank - 1, -1, -1))
        return Problem(
            f"`perm={perm!r}` is not a permutation of the {rank} axes of a rank-{rank} tensor",
            f"write a permutation of 0..{rank - 1}, e.g. `perm={reversed_axes!r}`",
        )
    return Typed(rank)


def convert(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``convert``: the same rank, of the element type ``dtype`` names."""
    return Typed(ranks[0], str(keywords.value("dtype")).removeprefix("tf."))


def expand_dims(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``expand-dims``: a new axis at ``axis`` (in ``-(rank + 1)..=rank``), rank + 1."""
    rank = ranks[0]
    value = keywords.value("axis")
    if not axes_fit(_axes(value), rank + 1):
        return _misfit(value, rank + 1)
    return Typed(rank + 1)


def shape(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``shape``: a rank-1 tensor of ``out_type``."""
    return Typed(1, str(keywords.value("out_type")).removeprefix("tf."))


def squeeze(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``squeeze``: loses the ``axis`` axes (each of size 1 when it runs)."""
    return reduce(ranks, keywords)


def select(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``select``: a bool condition and two operands broadcast; the largest rank."""
    del keywords
    return Typed(max(ranks))


def reshape(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``reshape``: the rank is the number of sizes; at most one is ``-1``."""
    del ranks
    sizes = keywords.lists[0]
    if len(sizes) > 4:
        return Problem(
            f"a shape of {len(sizes)} sizes would give a rank-{len(sizes)} tensor; rxt-tf "
            "tensors have ranks 0 to 4",
            "reshape to at most 4 axes",
        )
    if sizes.count(-1) > 1 or any(size < -1 for size in sizes):
        return Problem(
            f"`{sizes!r}`: each size is at least 0, and at most one is -1 (inferred)",
            "write non-negative sizes and at most one -1",
        )
    return Typed(len(sizes))


def per_axis(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``per-axis``: one non-negative entry per axis; the tensor's type."""
    rank = ranks[0]
    entries = keywords.lists[0]
    if len(entries) != rank or any(entry < 0 for entry in entries):
        return Problem(
            f"`{entries!r}` needs one non-negative entry per axis of a rank-{rank} tensor",
            f"write {rank} non-negative integers",
        )
    return Typed(rank)


def gather(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``gather``: ``rank(params) - 1 + rank(indices) - batch_dims``, at most 4."""
    params, indices = ranks
    axis = keywords.value("axis")
    batch = keywords.value("batch_dims")
    if not axes_fit(_axes(axis), params):
        return _misfit(axis, params)
    batch_dims = batch if isinstance(batch, int) and not isinstance(batch, bool) else 0
    result = params - 1 + indices - batch_dims
    if batch_dims > indices or batch_dims >= params or not 0 <= result <= 4:
        return Problem(
            f"a gather from a rank-{params} tensor by rank-{indices} indices with "
            f"batch_dims={batch_dims} has no result of rank 0 to 4",
            "gather from a tensor of lower rank, or with fewer indices",
        )
    return Typed(result)


def window(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``window``: a begin (non-negative) and sizes (-1: to the end), one per axis."""
    rank = ranks[0]
    begin, sizes = keywords.lists
    if len(begin) != rank or len(sizes) != rank:
        return Problem(
            f"`{begin!r}` and `{sizes!r}` need one entry per axis of a rank-{rank} tensor",
            f"write {rank} begins and {rank} sizes",
        )
    if any(entry < 0 for entry in begin) or any(size < -1 for size in sizes):
        return Problem(
            f"`{begin!r}`, `{sizes!r}`: a begin is at least 0, a size at least -1",
            "write non-negative begins, and sizes or -1 (to the end)",
        )
    return Typed(rank)


def join(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``join``: tensors joined along ``axis`` (in range); their type."""
    return along_axis(ranks, keywords)


def stack(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``stack``: tensors stacked along a new ``axis``, rank + 1."""
    return expand_dims(ranks, keywords)


def index(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``index``: ``rank - shrink_axes + new_axes`` (Rextio offers no subscript site)."""
    shrink = keywords.value("shrink_axes")
    new = keywords.value("new_axes")
    dropped = shrink if isinstance(shrink, int) else 0
    added = new if isinstance(new, int) else 0
    return Typed(ranks[0] - dropped + added)


def split(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``split``: each part has the tensor's type (Rextio has no type for the list)."""
    return along_axis(ranks, keywords)


def unstack(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``unstack``: each slice has rank - 1 (Rextio has no type for the list)."""
    rank = ranks[0]
    value = keywords.value("axis")
    if not axes_fit(_axes(value), rank):
        return _misfit(value, rank)
    return Typed(rank - 1)


def top_k(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``top-k``: the values have the tensor's type (Rextio has no type for the pair)."""
    del keywords
    return Typed(ranks[0])


def normalize(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``normalize``: four statistics broadcasting into the tensor; its type."""
    del keywords
    if any(rank > ranks[0] for rank in ranks[1:]):
        return Problem(
            "a statistic has a larger rank than the tensor",
            "pass statistics of ranks up to the tensor's (keepdims=True moments)",
        )
    return Typed(ranks[0])


def einsum(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``einsum``: the equation gives the result's rank (Rextio offers no such site)."""
    del ranks, keywords
    return Problem(
        "`tf.einsum` takes its equation before the tensors", "keep `tf.einsum` on Python"
    )


def eye(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``eye``: a new identity matrix, rank 2 (Rextio offers no site making one)."""
    del ranks, keywords
    return Typed(2)


def one_hot(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``one-hot``: a new axis at ``axis`` (in ``-(rank + 1)..=rank``), rank + 1."""
    return expand_dims(ranks[:1], keywords)


def pad(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``pad``: the tensor's type (Rextio offers no nested tuple)."""
    del keywords
    return Typed(ranks[0])


def fill(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``fill``, ``zeros``, ``ones``: the rank is the number of sizes, each at least 0."""
    del ranks
    sizes = keywords.lists[0] if keywords.lists else ()
    if len(sizes) > 4:
        return Problem(
            f"a shape of {len(sizes)} sizes would give a rank-{len(sizes)} tensor; rxt-tf "
            "tensors have ranks 0 to 4",
            "make a tensor of at most 4 axes",
        )
    if any(size < 0 for size in sizes):
        return Problem(
            f"`{sizes!r}`: each size is at least 0 (TensorFlow raises InvalidArgumentError)",
            "write non-negative sizes",
        )
    return Typed(len(sizes))


def sequence(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``sequence``: a rank-1 tensor (Rextio offers no such site)."""
    del ranks, keywords
    return Typed(1)


def contraction_axes(value: Literal | None, side: int, rank: int) -> tuple[int, ...] | None:
    """The axes of operand ``side`` (0 or 1) a ``tf.tensordot`` ``axes`` value contracts.

    Counted from the front, if they fit a rank-``rank`` tensor (each once). A count
    ``n`` is the last ``n`` axes of the first with the first ``n`` of the second; a pair
    of ints one axis of each; a pair of tuples those axes.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= rank:
            return None
        return tuple(range(rank - value, rank)) if side == 0 else tuple(range(value))
    if not isinstance(value, tuple) or len(value) != 2:
        return None
    axes: object = value[side]
    listed = (axes,) if isinstance(axes, int) else axes
    if not isinstance(listed, tuple) or not all(type(a) is int for a in listed):
        return None
    if not axes_fit(listed, rank):
        return None
    return tuple(axis + rank if axis < 0 else axis for axis in listed)


def contract(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``contract``: the free axes of both operands, ``a + b - 2n`` for ``n`` axes each."""
    value = keywords.value("axes")
    first = contraction_axes(value, 0, ranks[0])
    second = contraction_axes(value, 1, ranks[1])
    if first is None or second is None or len(first) != len(second):
        return Problem(
            f"`axes={value!r}` does not fit operands of ranks {ranks[0]} and {ranks[1]}: "
            "each side's axes must be in range and named once, as many on each side",
            "write axes each operand has",
        )
    rank = ranks[0] + ranks[1] - 2 * len(first)
    if rank > 4:
        return Problem(
            f"the result would have rank {rank}; rxt-tf tensors have ranks 0 to 4",
            "contract more axes, or smaller operands",
        )
    return Typed(rank)


RULES: dict[str, RuleFunction] = {
    "same-rank": same_rank,
    "broadcast": broadcast,
    "matmul": matmul,
    "bias-add": bias_add,
    "reduce": reduce,
    "along-axis": along_axis,
    "arg-reduce": arg_reduce,
    "permute": permute,
    "convert": convert,
    "expand-dims": expand_dims,
    "shape": shape,
    "squeeze": squeeze,
    "select": select,
    "reshape": reshape,
    "per-axis": per_axis,
    "gather": gather,
    "window": window,
    "join": join,
    "stack": stack,
    "index": index,
    "split": split,
    "split-sizes": split,
    "unstack": unstack,
    "top-k": top_k,
    "one-hot": one_hot,
    "pad": pad,
    "fill": fill,
    "filled": fill,
    "sequence": sequence,
    "clip": same_rank,
    "sort": along_axis,
    "eye": eye,
    "moments": moments,
    "conv": same_rank,
    "pool": same_rank,
    "normalize": normalize,
    "einsum": einsum,
    "contract": contract,
    "fused-normalize": same_rank,
}
"""Every rule of the op table, by ``OpRow.rule``."""
