"""Rextio loads the plugin: entry point, API version, rules, types, crate pin."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from sites import rule_id

import rxt_tf_plugin
from rxt_tf_plugin import spec, types
from rxt_tf_plugin.methods import METHODS
from rxt_tf_plugin.ops import OPS, covered_symbols
from rxt_tf_plugin.plugin import plugin

ROOT = Path(__file__).resolve().parents[2]
REXTIO_013 = ROOT / ".venv" / "rextio-0.1.3"

LOAD = r"""
import json
import rextio
from rextio.config.schema import PluginConfig
from rextio.plugins.api import PLUGIN_API_VERSION
from rextio.plugins.loader import load_plugin_registry
from rextio.targets.models import TargetSpec
registry = load_plugin_registry(PluginConfig(enabled=("rxt-tf",)), TargetSpec())
print(json.dumps({
    "rextio": rextio.__version__,
    "host_api": PLUGIN_API_VERSION,
    "active": [p.id for p in registry.active],
    "api_version": [p.api_version for p in registry.active],
    "rules": [[r.id, r.diagnostic_code, r.outcome] for r in registry.rule_records],
    "types": [[b.plugin_type.key, list(b.plugin_type.annotations), b.plugin_type.rust_type]
              for b in registry.types],
    "crates": [[c.dependency.name, c.dependency.version] for c in registry.crate_dependencies],
}))
"""


@pytest.mark.parametrize("version", ["0.1.8", "0.1.3"])
def test_rextio_loads_the_plugin(version: str) -> None:
    env = dict(os.environ)
    if version == "0.1.3":
        assert (REXTIO_013 / "rextio").is_dir(), "run ci/setup.sh"
        env["PYTHONPATH"] = str(REXTIO_013)
    out = subprocess.run(
        [sys.executable, "-c", LOAD], env=env, capture_output=True, text=True, check=True
    )
    loaded = json.loads(out.stdout)
    assert loaded["rextio"] == version
    assert loaded["active"] == ["rxt-tf"]
    # The fusing provider (API 1.7) where the host offers it, API 1.3 elsewhere.
    assert loaded["api_version"] == (["1.7"] if version == "0.1.8" else ["1.3"])
    rule_ids = [rule[0] for rule in loaded["rules"]]
    # Every rule of the ops in table order, then the fallbacks for calls and
    # operators; comparison rules only where the host offers comparisons (1.5).
    compares = version != "0.1.3"
    assert rule_ids == [
        *(op.rule_id for op in OPS if compares or op.kind != "compare"),
        *(method.rule_id for method in METHODS.values()),
        *(fallback.rule_id for fallback in spec.FALLBACKS),
    ]
    assert len(set(rule_ids)) == len(rule_ids)
    assert any(op.kind == "compare" for op in OPS)
    for op in spec.OPS:
        for rule in op.rules:
            assert (rule.rule_id in rule_ids) == (compares or rule.kind != "compare"), rule
    codes = {rule: code for rule, code, _ in loaded["rules"]}
    for fallback in spec.FALLBACKS:
        assert codes[fallback.rule_id] == fallback.code
    for method in METHODS.values():
        assert codes[method.rule_id] == method.code
    assert codes[rule_id("matmul")] == "RXTP-RXTTF-001"
    assert codes[rule_id("argmax")] == "RXTP-RXTTF-036"
    assert len(set(codes.values())) == len(codes)
    for rule, code, outcome in loaded["rules"]:
        assert re.fullmatch(r"RXTP-RXTTF-\d{3}", code), code
        assert outcome == ("fallback" if "/unsupported-tensor-" in rule else "native")
    # Every element type at every rank, float32 first, each rank in order.
    assert loaded["types"] == [
        [
            f"rxt-tf/tensor-{short}-cpu-{rank}d",
            [f"rxt_tf_plugin.types.Tensor{infix}Cpu{rank}D"],
            f"::rxt_tf::Tensor{infix}Cpu{rank}D",
        ]
        for short, infix in (
            ("f32", "F32"),
            ("f64", "F64"),
            ("bf16", "Bf16"),
            ("f16", "F16"),
            ("i32", "I32"),
            ("i64", "I64"),
            ("bool", "Bool"),
        )
        for rank in range(6)
    ]
    assert [
        "rxt-tf/tensor-i32-cpu-3d",
        ["rxt_tf_plugin.types.TensorI32Cpu3D"],
        "::rxt_tf::TensorI32Cpu3D",
    ] in loaded["types"]
    assert loaded["crates"] == [["rxt-tf", f"={rxt_tf_plugin.__version__}"]]


def test_coverage_holds_the_seeds_symbols() -> None:
    coverage = plugin().covers()
    assert coverage.packages == ("tensorflow",)
    assert covered_symbols() == coverage.symbols
    assert len(set(coverage.symbols)) == len(coverage.symbols)
    seed = {
        "tensorflow.matmul",
        "tensorflow.linalg.matmul",
        "tensorflow.nn.relu",
        "tensorflow.nn.sigmoid",
        "tensorflow.add",
        "tensorflow.math.add",
        "tensorflow.reduce_mean",
        "tensorflow.math.reduce_mean",
    }
    assert seed <= set(coverage.symbols)
    assert set(coverage.modules) == {s.rpartition(".")[0] for s in coverage.symbols}


def test_version_matches_the_crate() -> None:
    manifest = tomllib.loads((ROOT / "Cargo.toml").read_text())
    assert manifest["package"]["name"] == "rxt-tf"
    assert manifest["workspace"]["package"]["version"] == rxt_tf_plugin.__version__
    project = tomllib.loads((ROOT / "plugin-py" / "pyproject.toml").read_text())
    assert project["project"]["version"] == rxt_tf_plugin.__version__
    assert project["project"]["entry-points"]["rextio.plugins"] == {
        "rxt-tf": "rxt_tf_plugin.plugin:plugin"
    }


def test_the_guide_lists_every_rule() -> None:
    readme = (ROOT / "guide" / "src" / "reference" / "rextio-rules.md").read_text()
    for op in spec.OPS:
        for rule in op.rules:
            assert f"`{rule.rule_id}`" in readme, rule.rule_id
            assert f"`{rule.code}`" in readme, rule.code
    for fallback in spec.FALLBACKS:
        assert f"`{fallback.rule_id}`" in readme, fallback.rule_id
        assert f"`{fallback.code}`" in readme, fallback.code


def test_markers_import_nothing() -> None:
    code = (
        "import sys, rxt_tf_plugin.types, rxt_tf_plugin.plugin; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('tensorflow', 'rextio')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert types.TensorF32Cpu2D.__module__ == "rxt_tf_plugin.types"
    assert len(types.__all__) == 42
    assert types.__all__ == sorted(types.__all__)
    for name in (
        "TensorF32Cpu0D",
        "TensorF64Cpu2D",
        "TensorBf16Cpu3D",
        "TensorF16Cpu0D",
        "TensorI32Cpu3D",
        "TensorI64Cpu1D",
        "TensorBoolCpu4D",
        "TensorF32Cpu5D",
    ):
        assert name in types.__all__
    for name in types.__all__:
        marker = getattr(types, name)
        assert marker.__module__ == "rxt_tf_plugin.types"
        assert "plugin type ``rxt-tf/tensor-" in (marker.__doc__ or ""), name
    assert "``rxt-tf/tensor-bool-cpu-4d``" in (types.TensorBoolCpu4D.__doc__ or "")


def test_rule_records_match_what_is_claimed_and_emitted() -> None:
    from rxt_tf_plugin.rules import rule_records

    records = {record.id: record for record in rule_records()}
    plus = records[rule_id("add", "binop")]
    assert (plus.scope.kind, plus.scope.pattern) == ("binop", "a + b")
    assert "::rxt_tf::tf!(a + b)" in plus.guidance
    at = records[rule_id("matmul", "binop")]
    assert (at.scope.kind, at.scope.pattern) == ("binop", "a @ b")
    assert "::rxt_tf::tf!(matmul(...))" in at.guidance
    mean = records[rule_id("reduce_mean")]
    assert mean.scope.kind == "call"
    assert "tensorflow.reduce_mean(x, axis=...)" in mean.scope.pattern
    fallbacks = {
        record.scope.kind: record.id for record in records.values() if record.outcome == "fallback"
    }
    assert fallbacks == {fallback.kind: fallback.rule_id for fallback in spec.FALLBACKS}


def test_every_rule_record_shows_its_rewrite() -> None:
    # `rextio check` and `rextio capabilities` show guidance and fix_template.
    from rxt_tf_plugin.rules import rule_records

    for record in rule_records():
        assert "python -m rxt_tf_plugin explain" in record.guidance, record.id
        template = record.fix_template
        assert template is not None and set(template) == {"before", "after", "command"}, record.id
        assert template["command"] == "python -m rxt_tf_plugin explain --fix"
        assert template["before"] != template["after"], record.id
    cast = next(r for r in rule_records() if r.id == "rxt-tf/cast-cpu")
    assert cast.fix_template == {
        "before": "tf.cast(x, dtype=tf.float32)",
        "after": 'tf.cast(x, dtype="float32")',
        "command": "python -m rxt_tf_plugin explain --fix",
    }
