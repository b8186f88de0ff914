"""Methods of a tensor the plugin claims: ``x.get_shape()``.

Rextio offers a method call on a plugin-typed receiver as a call site whose
target ends with the method's name and whose ``receiver`` holds the
receiver's type. ``x.get_shape()`` of an eager tensor is its ``TensorShape``,
every dimension known; the plugin types it ``list[int]`` (Rextio indexes
such a list, ``[-1]`` included, and takes its ``len``) and lowers it to the
runtime tensor's ``shape()``, the same sizes. (``x.shape`` is the same
``TensorShape``, but Rextio offers no attribute: ``explain --fix`` writes
``x.shape[i]`` and ``len(x.shape)`` of an annotated tensor as
``x.get_shape()[i]`` and ``len(x.get_shape())``.)

A ``list[int]`` is the ``TensorShape`` where it is read as sizes (an int
index, ``len``, iteration), not everywhere: compared with a tuple
(``x.get_shape() == (2, 3)`` is true in Python, a list is not equal to a
tuple), printed (``(2, 3)`` against ``[2, 3]``), sliced (a list, not a
``TensorShape``), or tested for truth at rank 0, a native function gives
the list's answer. Rextio offers the call without what surrounds it, so
the plugin cannot tell those reads apart; the guide says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rxt_tf_plugin.ops import PLUGIN_ID, tensor_type


@dataclass(frozen=True)
class Method:
    """A tensor method the plugin claims."""

    name: str
    rule_id: str
    code: str
    result_type: str
    rust: str
    """The Rust of a call, ``{receiver}`` standing for the receiver."""
    pattern: str


METHODS = {
    "get_shape": Method(
        name="get_shape",
        rule_id=f"{PLUGIN_ID}/get-shape-cpu",
        code="RXTP-RXTTF-901",
        result_type="list[int]",
        rust="(({receiver}).shape()?)",
        pattern="x.get_shape()",
    ),
}
"""The claimed methods by name. Their codes count down from 999, apart
from the op table's (which count up from 1)."""


def method_of(site: Any) -> Method | None:
    """The claimed method a receiver site calls, if it is one on an rxt-tf tensor."""
    receiver = getattr(site, "receiver", None)
    if receiver is None or str(getattr(site, "kind", "")) != "call":
        return None
    method = METHODS.get(str(site.target).rpartition(".")[2])
    if method is None or tensor_type(getattr(receiver, "arg_type", None)) is None:
        return None
    if tuple(site.operand_types) or tuple(getattr(site, "keywords", ()) or ()):
        return None  # `get_shape()` takes nothing
    return method


def lower_method(method: Method, receiver: str) -> str:
    """The Rust of ``method`` called on the rendered ``receiver``."""
    if not receiver.strip():
        raise ValueError(f"rxt-tf: `{method.name}()` received an empty receiver")
    return method.rust.replace("{receiver}", receiver.strip())
