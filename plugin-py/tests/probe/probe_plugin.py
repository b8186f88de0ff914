"""A Rextio plugin that claims every site it is offered: the probe.

It covers ``tensorflow`` with the same annotation markers as rxt-tf (keys
under ``probe/``), and answers every ``claim`` with ``Claimed``, typed as a
tensor of the first tensor operand's type (or a float32 scalar). What Rextio
still refuses with this plugin enabled is the host's limit; what it accepts
is a plugin's choice. Each offered site is appended, as a JSON line, to the
file named by ``RXT_TF_PROBE_LOG`` (when set).

Only ``rextio check`` runs with it: its lowerings are never built.
"""

from __future__ import annotations

import json
import os
from typing import Any

from rextio.plugins.api import (
    BoundaryConversion,
    Claimed,
    CoverageDecl,
    LoweredExpr,
    PluginType,
    RuleRecord,
    RuleScope,
)

from rxt_tf_plugin import spec

PROBE_ID = "probe"
RULE = "probe/everything"
KINDS = ("call", "binop", "compare")


def _key(kind: str, rank: int) -> str:
    return f"{PROBE_ID}/tensor-{kind}-cpu-{rank}d"


class ProbePlugin:
    """Claims everything (plugin API 1.7)."""

    plugin_id = PROBE_ID
    api_version = "1.7"

    def to_rextio_plugin(self) -> dict[str, object]:
        return {
            "id": PROBE_ID,
            "name": "claim-everything probe",
            "source_language": "python",
            "target_language": "rust",
            "packages": ["tensorflow"],
        }

    def covers(self) -> Any:
        return CoverageDecl(packages=("tensorflow",), modules=(), symbols=())

    def describe(self, config: Any) -> Any:
        del config
        return tuple(
            RuleRecord(
                id=f"{RULE}-{kind}",
                provider=PROBE_ID,
                scope=RuleScope(kind=kind, pattern="anything"),
                constraint="none",
                outcome="native",
                diagnostic_code=f"RXTP-PROBE-{index:03d}",
                guidance="probe",
            )
            for index, kind in enumerate(KINDS, 1)
        )

    def type_vocabulary(self) -> Any:
        return tuple(
            PluginType(
                key=_key(short, rank),
                annotations=(f"rxt_tf_plugin.types.{marker}",),
                rust_type=f"::rxt_tf::{marker}",
                conversion=BoundaryConversion(
                    param_rust=f"::rxt_tf::{marker}",
                    param_expr="{param}",
                    return_rust=f"::rxt_tf::{marker}",
                    return_expr="{value}",
                ),
            )
            for marker, short, _dtype, rank in spec.TENSOR_KINDS
        )

    def claim(self, site: Any, config: Any) -> Any:
        del config
        log = os.environ.get("RXT_TF_PROBE_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps(_record(site)) + "\n")
        types = [str(t) for t in site.operand_types if str(t).startswith(f"{PROBE_ID}/")]
        return Claimed(rule_id=f"{RULE}-{site.kind}", result_type=(types or [_key("f32", 0)])[0])

    def lower(self, claimed: Any, ctx: Any) -> Any:
        del claimed, ctx
        return LoweredExpr(rust="()")

    def crate_dependencies(self) -> Any:
        return ()


def _record(site: Any) -> dict[str, Any]:
    receiver = getattr(site, "receiver", None)
    return {
        "kind": str(site.kind),
        "target": str(site.target),
        "line": int(site.line),
        "column": int(site.column),
        "operand_types": [None if t is None else str(t) for t in site.operand_types],
        "literals": [
            getattr(lit, "value", None) if getattr(lit, "is_literal", False) else "?"
            for lit in getattr(site, "operand_literals", ()) or ()
        ],
        "keywords": [str(k.name) for k in getattr(site, "keywords", ()) or ()],
        "receiver": None if receiver is None else repr(receiver),
        "expression": None if site.expression is None else repr(site.expression)[:2000],
    }


def plugin() -> ProbePlugin:
    """Entry-point factory."""
    return ProbePlugin()
