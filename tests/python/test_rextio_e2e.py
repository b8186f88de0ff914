"""End to end: real `rextio build`s (0.1.8 and 0.1.3) of a project using the plugin.

Each build runs cargo on Rextio's generated crate, which depends on `rxt-tf`
through the `[patch.crates-io]` entry `python -m rxt_tf_plugin setup` writes.
The built module then runs in a fresh interpreter in forced native mode.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bitwise import same_bits
from rxt_tf_plugin import spec

ROOT = Path(__file__).resolve().parents[2]
PROJECT = Path(__file__).parent / "rextio_project"
REXTIO_013 = ROOT / ".venv" / "rextio-0.1.3"


def rule_id(op: str, kind: str = "call") -> str:
    """The rule id of ``op``'s ``kind`` form, from the plugin's generated table."""
    return next(
        rule.rule_id
        for row in spec.OPS
        if row.name == op
        for rule in row.rules
        if rule.kind == kind
    )


NATIVE_RULES = {
    "inference": [rule_id("matmul"), rule_id("relu"),
                  rule_id("add", "binop"), rule_id("reduce_mean")],
    "inference_aliases": [rule_id("matmul"), rule_id("sigmoid"),
                          rule_id("add"), rule_id("reduce_mean")],
    "add_1d_1d": [rule_id("add", "binop"), rule_id("add")],
    "add_1d_2d": [rule_id("add"), rule_id("add", "binop")],
    "deep_inference": [rule_id("matmul"), rule_id("relu"),
                       rule_id("sigmoid"), rule_id("add", "binop"),
                       rule_id("reduce_mean")],
    "transposed": [rule_id("matmul")],
    "classifier_head": [rule_id("tanh"), rule_id("bias_add"),
                        rule_id("matmul", "binop"), rule_id("matmul"),
                        rule_id("add", "binop"), rule_id("softmax")],
    "classifier_labels": [rule_id("tanh"), rule_id("bias_add"),
                          rule_id("matmul"), rule_id("argmax"),
                          rule_id("matmul", "binop"), rule_id("add", "binop")],
    "layer_norm": [rule_id("reduce_mean"), rule_id("sub", "binop"),
                   rule_id("reduce_mean"), rule_id("square"),
                   rule_id("mul", "binop"), rule_id("mul", "binop"),
                   rule_id("add", "binop"), rule_id("rsqrt"), rule_id("add", "binop")],
    "scalars": [rule_id("mul", "binop"), rule_id("sub", "binop"), rule_id("maximum"),
                rule_id("div", "binop"), rule_id("mul", "binop"),
                rule_id("leaky_relu"), rule_id("div"),
                rule_id("sub", "binop")],
    "activations": [rule_id("elu"), rule_id("add", "binop"), rule_id("relu6"),
                    rule_id("softplus"), rule_id("abs"), rule_id("exp"),
                    rule_id("sub", "binop"), rule_id("neg"), rule_id("log"),
                    rule_id("sqrt"), rule_id("square"), rule_id("add", "binop"),
                    rule_id("transpose"), rule_id("minimum"),
                    rule_id("sigmoid"), rule_id("log_softmax"),
                    rule_id("transpose")],
    "reductions": [rule_id("reduce_sum"), rule_id("add", "binop"),
                   rule_id("sub", "binop"), rule_id("reduce_max"),
                   rule_id("reduce_min")],
    "log_probs": [rule_id("log_softmax"), rule_id("mul", "binop"),
                  rule_id("softmax")],
    # Ranks 3 and 4, and int32/int64 tensors: the rule ids predate them (they
    # still say f32 and 2d) but each rule now covers every rank and element type.
    "attention": [rule_id("matmul"), rule_id("softmax"),
                  rule_id("mul", "binop"), rule_id("matmul")],
    "pooled_features": [rule_id("relu"), rule_id("bias_add"),
                        rule_id("matmul", "binop"), rule_id("reduce_mean")],
    "sequence_encoder": [rule_id("relu"), rule_id("bias_add"),
                         rule_id("matmul", "binop"),
                         rule_id("reduce_mean")],
    "sequence_features": [rule_id("matmul"), rule_id("mul", "binop"),
                          rule_id("transpose"), rule_id("sub", "binop")],
    "token_predictions": [rule_id("argmax")],
    "token_predictions_named_i32": [rule_id("argmax")],
    "shift_ids": [rule_id("maximum"), rule_id("mul", "binop"),
                  rule_id("add", "binop"), rule_id("abs"), rule_id("sub", "binop")],
    "id_counts": [rule_id("reduce_sum"), rule_id("abs")],
    "id_ratios": [rule_id("reduce_sum"), rule_id("div", "binop")],
    "ids_as_floats": [rule_id("cast"), rule_id("mul", "binop")],
    "half_scaled": [rule_id("relu"), rule_id("mul", "binop"), rule_id("add", "binop"),
                    rule_id("reduce_sum"), rule_id("cast")],
    "id_totals": [rule_id("reduce_sum"), rule_id("add", "binop"),
                  rule_id("mul", "binop"), rule_id("sub", "binop"),
                  rule_id("reduce_max")],
    "split_heads": [rule_id("reshape"), rule_id("transpose")],
    "token_features": [rule_id("embedding_lookup"), rule_id("one_hot"), rule_id("gather"),
                       rule_id("slice"), rule_id("slice"), rule_id("add", "binop")],
    "masked_scores": [rule_id("where"), rule_id("greater"), rule_id("tile"),
                      rule_id("reverse"), rule_id("cumsum")],
    "ranked_scores": [rule_id("sort"), rule_id("cast"), rule_id("argsort"),
                      rule_id("add", "binop")],
    "rescaled_grid": ["rxt-tf/convert-to-tensor-cpu", rule_id("mul", "binop"), "rxt-tf/truediv-cpu",
                      rule_id("add", "binop"), rule_id("zeros"), rule_id("broadcast_to"),
                      rule_id("add", "binop"), rule_id("ones")],
    "plus_identity": [rule_id("add", "binop"), rule_id("add", "binop"), rule_id("eye"),
                      rule_id("fill")],
    "like_typed": ["rxt-tf/convert-to-tensor-cpu", rule_id("ones_like"), rule_id("zeros_like"),
                   rule_id("ones_like"), rule_id("sub", "binop"), rule_id("add", "binop"),
                   rule_id("cast")],
    "causal_scores": [rule_id("band_part"), rule_id("ones"), rule_id("band_part"),
                      rule_id("add", "binop")],
    "convolutions": ["rxt-tf/convolution-2d-cpu", "rxt-tf/convolution-1d-cpu",
                     rule_id("add", "binop"), rule_id("reduce_sum")],
    "dense_sequence": [rule_id("tensordot"), rule_id("tensordot"), rule_id("add", "binop"),
                       rule_id("tensordot"), rule_id("matmul", "binop"), rule_id("transpose")],
    "positions": [rule_id("range"), rule_id("mul", "binop"), rule_id("add", "binop"),
                  rule_id("sub", "binop"), rule_id("range"), rule_id("range")],
    "reshaped_heads": [rule_id("reshape"), rule_id("add", "binop"), rule_id("ones")],
    "last_step": [rule_id("strided_slice")],
    "split_last": [rule_id("reshape"), "rxt-tf/get-shape-cpu"],
    "runtime_axes": [rule_id("softmax"), rule_id("reduce_sum")],
    "positive_part": [rule_id("where"), rule_id("greater", "compare"), rule_id("zeros_like")],
}
COMPARES = {"positive_part"}
"""Native on Rextio 0.1.8 only: 0.1.3 offers no comparison to plugins."""
REJECTED = "positional_keepdims"
# `output_type=tf.int32`: Rextio refuses the attribute value before offering the
# call to the plugin, so the function stays on the Python route (not a candidate).
PYTHON_ROUTE = "token_predictions_i32"
OTHER_RESULTS = {"positions": "int32", "classifier_labels": "int64", "token_predictions": "int64",
               "token_predictions_i32": "int32", "token_predictions_named_i32": "int32",
               "shift_ids": "int32", "id_counts": "int32", "id_ratios": "float64",
               "id_totals": "int64"}
"""The functions returning integer or float64 tensors, by element type (compared
exactly); the rest return float32."""


class Build:
    """One project built by one Rextio release."""

    def __init__(self, version: str, root: Path) -> None:
        self.version = version
        self.root = root
        self.env = dict(os.environ)
        if version == "0.1.3":
            assert (REXTIO_013 / "rextio").is_dir(), "run ci/setup.sh"
            self.env["PYTHONPATH"] = str(REXTIO_013)
        self.seconds = 0.0
        self.output = ""

    def rextio(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "rextio.cli.main", *args], cwd=self.root,
                              env=self.env, capture_output=True, text=True, timeout=1200)

    @property
    def check(self) -> dict:  # type: ignore[type-arg]
        return json.loads((self.root / ".rextio" / "reports" / "check.json").read_text())

    def functions(self) -> dict[str, dict]:  # type: ignore[type-arg]
        return {f["name"]: f for m in self.check["modules"] for f in m["functions"]}


@pytest.fixture(scope="module", params=["0.1.8", "0.1.3"])
def build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Build:
    root = tmp_path_factory.mktemp(f"rextio-{request.param}")
    shutil.copy(PROJECT / "e2e_model.py", root)
    (root / "rextio.toml").write_text("[plugins]\nenabled = []\n")
    subprocess.run([sys.executable, "-m", "rxt_tf_plugin", "setup", str(root)], check=True,
                   capture_output=True)
    built = Build(request.param, root)
    assert built.rextio("--version").stdout.split() == ["rextio", request.param]
    start = time.perf_counter()
    result = built.rextio("build", ".")
    built.seconds = time.perf_counter() - start
    built.output = result.stdout + result.stderr
    assert result.returncode == 0, built.output
    assert "native build: built" in built.output, built.output
    print(f"\nrextio {request.param} build: {built.seconds:.1f} s")
    return built


@pytest.fixture(scope="module")
def ran(build: Build) -> dict:  # type: ignore[type-arg]
    """What ``check_built.py`` found of the build, and the Rextio version."""
    env = dict(build.env, REXTIO_NATIVE_MODE="native")
    env.pop("PYTHONPATH", None)  # the built tree ships its own rextio runtime
    out = subprocess.run(
        [sys.executable, str(PROJECT / "check_built.py"),
         str(build.root / ".rextio" / "build" / "python"), str(build.root / "e2e_model.py")],
        env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-4000:]
    found: dict = json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[type-arg]
    found["version"] = build.version
    return found


def native(version: str) -> set[str]:
    """The functions native in the build of Rextio ``version``."""
    return set(NATIVE_RULES) - (COMPARES if version == "0.1.3" else set())


def test_routes_and_claimed_rules_in_check_json(build: Build) -> None:
    check = build.check
    assert sorted(check["accepted_native"]) == sorted(f"e2e_model.{n}" for n in native(
        build.version))
    assert check["rejected_native"] == [f"e2e_model.{REJECTED}"]
    functions = build.functions()
    for name, rules in NATIVE_RULES.items():
        if name not in native(build.version):
            assert functions[name]["native_status"] != "accepted", name
            continue
        assert functions[name]["native_status"] == "accepted", name
        claims = functions[name]["plugin_claims"]
        assert [c["rule_id"] for c in claims] == rules, name
        assert {c["plugin_id"] for c in claims} == {"rxt-tf"}
    rejected = functions[REJECTED]
    assert rejected["native_status"] == "rejected"
    assert rejected.get("plugin_claims", []) == []
    [diagnostic] = rejected["diagnostics"]
    assert diagnostic["code"] == "RXTP-RXTTF-031"
    assert "a positional `keepdims` must be a literal" in diagnostic["message"]
    python_route = functions[PYTHON_ROUTE]
    assert python_route["native_status"] == "not-candidate"
    assert python_route["route"] == "fallback-python"
    assert python_route.get("plugin_claims", []) == []
    if build.version == "0.1.8":  # 0.1.3 reports no promotion assessment
        blockers = [d["message"] for d in python_route["promotion_assessment"]["diagnostics"]]
        assert "dynamic attribute access is not supported in native functions" in blockers


def test_generated_code_is_tf_macro_invocations(build: Build) -> None:
    rust = build.root / ".rextio" / "generated" / "rust"
    lib = (rust / "src" / "lib.rs").read_text()
    for line in [
        "let mut h = ::rxt_tf::tf!(matmul(x, weight))?;",
        "h = ::rxt_tf::tf!(relu(h))?;",
        "h = ::rxt_tf::tf!(h + bias)?;",
        # (0.1.8 binds a returned value before dropping the scope guard.)
        "::rxt_tf::tf!(reduce_mean(h, axis = 1))?",
        "h = ::rxt_tf::tf!(add(h, bias))?;",
        "::rxt_tf::tf!(reduce_mean(h, axis = 1, keepdims = false))?",
        "x: ::rxt_tf::TensorF32Cpu2D",
        "bias: ::rxt_tf::TensorF32Cpu1D",
        "::rxt_tf::tf!(matmul(a, b, transpose_b = true))?",
        "::rxt_tf::tf!(bias_add((::rxt_tf::tf!(matmul(x, w1))?), b1))?",
        "::rxt_tf::tf!(argmax((::rxt_tf::tf!((::rxt_tf::tf!(matmul(h, w2))?) + b2)?), axis = 1))?",
        "::rxt_tf::tf!(reduce_mean(x, axis = -1, keepdims = true))?",
        "::rxt_tf::tf!(variance + 1e-05)?",
        "::rxt_tf::tf!(h * (-3.0))?",
        "::rxt_tf::tf!(0.5 * x)?",
        "::rxt_tf::tf!(reduce_min(x, axis = -2))?",
        "perm = [1, 0]",
        "-> PyResult<::rxt_tf::TensorI64Cpu1D>",
        # Rank 4: batched matmul, softmax on the last axis, [b, h, w, c] @ [c, e].
        "q: ::rxt_tf::TensorF32Cpu4D",
        "::rxt_tf::tf!(matmul(q, k, transpose_b = true))?",
        "::rxt_tf::tf!(softmax((::rxt_tf::tf!(scores * 0.125)?), axis = -1))?",
        "::rxt_tf::tf!(bias_add((::rxt_tf::tf!(matmul(images, w))?), b))?",
        "::rxt_tf::tf!(reduce_mean(h, axis = [1, 2]))?",
        # Rank 3, and an int literal beside a float tensor.
        "x: ::rxt_tf::TensorF32Cpu3D",
        "::rxt_tf::tf!(bias_add((::rxt_tf::tf!(matmul(x, w))?), b))?",
        "::rxt_tf::tf!((::rxt_tf::tf!(matmul(x, w))?) * 2)?",
        "perm = [0, 2, 1]",
        "::rxt_tf::tf!(argmax(logits, axis = -1))?",
        "::rxt_tf::tf!(argmax(logits, axis = -1, output_type = i32))?",
        "-> PyResult<::rxt_tf::TensorI64Cpu2D>",
        # int32 and int64 tensors with int literals.
        "ids: ::rxt_tf::TensorI32Cpu2D",
        "offsets: ::rxt_tf::TensorI32Cpu1D",
        "::rxt_tf::tf!(maximum((::rxt_tf::tf!(ids + 1)?), 0))?",
        "-> PyResult<::rxt_tf::TensorI32Cpu1D>",
        "ids: ::rxt_tf::TensorI64Cpu3D",
        # Data movement: a reshape, where with a literal, cumsum, reverse, tile.
        "::rxt_tf::tf!(reshape(x, [-1, 6, 2, 4]))?",
        "::rxt_tf::tf!(where(",
        "::rxt_tf::tf!(cumsum(kept, axis = 1))?",
        "::rxt_tf::tf!(embedding_lookup(table, ids))?",
        "::rxt_tf::tf!(one_hot(ids, 6))?",
        "::rxt_tf::tf!(gather(embedded, ids, axis = 1, batch_dims = 1))?",
        "::rxt_tf::tf!(tile(",
        "::rxt_tf::tf!((::rxt_tf::tf!(ids * 3)?) - 1)?",
        # Float expressions as scalars of the tensor's type, new tensors.
        "::rxt_tf::ops::Scalar(",
        "::rxt_tf::tf!(broadcast_to(z, [4, 2, 3]))?",
        "::rxt_tf::tf!(zeros([2, 3]))?",
        "::rxt_tf::tf!(ones([4, 1, 1]))?",
        "::rxt_tf::tf!(eye(3))?",
        "::rxt_tf::tf!(fill([3, 3], 0.5))?",
    ]:
        assert line in lib, line
    assert f"e2e_model__{PYTHON_ROUTE}" not in lib
    assert 'rxt-tf = "=0.1.0"' in (rust / "Cargo.toml").read_text()
    # Rextio 0.1.8 (plugin API 1.7) puts the plugin's fusion scope around each
    # native body that uses rxt-tf; 0.1.3 has no such hook, so its ops run per op.
    guards = lib.count("= rxt_tf::fusion::Scope::fused();")
    assert guards == (len(NATIVE_RULES) if build.version == "0.1.8" else 0), guards
    # Sizes and ints known at run time.
    for line in [
        '::rxt_tf::tf!(range(0, (::rxt_tf::ops::Scalar::<i32>::from_python_int("range", n',
        "let __rxt_tf_operand_1: (i64, i64, i64, i64, ) =",
        "::rxt_tf::tf!(reshape(x, [__rxt_tf_operand_1.0, __rxt_tf_operand_1.1, "
        "__rxt_tf_operand_1.2, __rxt_tf_operand_1.3]))? }",
        "(x).shape()?",
        "::rxt_tf::tf!(reduce_sum(x, axis = (ax.clone())))?",
        "::rxt_tf::tf!(strided_slice(x, [0, -1], [0, 0], [1, 1], begin_mask = 1, end_mask = 1, "
        "shrink_axis_mask = 2",
    ]:
        assert line in lib, line
    if build.version == "0.1.8":
        assert "::rxt_tf::tf!(greater(x, 0))?" in lib or "tf!(x > 0)" in lib


def test_native_results_match_the_python_function(ran: dict) -> None:  # type: ignore[type-arg]
    functions = ran["functions"]
    assert sorted(functions) == sorted([*NATIVE_RULES, REJECTED, PYTHON_ROUTE])
    for name, result in functions.items():
        assert result["result_types"] == ["EagerTensor"], name
        assert result["result_dtypes"] == [OTHER_RESULTS.get(name, "float32")], (name, result)
        if name in OTHER_RESULTS:
            assert result["exact"], (name, result)
        assert result["max_abs_diff"] == 0.0, (name, result)  # the same kernels run
        assert result["native_symbol"] is (name in native(ran["version"])), name


def test_forced_native_boundary_errors_carry_rxt_tf_messages(ran: dict) -> None:  # type: ignore[type-arg]
    assert ran["boundary_errors"] == {
        "float64": ["ValueError", "rxt-tf: expected a float32 tensor, got a float64 tensor"],
        "rank1": ["ValueError", "rxt-tf: expected a rank-2 tensor, got a rank-1 tensor"],
        "variable": ["TypeError", "rxt-tf: expected a TensorFlow EagerTensor, got "
                     "tensorflow.python.ops.resource_variable_ops.ResourceVariable"],
        "numpy": ["TypeError", "rxt-tf: expected a TensorFlow EagerTensor, got numpy.ndarray"],
        "rank3_for_rank4": ["ValueError", "rxt-tf: expected a rank-4 tensor, got a rank-3 tensor"],
        "int64_for_int32": ["ValueError", "rxt-tf: expected an int32 tensor, got an int64 tensor"],
        "float32_for_int32": ["ValueError",
                              "rxt-tf: expected an int32 tensor, got a float32 tensor"],
        "int32_for_float32": ["ValueError",
                              "rxt-tf: expected a float32 tensor, got an int32 tensor"],
    }


def test_rextio_certification_kit_on_every_native_function(build: Build) -> None:
    """Rextio's plugin certification: every native function against its
    fallback (`rextio.plugins.testing`), on inputs hypothesis draws in the
    shapes of its E2E cases: float32 values with NaN, infinities, signed
    zeros and extremes, and valid ids, compared bit for bit."""
    if build.version != "0.1.8":
        pytest.skip("the kit of the installed Rextio certifies the build it made")
    import numpy as np
    import tensorflow as tf
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from rextio.plugins.testing import CertificationError, CertifiedProject

    sys.path.insert(0, str(PROJECT))
    try:
        from e2e_cases import CASES
    finally:
        sys.path.remove(str(PROJECT))
    special = st.sampled_from([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -3.4e38, 88.7])
    floats = st.one_of(st.floats(width=32, allow_nan=True, allow_infinity=True), special)

    def values(dtype: str) -> st.SearchStrategy:  # type: ignore[type-arg]
        if dtype in ("float32", "float64"):
            return floats
        if dtype == "bool":
            return st.booleans()
        # Valid ids for every table here: the kit compares an error's message
        # too, and rxt-tf's name the failing op (`rxt-tf: gather failed: …`);
        # error classes are the boundary tests' to check.
        return st.integers(0, 2)

    project = CertifiedProject(project_root=build.root)
    certified = []
    for name in sorted(NATIVE_RULES):
        specs = [
            (arg.dtype.name, tuple(arg.shape)) if isinstance(arg, tf.Tensor) else arg
            for arg in CASES[name][0]
        ]
        check = project.equivalence_checker(
            f"e2e_model.{name}", equals=same_bits, copy_args=lambda args: tuple(args)
        )

        @settings(max_examples=15, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                         HealthCheck.large_base_example])
        @given(data=st.data())
        def certify(data: st.DataObject) -> None:
            args = []
            for spec in specs:  # noqa: B023 - each function's own, run at once
                if not isinstance(spec, tuple):
                    args.append(spec)
                    continue
                dtype, shape = spec
                # A drawn pool of values placed by a drawn seed: the
                # tensors here hold up to ~2,000 elements.
                pool = data.draw(st.lists(values(dtype), min_size=1, max_size=12))
                seed = data.draw(st.integers(0, 2**32 - 1))
                picks = np.random.default_rng(seed).integers(0, len(pool), size=shape)
                args.append(tf.constant(np.array(pool, dtype)[picks]))
            try:
                check(*args)  # noqa: B023
            except CertificationError:
                raise
            except Exception:  # noqa: BLE001 - both legs raised alike: agreed behaviour
                pass

        certify()
        certified.append(name)
    assert sorted(certified) == sorted(NATIVE_RULES)
