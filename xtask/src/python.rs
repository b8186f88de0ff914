//! The Rextio plugin's op table, `rxt_tf_plugin/spec.py`: the rows of
//! `rxt-tf-spec` as Python constructor calls of `rxt_tf_plugin.model`.

use std::fmt::Write as _;

use rxt_tf_spec::{
    Keyword, Op, Operand, PythonRule, Signature, Value, ValueKind, FALLBACK_RULES, OPS,
};

/// The whole module.
pub(crate) fn spec_module() -> String {
    let mut out = String::from(
        "\"\"\"The op table of rxt-tf, generated from the crate rxt-tf-spec.\n\n\
         Do not edit: run ``cargo run -p xtask -- codegen``.\n\"\"\"\n\n\
         from __future__ import annotations\n\n\
         from rxt_tf_plugin.model import (\n    FallbackRow,\n    KeywordRow,\n    OpRow,\n    PythonKeywordRow,\n    RuleRow,\n    SignatureRow,\n)\n\n\
         OPS: tuple[OpRow, ...] = (\n",
    );
    for op in OPS {
        op_row(&mut out, op);
    }
    out.push_str(")\n\"\"\"Every op `tf!` runs, in table order.\"\"\"\n\n");
    out.push_str("TENSOR_KINDS: tuple[tuple[str, str, str, int], ...] = (\n");
    for kind in rxt_tf_spec::tensor_kinds() {
        let _ = writeln!(
            out,
            "    ({}, {}, {}, {}),",
            string(&kind.type_name()),
            string(&kind.dtype.type_infix().to_lowercase()),
            string(kind.dtype.name()),
            kind.rank
        );
    }
    out.push_str(
        ")\n\"\"\"Every tensor type: Rust and marker name, short element type, element type, \
         rank.\"\"\"\n\n",
    );
    out.push_str("FALLBACKS: tuple[FallbackRow, ...] = (\n");
    for (rule_id, kind, code) in FALLBACK_RULES {
        let _ = writeln!(
            out,
            "    FallbackRow(kind={}, rule_id={}, code={}),",
            string(kind.as_str()),
            string(rule_id),
            string(&rxt_tf_spec::diagnostic_code(*code))
        );
    }
    out.push_str(
        ")\n\"\"\"The rules for covered sites whose operands are not rxt-tf tensors.\"\"\"\n",
    );
    out
}

fn op_row(out: &mut String, op: &Op) {
    let _ = writeln!(out, "    OpRow(");
    let _ = writeln!(out, "        name={},", string(op.name));
    let _ = writeln!(
        out,
        "        operator={},",
        op.operator.map_or_else(|| "None".to_owned(), string)
    );
    let _ = writeln!(
        out,
        "        tf_op={},",
        string(&op.tf_op.to_string_lossy())
    );
    let _ = writeln!(out, "        summary={},", string(op.summary));
    if op.signatures.is_empty() {
        let _ = writeln!(out, "        signatures=(),");
    } else {
        let _ = writeln!(out, "        signatures=(");
        for signature in op.signatures {
            signature_row(out, signature);
        }
        let _ = writeln!(out, "        ),");
    }
    if op.keywords.is_empty() {
        let _ = writeln!(out, "        keywords=(),");
    } else {
        let _ = writeln!(out, "        keywords=(");
        for keyword in op.keywords {
            keyword_row(out, keyword);
        }
        let _ = writeln!(out, "        ),");
    }
    if op.python.is_empty() {
        let _ = writeln!(out, "        rules=(),");
    } else {
        let _ = writeln!(out, "        rules=(");
        for rule in op.python {
            rule_row(out, rule);
        }
        let _ = writeln!(out, "        ),");
    }
    let _ = writeln!(out, "    ),");
}

fn signature_row(out: &mut String, signature: &Signature) {
    let operands: Vec<String> = signature
        .operands
        .iter()
        .map(|operand| match operand {
            Operand::Tensor(kind) => kind.rank.to_string(),
            Operand::Scalar => "0".to_owned(),
        })
        .collect();
    let when: Vec<String> = signature
        .when
        .iter()
        .map(|(name, values)| {
            let values: Vec<String> = values.iter().map(python).collect();
            format!("({}, {})", string(name), tuple(&values))
        })
        .collect();
    let _ = writeln!(
        out,
        "            SignatureRow(operands={}, result={}, result_dtype={}, when={}),",
        tuple(&operands),
        signature.result.rank,
        string(signature.result.dtype.name()),
        tuple(&when)
    );
}

fn keyword_row(out: &mut String, keyword: &Keyword) {
    let kind = match keyword.kind {
        ValueKind::Bool => "bool",
        ValueKind::Int => "int",
        ValueKind::Float => "float",
        ValueKind::Ints => "ints",
        ValueKind::Type => "type",
    };
    let allowed: Vec<String> = keyword.allowed.iter().map(python).collect();
    let _ = writeln!(
        out,
        "            KeywordRow(name={}, kind={}, allowed={}, default={}, typed={}),",
        string(keyword.name),
        string(kind),
        tuple(&allowed),
        keyword
            .default
            .as_ref()
            .map_or_else(|| "None".to_owned(), python),
        if keyword.typed { "True" } else { "False" }
    );
}

fn rule_row(out: &mut String, rule: &PythonRule) {
    let targets: Vec<String> = rule.targets.iter().map(|t| string(t)).collect();
    let positional: Vec<String> = rule.positional.iter().map(|k| string(k)).collect();
    let python_only: Vec<String> = rule
        .python_only
        .iter()
        .map(|keyword| {
            let values: Vec<String> = keyword.values.iter().map(python).collect();
            format!(
                "PythonKeywordRow(name={}, values={})",
                string(keyword.name),
                tuple(&values)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "            RuleRow(\n                kind={},\n                targets={},\n                \
         rule_id={},\n                code={},\n                constraint={},\n                \
         positional={},\n                python_only={},\n            ),",
        string(rule.kind.as_str()),
        tuple(&targets),
        string(rule.rule_id),
        string(&rule.diagnostic_code()),
        string(rule.constraint),
        tuple(&positional),
        tuple(&python_only)
    );
}

/// A Python value literal.
fn python(value: &Value) -> String {
    match value {
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Int(int) => int.to_string(),
        Value::Float(float) => format!("{float:?}"),
        Value::Ints(ints) => {
            let items: Vec<String> = ints.iter().map(i64::to_string).collect();
            tuple(&items)
        }
        Value::Type(dtype) => string(&format!("tf.{}", dtype.name())),
        Value::Str(text) => string(text),
    }
}

/// A Python tuple of already rendered items.
fn tuple(items: &[String]) -> String {
    match items {
        [] => "()".to_owned(),
        [only] => format!("({only},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// A Python string literal (double quotes, as ruff formats them).
fn string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
