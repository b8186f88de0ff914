"""Claim outcomes of comparisons (``a > b``, plugin API 1.5) and of
``tf.strided_slice`` as ``Tensor.__getitem__`` calls it, with rule ids and
result types written out: part of ``test_claim_accepted.ACCEPTED``, and the
rejected forms, part of ``test_claim_rejected``.
"""

from __future__ import annotations

from sites import (
    B1,
    B2,
    B3,
    B4,
    FVAR,
    I32_0,
    I32_1,
    I32_2,
    T0,
    T1,
    T2,
    T3,
    T4,
    F,
    call,
    compare,
    kw,
    lit,
)


def _slice(
    tensor: str,
    begin: tuple[int, ...],
    end: tuple[int, ...],
    strides: tuple[int, ...],
    **masks: int,
) -> object:
    return call(
        "tensorflow.strided_slice",
        tensor,
        lit(begin),
        lit(end),
        lit(strides),
        keywords=tuple(kw(name, value) for name, value in masks.items()),
    )


COMPARES = [
    (compare(">", T2, lit(0)), "rxt-tf/greater-operator-cpu", B2),
    (compare(">=", T3, T3), "rxt-tf/greater-equal-operator-cpu", B3),
    (compare("<", lit(0), T1), "rxt-tf/less-operator-cpu", B1),
    (compare("<=", T2, FVAR), "rxt-tf/less-equal-operator-cpu", B2),
    (compare("==", I32_2, lit(0)), "rxt-tf/equal-operator-cpu", B2),
    (compare("!=", T4, F), "rxt-tf/not-equal-operator-cpu", B4),
    # A scalar tensor always broadcasts.
    (compare("==", I32_1, I32_0), "rxt-tf/equal-operator-cpu", B1),
]

SLICES = [
    # t[-1] of a matrix: the last row.
    (_slice(T2, (-1,), (0,), (1,), shrink_axis_mask=1), "rxt-tf/strided-slice-cpu", T1),
    # x[:, 1:]
    (_slice(T2, (0, 1), (0, 0), (1, 1), begin_mask=3, end_mask=3), "rxt-tf/strided-slice-cpu", T2),
    # x[..., None] of rank 3.
    (
        _slice(T3, (0, 0), (0, 0), (1, 1), ellipsis_mask=1, new_axis_mask=2),
        "rxt-tf/strided-slice-cpu",
        T4,
    ),
    # tf.shape(k)[-1]: an int32 scalar.
    (_slice(I32_1, (-1,), (0,), (1,), shrink_axis_mask=1), "rxt-tf/strided-slice-cpu", I32_0),
    # seq[:, None, None, :] of a matrix.
    (
        _slice(
            T2, (0, 0, 0, 0), (0, 0, 0, 0), (1, 1, 1, 1), begin_mask=9, end_mask=9, new_axis_mask=6
        ),
        "rxt-tf/strided-slice-cpu",
        T4,
    ),
    # x[0, 0] of a vector of rank 2 to a scalar.
    (_slice(T2, (0, 0), (1, 1), (1, 1), shrink_axis_mask=3), "rxt-tf/strided-slice-cpu", T0),
]

REJECTED_FORMS = [
    # Two tensors: `Tensor.__eq__` gives a scalar where shapes do not broadcast.
    compare("==", T2, T2),
    compare("!=", T2, T1),
    # Lists of different lengths.
    _slice(T2, (0, 1), (0,), (1, 1)),
    # A mask beyond the entries.
    _slice(T2, (0,), (0,), (1,), begin_mask=2),
    # An entry both a new axis and a dropped axis.
    _slice(T2, (0,), (1,), (1,), new_axis_mask=1, shrink_axis_mask=1),
    # Two ellipses.
    _slice(T2, (0, 0), (0, 0), (1, 1), ellipsis_mask=3),
    # More axes read than the tensor has.
    _slice(T1, (0, 0), (1, 1), (1, 1), shrink_axis_mask=3),
    # The counts are the plugin's to derive, not Python's to pass.
    _slice(T2, (0,), (1,), (1,), shrink_axes=1),
    # A rank-6 result.
    _slice(T4, (0, 0), (0, 0), (1, 1), new_axis_mask=3),
]
