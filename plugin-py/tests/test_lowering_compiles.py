"""Every form the plugin claims lowers to Rust that compiles, of the type it claimed.

For each rule of the generated table (one spelling each), every element type
of its row and every operand rank its rule takes (and, where the op takes
them, float and int operands, and each value of a typed keyword), a site is
built as Rextio presents it and claimed. Each claimed site is lowered, and
the lowered expression is put in a Rust function that binds it to the
result type the claim declared; `cargo check` compiles them all in one crate
against the workspace's `rxt-tf`. A drift between the plugin's typing and
the crates' (a result rank, an element type, a scalar's Rust type) fails to
compile.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from claims import P
from rextio.plugins.api import Claimed, LoweringContext
from sites import FVAR, Arg, F, binop, call, kw, lit, tensor

from rxt_tf_plugin import spec
from rxt_tf_plugin.model import KeywordRow
from rxt_tf_plugin.ops import OPS, Op, tensor_type

ROOT = Path(__file__).resolve().parents[2]
SHORT = {dtype: short for _, short, dtype, _ in spec.TENSOR_KINDS}


def _tensor(dtype: str, rank: int) -> str:
    return tensor(SHORT[dtype], rank)


def _operand_choices(op: Op, dtype: str) -> list[list[Any]]:
    """Per operand position, the operands to try."""
    choices: list[list[Any]] = []
    for (low, high), role in zip(op.row.ranks, op.row.roles, strict=True):
        if role == "element":
            options: list[Any] = [_tensor(dtype, rank) for rank in range(low, high + 1)]
            if dtype in spec.FLOAT_DTYPES:
                options += [F, FVAR]
            if dtype != "bool":
                options.append(lit(2))
            if op.row.rule == "sequence":
                options.append("int")
        elif role == "condition":
            options = [_tensor("bool", rank) for rank in range(low, high + 1)]
        elif role == "indices":
            options = [
                _tensor(d, rank) for d in ("int32", "int64") for rank in range(low, high + 1)
            ]
        elif role == "dims":
            options = [lit(tuple([1] * n)) for n in range(0, 5)]
            options += [Arg(f"tuple[{', '.join(['int'] * n)}]") for n in range(1, 5)]
        elif role == "size":
            options = [lit(3), "int"]
        else:
            return []  # lists of tensors and paddings: Rextio offers no such site
        choices.append(options)
    return choices


def _keyword_choices(op: Op) -> list[tuple[Any, ...]]:
    """The keyword sets to try: each value of a typed keyword, required ones given."""
    sets: list[list[Any]] = []
    for keyword in op.keywords:
        if keyword.name in op.rule.macro_only:
            continue
        values = _values(keyword)
        sets.append([None, *values] if not keyword.required else values)
    combos = []
    for combo in itertools.product(*sets) if sets else [()]:
        combos.append(
            tuple(kw(k.name, v) for k, v in zip(_used(op), combo, strict=True) if v is not None)
        )
    return combos


def _used(op: Op) -> list[KeywordRow]:
    return [k for k in op.keywords if k.name not in op.rule.macro_only]


def _values(keyword: KeywordRow) -> list[Any]:
    if keyword.kind == "type":
        return [str(value).removeprefix("tf.") for value in keyword.allowed]
    if keyword.kind == "bool":
        return [True, False] if keyword.typed else [True]
    if keyword.allowed:
        return list(keyword.allowed[:2] if keyword.typed else keyword.allowed[:1])
    if keyword.kind == "contraction":
        # A count and one axis of each (Rextio reports no nested tuple).
        return [0, 1, (-1, 0)]
    example = {"int": 0, "axes": 0, "count": 1, "ints": (0,), "str": "VALID", "spatial": 1}
    return [example[keyword.kind]] if keyword.kind in example else []


def claimed_forms() -> list[tuple[str, tuple[str, ...], dict[str, str], str]]:
    """Every claimed form: its lowered Rust, operand Rust types, and result type."""
    forms = []
    seen: set[str] = set()
    for op in OPS:
        target = op.targets[0]
        keyword_sets = _keyword_choices(op) if op.kind == "call" else [()]
        if op.rule.matching_dtype is not None:
            # A dtype keyword naming each type (the tensor's own, dropped, or
            # another, cast to where the rule casts).
            keyword_sets += [(kw(op.rule.matching_dtype, d),) for d in spec.DTYPES]
        for dtype in op.row.dtypes:
            choices = _operand_choices(op, dtype)
            if not choices:
                continue
            axis_at = _runtime_axis(op)
            for operands in _operand_product(op, choices):
                if axis_at is not None:
                    # An axis known at run time, positionally (`tf.reduce_sum(x, ax)`).
                    fill = [lit(0)] * (axis_at - len(operands))
                    operands_with_axis = (*operands, *fill, "int")
                    keyword_sets_here = [*keyword_sets, ("runtime axis",)]
                else:
                    operands_with_axis = operands
                    keyword_sets_here = keyword_sets
                for keywords in keyword_sets_here:
                    if keywords == ("runtime axis",):
                        site = call(target, *operands_with_axis)
                        verdict = P.claim(site, None)
                        if isinstance(verdict, Claimed):
                            forms.extend(_form(site, verdict, operands_with_axis, seen))
                        continue
                    if op.kind == "binop":
                        site = binop(target, *operands)
                    else:
                        site = call(target, *operands, keywords=keywords)
                    verdict = P.claim(site, None)
                    if not isinstance(verdict, Claimed):
                        continue
                    forms.extend(_form(site, verdict, operands, seen))
    return forms


def _operand_product(op: Op, choices: list[list[Any]]) -> list[tuple[Any, ...]]:
    """Every combination of `choices`, but the size lists of an op with several
    (`strided_slice`'s begin, end and strides) alike: the plugin claims only
    lists of one length, all literals, so their other combinations (729 per
    tensor, each with 32 keyword sets) are refusals only."""
    dims = [index for index, role in enumerate(op.row.roles) if role == "dims"]
    # Each position's source: a later size list takes the first's choice.
    source = [dims[0] if index in dims else index for index in range(len(choices))]
    free = sorted(set(source))
    return [
        tuple(dict(zip(free, picked, strict=True))[at] for at in source)
        for picked in itertools.product(*(choices[at] for at in free))
    ]


def _runtime_axis(op: Op) -> int | None:
    """The operand position of a positional `axis` the rule takes at run time."""
    for offset, name in enumerate(op.rule.positional):
        rule = next(k for k in op.keywords if k.name == name)
        if name == "axis" and rule.kind in ("int", "axes"):
            return op.arity + offset
    return None


def _form(
    site: Any, verdict: Claimed, operands: tuple[Any, ...], seen: set[str]
) -> list[tuple[str, tuple[str, ...], dict[str, str], str]]:
    """A claimed site lowered with its operands' Rust names and types; none if seen."""
    names, params = [], {}
    for index, operand in enumerate(operands):
        if isinstance(operand, Arg) and operand.literal.is_literal:
            names.append(repr(operand.literal.value))
        elif operand is F:
            names.append("0.5")
        elif operand is FVAR:
            names.append("s")
            params["s"] = "f64"
        elif operand == "int":
            names.append("n")
            params["n"] = "i64"
        elif isinstance(operand, Arg) and str(operand.type).startswith("tuple"):
            names.append(f"d{index}")
            count = str(operand.type).count("int")
            params[f"d{index}"] = f"({'i64, ' * count})"
        else:
            names.append(f"a{index}")
            found = tensor_type(str(operand))
            assert found is not None
            params[f"a{index}"] = found.rust_type
    lowered = P.lower(
        _with_claim(site, verdict),
        LoweringContext(operands=tuple(names), target_language="rust", fresh_name=str),
    ).rust
    result = tensor_type(verdict.result_type)
    assert result is not None
    key = f"{lowered} {sorted(params.items())} {result.rust_type}"
    if key in seen:
        return []
    seen.add(key)
    return [(lowered, tuple(names), params, result.rust_type)]


def _with_claim(site: Any, verdict: Claimed) -> Any:
    from dataclasses import replace

    return replace(site, rule_id=verdict.rule_id, result_type=verdict.result_type)


def crate_source(forms: list[tuple[str, tuple[str, ...], dict[str, str], str]]) -> str:
    lines = [
        "//! Generated by plugin-py/tests/test_lowering_compiles.py: every claimed form.",
        "#![allow(unused_variables, clippy::all)]",
    ]
    for index, (lowered, _, params, result) in enumerate(forms):
        args = ", ".join(f"{name}: {rust}" for name, rust in params.items())
        lines += [
            f"pub fn form_{index}({args}) -> ::rxt_tf::Result<()> {{",
            f"    let _result: {result} = {lowered};",
            "    Ok(())",
            "}",
        ]
    return "\n".join(lines) + "\n"


@pytest.mark.skipif(shutil.which("cargo") is None, reason="needs cargo")
def test_every_claimed_form_compiles_as_claimed(tmp_path: Path) -> None:
    forms = claimed_forms()
    assert len(forms) > 1500, len(forms)
    rules = {lowered.split("(", 1)[0] for lowered, *_ in forms}
    assert rules
    crate = tmp_path / "lowered"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(
        '[package]\nname = "lowered-forms"\nversion = "0.0.0"\nedition = "2021"\n'
        "publish = false\n\n[dependencies]\n"
        f"rxt-tf = {{ path = {str(ROOT)!r} }}\n\n[workspace]\n"
    )
    (crate / "src" / "lib.rs").write_text(crate_source(forms))
    env = dict(os.environ, CARGO_TARGET_DIR=str(ROOT / "target" / "lowered-forms"))
    done = subprocess.run(
        ["cargo", "check", "--quiet", "--manifest-path", str(crate / "Cargo.toml")],
        capture_output=True,
        text=True,
        env=env,
        timeout=3600,
        check=False,
    )
    print(f"\n{len(forms)} claimed forms compiled")
    assert done.returncode == 0, done.stderr[-6000:]
