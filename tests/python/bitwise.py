"""Comparing results bit for bit (the Rextio certification kit's `equals`)."""

from __future__ import annotations


def same_bits(native: object, fallback: object) -> bool:
    """Rextio certification's ``equals``: the same tensors bit for bit.

    Type, dtype, shape and every element's bits, NaN places and signed zeros
    included (nested tuples and lists element by element).
    """
    import numpy as np

    if isinstance(native, tuple | list) or isinstance(fallback, tuple | list):
        return (
            type(native) is type(fallback)
            and len(native) == len(fallback)  # type: ignore[arg-type]
            and all(same_bits(a, b) for a, b in zip(native, fallback))  # type: ignore[call-overload]
        )
    if type(native) is not type(fallback):
        return False
    if not hasattr(native, "numpy"):
        return bool(native == fallback)
    left, right = np.asarray(native), np.asarray(fallback)
    return (
        left.dtype == right.dtype
        and left.shape == right.shape
        and left.tobytes() == right.tobytes()
    )
