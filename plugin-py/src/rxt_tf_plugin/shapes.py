"""How each rule of the op table types a site: one small function per rule.

An op row names its rule (``OpRow.rule``) and the ranks it accepts at each
operand position (``OpRow.ranks``, from ``Rule::ranks``); the claim checks
those. The rule's function here reads the typed keywords (how many axes,
sizes or contracted axes, ``keepdims``, an element type) and checks them
against the operand ranks as ``axes_fit`` of rxt-tf-spec does; the result's
rank is then the crate's own, ``Rule::result_rank`` as xtask writes it into
``spec.RESULT_RANKS`` (:func:`result_rank`): no rank arithmetic is copied here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rxt_tf_plugin import spec
from rxt_tf_plugin.model import Literal, OpRow


@dataclass(frozen=True)
class Typed:
    """The result of a site a rule accepts."""

    rank: int
    """Its rank."""
    dtype: str | None = None
    """Its element type; ``None`` for the operands' own."""
    derived: tuple[tuple[str, int], ...] = ()
    """Keywords only ``tf!`` takes, derived from the site (an index's counts)."""


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


_RESULT_RANKS: dict[tuple[str, tuple[int, ...], int, bool], int | None] = {
    (rule, ranks, count, keepdims): result
    for rule, ranks, count, keepdims, result in spec.RESULT_RANKS
}


def result_rank(
    rule: str, ranks: tuple[int, ...], count: int = 0, keepdims: bool = False
) -> int | None:
    """The crate's result rank (``Rule::result_rank``) of ``rule``, if there is one.

    For operands of ``ranks`` and ``count`` axes (sizes, ``batch_dims``, contracted axes).
    """
    return _RESULT_RANKS.get((rule, ranks, count, keepdims))


def _typed(
    rule: str,
    ranks: tuple[int, ...],
    count: int = 0,
    keepdims: bool = False,
    dtype: str | None = None,
) -> Typed | Problem:
    """The site's result as the crate types it, or why it has none."""
    rank = result_rank(rule, ranks, count, keepdims)
    if rank is None:
        return Problem(
            f"operands of ranks {', '.join(map(str, ranks))} give no tensor rxt-tf has here "
            f"(ranks 0 to {spec.MAX_RANK})",
            "use operands of other ranks, or keep the call on Python",
        )
    return Typed(rank, dtype)


def _ranks_only(rule: str) -> RuleFunction:
    """A rule whose result follows from the operand ranks alone."""

    def typed(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
        del keywords
        return _typed(rule, ranks)

    typed.__doc__ = f"``{rule}``: the result's rank follows from the operands' ranks."
    return typed


RuleFunction = Callable[[tuple[int, ...], Keywords], Typed | Problem]
"""A rule: operand ranks (each accepted at its position) and keywords → result."""


def axes_fit(axes: tuple[int, ...], rank: int) -> bool:
    """Whether ``axes`` fit a tensor of ``rank``.

    Each must be one of its axes (``spec.NORMALIZED_AXES``, the crate's own
    normalization) and none named twice once negative axes are counted from
    the end.
    """
    known = spec.NORMALIZED_AXES.get(rank, {})
    normalized = [known.get(axis) for axis in axes]
    return None not in normalized and len(set(normalized)) == len(normalized)


def _axes(value: Literal | None) -> tuple[int, ...]:
    """An ``axis`` value as a tuple of axes (``1`` is ``(1,)``)."""
    if isinstance(value, tuple):
        return value
    return (value,) if isinstance(value, int) and not isinstance(value, bool) else ()


def _misfit(value: Literal | None, rank: int) -> Problem:
    return Problem(
        f"{spec.AXIS_MISFIT.format(name='axis', rank=rank)}, got `axis={value!r}`",
        f"write axes between {-rank} and {rank - 1}",
    )


def reduce(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``reduce``: loses the ``axis`` axes, unless ``keepdims`` is ``True``."""
    return _reduced("reduce", ranks, "axis", keywords)


def squeeze(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``squeeze``: loses the ``axis`` axes (each of size 1 when it runs)."""
    return _reduced("squeeze", ranks, "axis", keywords)


def moments(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``moments``: the mean and the variance lose the ``axes`` axes, unless ``keepdims``.

    Rextio has no type for the pair: this types each of its two tensors.
    """
    return _reduced("moments", ranks, "axes", keywords)


def _reduced(rule: str, ranks: tuple[int, ...], name: str, keywords: Keywords) -> Typed | Problem:
    """A reduction of a tensor over the axes of keyword ``name``."""
    rank = ranks[0]
    value = keywords.value(name)
    axes = _axes(value)
    if not axes:
        return Problem(
            f"`{name}={value!r}` names no axis", f"name at least one axis, e.g. `{name}={rank - 1}`"
        )
    if not axes_fit(axes, rank):
        return _misfit(value, rank)
    keepdims = rule != "squeeze" and keywords.value("keepdims") is True
    return _typed(rule, ranks, len(axes), keepdims)


def _along(rule: str, new_axis: bool = False, dtype_keyword: str | None = None) -> RuleFunction:
    """A rule working along ``axis``, which must fit the tensor.

    With ``new_axis`` it must fit the result, one axis more; ``dtype_keyword`` names
    the result's element type, if any.
    """

    def typed(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
        rank = ranks[0] + (1 if new_axis else 0)
        value = keywords.value("axis")
        if not axes_fit(_axes(value), rank):
            return _misfit(value, rank)
        return _typed(rule, ranks, dtype=_dtype(keywords, dtype_keyword))

    typed.__doc__ = f"``{rule}``: along ``axis``, which must fit; the rank is the crate's."
    return typed


def _dtype(keywords: Keywords, name: str | None) -> str | None:
    """The element type keyword ``name`` names (``tf.int64`` → ``int64``), if any."""
    return None if name is None else str(keywords.value(name)).removeprefix("tf.")


def _of_type(rule: str, name: str) -> RuleFunction:
    """A rule whose result's element type keyword ``name`` names."""

    def typed(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
        return _typed(rule, ranks, dtype=_dtype(keywords, name))

    typed.__doc__ = f"``{rule}``: of the element type ``{name}`` names."
    return typed


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
    return _typed("permute", ranks)


def reshape(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``reshape``: the rank is the number of sizes; at most one is ``-1``."""
    sizes = keywords.lists[0]
    if sizes.count(-1) > 1 or any(size < -1 for size in sizes):
        return Problem(
            f"`{sizes!r}`: each size is at least 0, and at most one is -1 (inferred)",
            "write non-negative sizes and at most one -1",
        )
    return _sized("reshape", ranks, sizes)


def _sized(rule: str, ranks: tuple[int, ...], sizes: tuple[int, ...]) -> Typed | Problem:
    """A result of as many axes as ``sizes`` has, if rxt-tf has such a tensor."""
    if result_rank(rule, ranks, len(sizes)) is None:
        return Problem(
            f"a shape of {len(sizes)} sizes would give a rank-{len(sizes)} tensor; rxt-tf "
            f"tensors have ranks 0 to {spec.MAX_RANK}",
            f"make a tensor of at most {spec.MAX_RANK} axes",
        )
    return _typed(rule, ranks, len(sizes))


def per_axis(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``per-axis``: one non-negative entry per axis; the tensor's type."""
    rank = ranks[0]
    entries = keywords.lists[0]
    if len(entries) != rank or any(entry < 0 for entry in entries):
        return Problem(
            f"`{entries!r}` needs one non-negative entry per axis of a rank-{rank} tensor",
            f"write {rank} non-negative integers",
        )
    return _typed("per-axis", ranks)


def gather(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``gather``: ``rank(params) - 1 + rank(indices) - batch_dims``, at most ``MAX_RANK``."""
    params, indices = ranks
    axis = keywords.value("axis")
    batch = keywords.value("batch_dims")
    if not axes_fit(_axes(axis), params):
        return _misfit(axis, params)
    batch_dims = batch if isinstance(batch, int) and not isinstance(batch, bool) else 0
    if result_rank("gather", ranks, batch_dims) is None:
        return Problem(
            f"a gather from a rank-{params} tensor by rank-{indices} indices with "
            f"batch_dims={batch_dims} has no result of rank 0 to {spec.MAX_RANK}",
            "gather from a tensor of lower rank, or with fewer indices",
        )
    return _typed("gather", ranks, batch_dims)


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
    return _typed("window", ranks)


INDEX_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")
"""The masks of ``tf.strided_slice``, in the order of its parameters."""


def index(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``index``: ``rank - shrink_axes + new_axes``, the counts derived from the masks.

    Begin, end and strides have one length; each mask has no bit beyond it;
    an entry is at most one of an ellipsis (one at most), a new axis and a
    dropped axis, as ``Tensor.__getitem__`` builds them; the entries that read
    an axis are at most the rank (TensorFlow raises otherwise).
    """
    lengths = {len(entries) for entries in keywords.lists}
    masks = {name: keywords.value(name) for name in INDEX_MASKS}
    if len(keywords.lists) != 3 or len(lengths) != 1:
        return Problem(
            "begin, end and strides must be literal tuples of one length",
            "write `tf.strided_slice(x, (0, 1), (0, 3), (1, 1))`",
        )
    length = lengths.pop()
    if not all(isinstance(mask, int) and 0 <= mask < 1 << length for mask in masks.values()):
        return Problem(
            f"each mask must be an integer literal within the {length} entries",
            "write the masks `Tensor.__getitem__` builds (explain --fix does)",
        )
    ellipsis, new, shrink = (
        mask if isinstance(mask := masks[name], int) else 0 for name in INDEX_MASKS[2:]
    )
    if ellipsis & (ellipsis - 1) or ellipsis & new or ellipsis & shrink or new & shrink:
        return Problem(
            "an entry may be one of an ellipsis (one at most), a new axis or a dropped axis",
            "write the masks `Tensor.__getitem__` builds (explain --fix does)",
        )
    added, dropped = new.bit_count(), shrink.bit_count()
    indexed = length - ellipsis.bit_count() - added
    if indexed > ranks[0]:
        return Problem(
            f"the index reads {indexed} axes of a rank-{ranks[0]} tensor "
            "(TensorFlow raises InvalidArgumentError)",
            "index at most as many axes as the tensor has",
        )
    rank = ranks[0] - dropped + added
    if not 0 <= rank <= spec.MAX_RANK:
        return Problem(
            f"the result would have rank {rank}; rxt-tf tensors have ranks 0 to {spec.MAX_RANK}",
            "add fewer axes",
        )
    derived = (("indexed_axes", indexed), ("shrink_axes", dropped), ("new_axes", added))
    return Typed(rank, derived=derived)


def einsum(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``einsum``: the equation gives the result's rank (Rextio offers no such site)."""
    del ranks, keywords
    return Problem(
        "`tf.einsum` takes its equation before the tensors", "keep `tf.einsum` on Python"
    )


def _filled(rule: str) -> RuleFunction:
    """``fill``, ``zeros``, ``ones``: the rank is the number of sizes, each at least 0."""

    def typed(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
        sizes = keywords.lists[0] if keywords.lists else ()
        if any(size < 0 for size in sizes):
            return Problem(
                f"`{sizes!r}`: each size is at least 0 (TensorFlow raises InvalidArgumentError)",
                "write non-negative sizes",
            )
        return _sized(rule, ranks, sizes)

    typed.__doc__ = f"``{rule}``: the rank is the number of sizes, each at least 0."
    return typed


def contraction_axes(value: Literal | None, side: int, rank: int) -> tuple[int, ...] | None:
    """The axes of operand ``side`` (0 or 1) a ``tf.tensordot`` ``axes`` value contracts.

    Counted from the front, if they fit a rank-``rank`` tensor. A count ``n`` is the last
    ``n`` axes of the first with the first ``n`` of the second (``spec.COUNTED_AXES``); a
    pair of ints one axis of each (Rextio reports no nested tuple).
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return spec.COUNTED_AXES.get((value, side, rank))
    if not isinstance(value, tuple) or len(value) != 2:
        return None
    axis = spec.NORMALIZED_AXES.get(rank, {}).get(value[side])
    return None if axis is None else (axis,)


def contract(ranks: tuple[int, ...], keywords: Keywords) -> Typed | Problem:
    """``contract``: the free axes of both operands, ``a + b - 2n`` for ``n`` axes each."""
    value = keywords.value("axes")
    first = contraction_axes(value, 0, ranks[0])
    second = contraction_axes(value, 1, ranks[1])
    if first is None or second is None:
        return Problem(
            f"`axes={value!r}` does not fit operands of ranks {ranks[0]} and {ranks[1]}: "
            "each side's axes must be in range",
            "write axes each operand has",
        )
    if result_rank("contract", ranks, len(first)) is None:
        rank = ranks[0] + ranks[1] - 2 * len(first)
        return Problem(
            f"the result would have rank {rank}; rxt-tf tensors have ranks 0 to {spec.MAX_RANK}",
            "contract more axes, or smaller operands",
        )
    return _typed("contract", ranks, len(first))


_FUNCTIONS: dict[str, RuleFunction] = {
    "same-rank": _ranks_only("same-rank"),
    "broadcast": _ranks_only("broadcast"),
    "matmul": _ranks_only("matmul"),
    "bias-add": _ranks_only("bias-add"),
    "reduce": reduce,
    "along-axis": _along("along-axis"),
    "arg-reduce": _along("arg-reduce", dtype_keyword="output_type"),
    "permute": permute,
    "convert": _of_type("convert", "dtype"),
    "expand-dims": _along("expand-dims", new_axis=True),
    "shape": _of_type("shape", "out_type"),
    "squeeze": squeeze,
    "select": _ranks_only("select"),
    "reshape": reshape,
    "per-axis": per_axis,
    "gather": gather,
    "window": window,
    "join": _along("join"),
    "stack": _along("stack", new_axis=True),
    "index": index,
    "split": _along("split"),
    "split-sizes": _along("split-sizes"),
    "unstack": _along("unstack"),
    "top-k": _ranks_only("top-k"),
    "one-hot": _along("one-hot", new_axis=True),
    "pad": _ranks_only("pad"),
    "fill": _filled("fill"),
    "filled": _filled("filled"),
    "sequence": _ranks_only("sequence"),
    "clip": _ranks_only("clip"),
    "sort": _along("sort"),
    "eye": _ranks_only("eye"),
    "moments": moments,
    "conv": _ranks_only("conv"),
    "pool": _ranks_only("pool"),
    "normalize": _ranks_only("normalize"),
    "einsum": einsum,
    "contract": contract,
    "fused-normalize": _ranks_only("fused-normalize"),
}
"""The rule function of each rule name."""

RULES: dict[str, RuleFunction] = {name: _FUNCTIONS[name] for name in spec.RULE_NAMES}
"""Every rule of the op table (``spec.RULE_NAMES``), by ``OpRow.rule``: a rule the crate
gains without a function here fails the plugin's import, never a site."""
