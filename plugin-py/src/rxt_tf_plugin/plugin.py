"""The Rextio provider object behind the ``rxt-tf`` entry point.

Rextio 0.1.3 (API 1.3) through 0.1.8 (API 1.7) load it. On a host that offers
plugin API 1.7 the provider declares 1.7 and adds a function-scope guard, so
each generated function's ops run fused (one TensorFlow call); on an older host
it declares 1.3, uses only what 1.3 defines, and the ops run one by one.
Rextio's modules are imported lazily, so loading the entry point stays cheap,
and TensorFlow is never imported.
"""

from __future__ import annotations

from typing import Any

from rxt_tf_plugin import __version__
from rxt_tf_plugin.ops import CRATE_NAME, PLUGIN_ID

REQUIRED_PLUGIN_API = "1.3"
"""The plugin API this provider needs at least."""

SCOPE_GUARD_API = "1.7"
"""The plugin API whose ``function_scope_guard`` hook fuses a function's ops."""

COMPARE_API = "1.5"
"""The plugin API that offers comparison sites (``a > b``) to plugins."""

FUSION_GUARD = "rxt_tf::fusion::Scope::fused()"
"""The guard the fusing provider puts around each generated native body."""


class RxtTfPlugin:
    """Claims the seed's TensorFlow forms and lowers each to ``::rxt_tf::tf!``."""

    plugin_id = PLUGIN_ID
    api_version = REQUIRED_PLUGIN_API

    def to_rextio_plugin(self) -> dict[str, object]:
        """The v1 metadata Rextio registers the plugin under."""
        return {
            "id": PLUGIN_ID,
            "name": f"rxt-tf (TensorFlow 2.21.0 via rxt_tf::tf!, rxt-tf-plugin {__version__})",
            "source_language": "python",
            "target_language": "rust",
            "packages": ["tensorflow"],
        }

    def covers(self) -> Any:
        """The packages, modules and symbols covered."""
        from rxt_tf_plugin.rules import coverage

        return coverage()

    def describe(self, config: Any) -> Any:
        """The rule records (independent of the project configuration)."""
        from rxt_tf_plugin.rules import rule_records

        del config
        return rule_records(compare=_api(self.api_version) >= _api(COMPARE_API))

    def type_vocabulary(self) -> Any:
        """The annotation markers and their Rust tensor types."""
        from rxt_tf_plugin.rules import plugin_types

        return plugin_types()

    def claim(self, site: Any, config: Any) -> Any:
        """``Claimed``, ``Rejected`` (with a diagnostic) or ``NotCovered``."""
        from rextio.analyzer.diagnostics import Diagnostic
        from rextio.plugins.api import Claimed, NotCovered, Rejected

        from rxt_tf_plugin.claim import decide
        from rxt_tf_plugin.methods import method_of

        del config
        method = method_of(site)
        if method is not None:
            return Claimed(rule_id=method.rule_id, result_type=method.result_type)
        verdict = decide(site)
        if verdict.outcome == "claimed" and verdict.op and verdict.result:
            return Claimed(rule_id=verdict.op.rule_id, result_type=verdict.result.key)
        if verdict.outcome == "rejected" and verdict.code:
            return Rejected(
                diagnostic=Diagnostic(
                    code=verdict.code,
                    severity="warning",
                    message=verdict.message,
                    file_path=str(site.file_path),
                    line=int(site.line),
                    column=int(site.column),
                    suggestion=verdict.suggestion,
                )
            )
        return NotCovered()

    def lower(self, claimed: Any, ctx: Any) -> Any:
        """One ``::rxt_tf::tf!(...)?`` expression; ``ValueError`` if the claim does not hold."""
        from rextio.plugins.api import LoweredExpr

        from rxt_tf_plugin.lower import lower_rust
        from rxt_tf_plugin.methods import lower_method, method_of

        language = getattr(ctx, "target_language", "rust")
        if language != "rust":
            raise ValueError(f"rxt-tf: lowering targets Rust only, not {language!r}")
        method = method_of(claimed)
        if method is not None:
            return LoweredExpr(rust=lower_method(method, str(getattr(ctx, "receiver", "") or "")))
        operands = tuple(str(operand) for operand in ctx.operands)
        return LoweredExpr(rust=lower_rust(claimed, operands, getattr(ctx, "receiver", None)))

    def crate_dependencies(self) -> Any:
        """``rxt-tf`` at the exact version of this plugin."""
        from rextio.plugins.api import CrateDependency

        return (CrateDependency(name=CRATE_NAME, version=f"={__version__}"),)


class FusingRxtTfPlugin(RxtTfPlugin):
    """The provider for hosts with plugin API 1.7: fuses each function's ops."""

    api_version = SCOPE_GUARD_API

    def function_scope_guard(self, ctx: Any) -> Any:
        """A fusion scope around a native body that uses rxt-tf.

        None when the body calls back into Python, which a guard must not span.
        """
        from rextio.plugins.api import PluginFunctionScopeGuard

        if getattr(ctx, "has_python_boundary_calls", False):
            return None
        return PluginFunctionScopeGuard(rust=FUSION_GUARD)


def _api(version: str) -> tuple[int, int]:
    """``"1.7"`` as ``(1, 7)``; ``(0, 0)`` for anything else."""
    major, _, minor = str(version).partition(".")
    try:
        return (int(major), int(minor or 0))
    except ValueError:
        return (0, 0)


def host_api_version() -> tuple[int, int]:
    """The plugin API of the Rextio that loads the plugin, as ``(major, minor)``."""
    from rextio.plugins.api import PLUGIN_API_VERSION

    return _api(str(PLUGIN_API_VERSION))


def plugin() -> RxtTfPlugin:
    """Entry-point factory for the ``rextio.plugins`` group.

    The fusing provider where the host offers plugin API 1.7, the API 1.3 one
    elsewhere.
    """
    major, minor = (int(part) for part in SCOPE_GUARD_API.split("."))
    if host_api_version() >= (major, minor):
        return FusingRxtTfPlugin()
    return RxtTfPlugin()
