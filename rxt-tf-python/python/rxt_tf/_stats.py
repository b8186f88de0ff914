"""The types of `rxt_tf.stats()`'s result."""

from __future__ import annotations

from typing import TypedDict

__all__ = ["ExactStats", "Fallbacks", "LitertStats", "Stats"]


class Fallbacks(TypedDict):
    """Calls that went through TensorFlow's own function, by reason."""

    tape: int
    """A gradient tape or forward accumulator recorded on the thread."""
    not_eager: int
    """A graph was being built, a device scope was open, or execution was
    asynchronous."""
    functions_run_eagerly: int
    """`tf.config.run_functions_eagerly(True)` was set."""
    argument: int
    """An argument rxt-tf does not key (a `tf.Variable`, a NumPy value, an
    object)."""
    binding: int
    """The arguments did not bind to the function's parameters."""
    signature: int
    """A signature whose inputs or outputs rxt-tf does not pass."""
    device: int
    """A tensor argument on another device than `CPU:0`."""


class LitertStats(TypedDict):
    """What `backend="litert"` did, in the whole process."""

    calls: int
    """Calls run through LiteRT."""
    fallbacks: int
    """Calls asked of LiteRT that ran on TensorFlow."""
    compiles: int
    """Converted models compiled for an input shape."""
    conversions: int
    """Conversions tried, converted or not."""
    reasons: dict[str, str]
    """Each function that fell back, with its first reason."""


class ExactStats(TypedDict):
    """How `exact` calls ran, in the whole process."""

    inlined: int
    """As one `StatefulPartitionedCall` proven to run the `tf.function`'s
    graph."""
    by_name: int
    """As TensorFlow's own eager call of the definition, by name."""


class Stats(TypedDict):
    """`rxt_tf.stats()`: counts since the process started or `reset_stats()`."""

    native: int
    """Calls run natively by an `rxt_tf.function` or `Predictor`."""
    traces: int
    """New keys: concrete functions asked of TensorFlow."""
    fallbacks: Fallbacks
    """Calls that went through TensorFlow's own function, by reason."""
    litert: LitertStats
    """What `backend="litert"` did."""
    exact: ExactStats
    """How `exact` calls ran."""
