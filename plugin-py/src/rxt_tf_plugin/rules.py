"""Coverage, rule records and type vocabulary, all derived from the op table."""

from __future__ import annotations

from rextio.plugins.api import (
    BoundaryConversion,
    CoverageDecl,
    PluginType,
    RuleRecord,
    RuleScope,
)

from rxt_tf_plugin import spec
from rxt_tf_plugin.methods import METHODS
from rxt_tf_plugin.ops import (
    FALLBACKS,
    OPS,
    PLUGIN_ID,
    TENSOR_TYPES,
    Op,
    covered_modules,
    covered_symbols,
)


def coverage() -> CoverageDecl:
    """The packages, modules and symbols rxt-tf covers."""
    return CoverageDecl(
        packages=("tensorflow",),
        modules=covered_modules(),
        symbols=covered_symbols(),
    )


def rule_records(compare: bool = True) -> tuple[RuleRecord, ...]:
    """One native rule per op row, plus the fallback rule for foreign operands.

    ``compare``: whether to include the comparison rules (``a > b``), which a
    provider declares only on hosts of plugin API 1.5 and later.
    """
    records = [
        RuleRecord(
            id=op.rule_id,
            provider=PLUGIN_ID,
            scope=RuleScope(
                kind=op.kind,
                pattern=" / ".join(_pattern(op, target) for target in op.targets),
            ),
            constraint=op.constraint,
            outcome="native",
            diagnostic_code=op.code,
            guidance=f"lowered to ::rxt_tf::tf!({_lowered(op)}); other forms stay on the "
            f"Python route. {EXPLAIN}",
            fix_template=fix_template(op),
        )
        for op in OPS
        if compare or op.kind != "compare"
    ]
    for method in METHODS.values():
        records.append(
            RuleRecord(
                id=method.rule_id,
                provider=PLUGIN_ID,
                scope=RuleScope(kind="call", pattern=method.pattern),
                constraint=f"an rxt-tf tensor receiver, no arguments; typed {method.result_type}",
                outcome="native",
                diagnostic_code=method.code,
                guidance=f"lowered to the tensor's shape() (Vec<i64>). {EXPLAIN}",
                fix_template={
                    "before": "x.shape[-1]",
                    "after": "x.get_shape()[-1]",
                    "command": FIX_COMMAND,
                },
            )
        )
    for fallback in FALLBACKS.values():
        what = "call" if fallback.kind == "call" else "operator"
        records.append(
            RuleRecord(
                id=fallback.rule_id,
                provider=PLUGIN_ID,
                scope=RuleScope(
                    kind=fallback.kind,
                    pattern=f"covered TensorFlow {what} on non-rxt-tf operands",
                ),
                constraint="operands must be rxt-tf tensors (rxt_tf_plugin.types markers, any "
                f"element type at ranks 0-{spec.MAX_RANK}), or number literals where the op "
                "takes them",
                outcome="fallback",
                diagnostic_code=fallback.code,
                guidance="annotate tensor operands with rxt_tf_plugin.types markers. " + EXPLAIN,
                fix_template={
                    "before": "def f(x):",
                    "after": "def f(x: TensorF32Cpu2D) -> TensorF32Cpu2D:",
                    "command": FIX_COMMAND,
                },
            )
        )
    return tuple(records)


FIX_COMMAND = "python -m rxt_tf_plugin explain --fix"
"""The command that makes the behaviour-keeping rewrites."""

EXPLAIN = (
    "`python -m rxt_tf_plugin explain` names what keeps each function on Python; "
    "`explain --fix` inlines module constants, writes dtypes as strings and keywords "
    "(tf.float32, x.dtype, a positional dtype), `x op= y` as `x = x op y`, `x.shape[i]` "
    "as `x.get_shape()[i]` and a subscript of a tensor as the tf.strided_slice call it "
    "makes; `--unsafe-fixes` also makes docstrings comments and inlines straight-line "
    "helpers whose tuple is unpacked."
)
"""What every rule record says about finding and lifting blockers."""


def fix_template(op: Op) -> dict[str, str]:
    """A blocker of the rule's form and its rewrite, for ``rextio capabilities``."""
    if op.kind == "compare":
        token = op.targets[0]
        return {
            "before": f"def f(x):\n    return x {token} 0",
            "after": f"def f(x: TensorF32Cpu2D) -> TensorBoolCpu2D:\n    return x {token} 0",
            "command": FIX_COMMAND,
        }
    if op.is_operator:
        token = op.targets[0]
        return {"before": f"x {token}= y", "after": f"x = x {token} y", "command": FIX_COMMAND}
    spelled = op.spelling
    operands = ", ".join(["x"] if op.arity == 1 else [chr(ord("a") + i) for i in range(op.arity)])
    typed = next((k for k in op.keywords if k.kind == "type"), None)
    if typed is not None:
        name = str(typed.allowed[0]).removeprefix("tf.") if typed.allowed else "float32"
        return {
            "before": f"{spelled}({operands}, {typed.name}=tf.{name})",
            "after": f'{spelled}({operands}, {typed.name}="{name}")',
            "command": FIX_COMMAND,
        }
    literal = next((k for k in op.keywords if k.kind in ("int", "axes", "bool")), None)
    if literal is not None:
        value = literal.default if literal.default is not None else 0
        shown = str(value) if not isinstance(value, bool) else repr(value)
        constant = literal.name.upper()
        use = f"{spelled}({operands}, {literal.name}={constant})"
        return {
            "before": f"{constant} = {shown}\n...\n{use}",
            "after": f"{spelled}({operands}, {literal.name}={shown})",
            "command": FIX_COMMAND,
        }
    return {
        "before": f"_{op.macro_name} = {spelled}\n...\n_{op.macro_name}({operands})",
        "after": f"{spelled}({operands})",
        "command": FIX_COMMAND,
    }


def _pattern(op: Op, target: str) -> str:
    """How the rule record shows one claimed form.

    For example ``tensorflow.matmul(a, b)``, ``tensorflow.reduce_mean(x, axis=...)``
    or ``a + b``.
    """
    if op.is_operator:
        return f"a {target} b"
    operands = ["x"] if op.arity == 1 else [chr(ord("a") + i) for i in range(op.arity)]
    required = [f"{k.name}=..." for k in op.keywords if k.required]
    return f"{target}({', '.join([*operands, *required])})"


def _lowered(op: Op) -> str:
    """What the rule lowers to: ``matmul(...)`` or ``a + b``."""
    if op.kind == "binop" and op.row.operator == op.targets[0]:
        return f"a {op.row.operator} b"
    return f"{op.macro_name}(...)"


def plugin_types() -> tuple[PluginType, ...]:
    """The annotation vocabulary: each marker maps to the runtime's tensor type.

    The boundary conversions are the runtime's own ``FromPyObject`` /
    ``IntoPyObject`` impls (reached through the facade type), so argument
    errors carry the runtime's ``rxt-tf:`` messages.
    """
    return tuple(
        PluginType(
            key=tensor.key,
            annotations=(tensor.annotation,),
            rust_type=tensor.rust_type,
            conversion=BoundaryConversion(
                param_rust=tensor.rust_type,
                param_expr="{param}",
                return_rust=tensor.rust_type,
                return_expr="{value}",
            ),
        )
        for tensor in TENSOR_TYPES
    )
