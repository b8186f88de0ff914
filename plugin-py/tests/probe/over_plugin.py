"""rxt-tf, plus a claim of every site it refuses: the over-claiming probe.

It is the rxt-tf provider itself (same id, rules, types and claims), except
that where rxt-tf answers ``Rejected`` or ``NotCovered`` it answers
``Claimed``, typed as the first rxt-tf tensor operand's type (or a float32
scalar). A function that stays on Python with it stays there for a reason
no claim of rxt-tf's could change. Each site it claims beyond rxt-tf is
appended, as a JSON line, to the file named by ``RXT_TF_PROBE_LOG``.

Rextio finds it by the entry point of a shadow ``rxt-tf-plugin``
distribution put first on ``PYTHONPATH``; only ``rextio check`` runs with it.
"""

from __future__ import annotations

import json
import os
from typing import Any

from rextio.plugins.api import Claimed, RuleRecord, RuleScope

from rxt_tf_plugin.ops import PLUGIN_ID
from rxt_tf_plugin.plugin import FusingRxtTfPlugin

KINDS = ("call", "binop", "compare")
FIRST_CODE = 990
"""The probe's rule codes: past every code of rxt-tf's own rules."""


def _rule(kind: str) -> str:
    return f"{PLUGIN_ID}/probe-everything-{kind}"


class OverClaimingPlugin(FusingRxtTfPlugin):
    """rxt-tf's claims, and ``Claimed`` wherever rxt-tf declines."""

    def describe(self, config: Any) -> Any:
        own = tuple(super().describe(config))
        return own + tuple(
            RuleRecord(
                id=_rule(kind),
                provider=PLUGIN_ID,
                scope=RuleScope(kind=kind, pattern="anything"),
                constraint="none",
                outcome="native",
                diagnostic_code=f"RXTP-RXTTF-{FIRST_CODE + index:03d}",
                guidance="probe",
            )
            for index, kind in enumerate(KINDS)
        )

    def claim(self, site: Any, config: Any) -> Any:
        answer = super().claim(site, config)
        if isinstance(answer, Claimed):
            return answer
        log = os.environ.get("RXT_TF_PROBE_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps({"target": str(site.target), "line": int(site.line)}) + "\n")
        types = [str(t) for t in site.operand_types if str(t).startswith(f"{PLUGIN_ID}/")]
        fallback = f"{PLUGIN_ID}/tensor-f32-cpu-0d"
        return Claimed(rule_id=_rule(str(site.kind)), result_type=(types or [fallback])[0])


def plugin() -> OverClaimingPlugin:
    """Entry-point factory."""
    return OverClaimingPlugin()
