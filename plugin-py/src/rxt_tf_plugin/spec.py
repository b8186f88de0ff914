"""The op table of rxt-tf, generated from the crate rxt-tf-spec.

Do not edit: run ``cargo run -p xtask -- codegen``.
"""

from __future__ import annotations

from rxt_tf_plugin.model import KeywordRow, OpRow, RuleRow, SignatureRow

OPS: tuple[OpRow, ...] = (
    OpRow(
        name="matmul",
        operator=None,
        tf_op="MatMul",
        summary="matrix product",
        signatures=(
            SignatureRow(operands=(2, 2), result=2, result_dtype="float32", when=()),
        ),
        keywords=(),
        rules=(
            RuleRow(
                kind="call",
                targets=("tensorflow.matmul", "tensorflow.linalg.matmul"),
                rule_id="rxt-tf/matmul-f32-cpu-2d",
                code="RXTP-RXTTF-001",
                constraint="two rank-2 float32 CPU tensors, positional, no keywords",
            ),
        ),
    ),
    OpRow(
        name="relu",
        operator=None,
        tf_op="Relu",
        summary="rectified linear unit",
        signatures=(
            SignatureRow(operands=(2,), result=2, result_dtype="float32", when=()),
        ),
        keywords=(),
        rules=(
            RuleRow(
                kind="call",
                targets=("tensorflow.nn.relu",),
                rule_id="rxt-tf/relu-f32-cpu-2d",
                code="RXTP-RXTTF-002",
                constraint="one rank-2 float32 CPU tensor, positional, no keywords",
            ),
        ),
    ),
    OpRow(
        name="sigmoid",
        operator=None,
        tf_op="Sigmoid",
        summary="logistic sigmoid",
        signatures=(
            SignatureRow(operands=(2,), result=2, result_dtype="float32", when=()),
        ),
        keywords=(),
        rules=(
            RuleRow(
                kind="call",
                targets=("tensorflow.nn.sigmoid",),
                rule_id="rxt-tf/sigmoid-f32-cpu-2d",
                code="RXTP-RXTTF-005",
                constraint="one rank-2 float32 CPU tensor, positional, no keywords",
            ),
        ),
    ),
    OpRow(
        name="tanh",
        operator=None,
        tf_op="Tanh",
        summary="hyperbolic tangent",
        signatures=(
            SignatureRow(operands=(1,), result=1, result_dtype="float32", when=()),
            SignatureRow(operands=(2,), result=2, result_dtype="float32", when=()),
        ),
        keywords=(),
        rules=(
            RuleRow(
                kind="call",
                targets=("tensorflow.nn.tanh", "tensorflow.math.tanh", "tensorflow.tanh"),
                rule_id="rxt-tf/tanh-f32-cpu",
                code="RXTP-RXTTF-007",
                constraint="one rank-1 or rank-2 float32 CPU tensor, positional, no keywords",
            ),
        ),
    ),
    OpRow(
        name="add",
        operator="+",
        tf_op="AddV2",
        summary="element-wise sum, broadcasting",
        signatures=(
            SignatureRow(operands=(2, 2), result=2, result_dtype="float32", when=()),
            SignatureRow(operands=(1, 1), result=1, result_dtype="float32", when=()),
            SignatureRow(operands=(2, 1), result=2, result_dtype="float32", when=()),
            SignatureRow(operands=(1, 2), result=2, result_dtype="float32", when=()),
        ),
        keywords=(),
        rules=(
            RuleRow(
                kind="call",
                targets=("tensorflow.add", "tensorflow.math.add"),
                rule_id="rxt-tf/add-call-f32-cpu",
                code="RXTP-RXTTF-003",
                constraint="two float32 CPU tensors of ranks 2+2, 1+1, 2+1 or 1+2, no keywords",
            ),
            RuleRow(
                kind="binop",
                targets=("+",),
                rule_id="rxt-tf/add-binop-f32-cpu",
                code="RXTP-RXTTF-006",
                constraint="`a + b` of float32 CPU tensors of ranks 2+2, 1+1, 2+1 or 1+2",
            ),
        ),
    ),
    OpRow(
        name="reduce_mean",
        operator=None,
        tf_op="Mean",
        summary="mean over an axis",
        signatures=(
            SignatureRow(operands=(2,), result=1, result_dtype="float32", when=(("keepdims", False),)),
        ),
        keywords=(
            KeywordRow(name="axis", kind="int", allowed=(1,), default=None, typed=False),
            KeywordRow(name="keepdims", kind="bool", allowed=(False,), default=False, typed=True),
        ),
        rules=(
            RuleRow(
                kind="call",
                targets=("tensorflow.reduce_mean", "tensorflow.math.reduce_mean"),
                rule_id="rxt-tf/reduce-mean-axis1-f32-cpu-2d",
                code="RXTP-RXTTF-004",
                constraint="one rank-2 float32 CPU tensor with the literal keyword axis=1 (keepdims=False or omitted)",
            ),
        ),
    ),
)
"""Every op `tf!` runs, in table order."""

FALLBACK_RULE_ID = "rxt-tf/unsupported-tensor-surface"
"""The rule for covered sites whose operands are not rxt-tf tensors."""
FALLBACK_CODE = "RXTP-RXTTF-010"
"""Its diagnostic code."""
