//! The guide's generated tables: the op reference
//! (`guide/src/reference/ops.md`) and the Rextio rule table
//! (`guide/src/reference/rextio-rules.md`).

use rxt_tf_spec::{join_or, Op, PythonRule, SiteKind, Value, FALLBACK_RULES, OPS};

/// The op reference: one line per row.
pub(crate) fn ops_table() -> String {
    let mut out = String::from(
        "| `tf!` | operands | ranks → result | keywords | TensorFlow op | Python (plugin) |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    for op in OPS {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            forms(op),
            op.operands_text(),
            op.rule.describe(),
            keywords(op),
            tf_ops(op),
            python_forms(op.python)
        ));
    }
    out
}

/// `` `tf!(matmul(a, b))` `` and, with an operator, `` `tf!(a + b)` ``.
fn forms(op: &Op) -> String {
    let operands = op.operand_names();
    let mut args = operands.clone();
    args.extend(
        op.keywords
            .iter()
            .filter(|k| k.default.is_none())
            .map(|k| format!("{} = …", k.name)),
    );
    let mut forms = vec![format!("`tf!({}({}))`", op.name, args.join(", "))];
    match (op.operator, operands.as_slice()) {
        (Some(operator), [only]) => forms.push(format!("`tf!({operator}{only})`")),
        (Some(operator), _) => forms.push(format!(
            "`tf!({})`",
            operands.join(&format!(" {operator} "))
        )),
        (None, _) => {}
    }
    forms.join(", ")
}

/// `` `MatMul` `` and, with a batched kernel, `` (`BatchMatMulV2` above rank 2) ``;
/// with a promotion, what is cast first (`` (int32 and int64 cast to float64 first) ``).
fn tf_ops(op: &Op) -> String {
    if let Some(ops) = op.steps.ops() {
        return ops;
    }
    let own = format!("`{}`", op.tf_op.to_string_lossy());
    let own = match op.batched {
        Some(batched) => format!("{own} (`{}` above rank 2)", batched.tf_op.to_string_lossy()),
        None => own,
    };
    match op.promotion {
        Some(promotion) => {
            let from: Vec<&str> = promotion.from.iter().map(|dtype| dtype.name()).collect();
            format!(
                "{own} ({} cast to {} first, as `tf.divide`)",
                from.join(" and "),
                promotion.to.name()
            )
        }
        None => own,
    }
}

fn keywords(op: &Op) -> String {
    if op.keywords.is_empty() {
        return "—".to_owned();
    }
    let rendered: Vec<String> = op
        .keywords
        .iter()
        .map(|keyword| {
            let default = match keyword.default {
                // The empty `perm` stands for the axes reversed.
                Some(Value::Ints(&[])) => ", omitted: the axes reversed".to_owned(),
                Some(value) => format!(", default `{}`", value.rust()),
                None => ", required".to_owned(),
            };
            format!("`{}`: {}{default}", keyword.name, keyword.allowed_text())
        })
        .collect();
    rendered.join("; ")
}

fn python_forms(rules: &[PythonRule]) -> String {
    let forms: Vec<String> = rules
        .iter()
        .flat_map(|rule| {
            rule.targets
                .iter()
                .map(move |target| spelled(rule.kind, target))
        })
        .collect();
    join_or(&forms)
}

fn spelled(kind: SiteKind, target: &str) -> String {
    match kind {
        SiteKind::Call => format!("`{}`", target.replacen("tensorflow.", "tf.", 1)),
        SiteKind::Binop | SiteKind::Compare => format!("`a {target} b`"),
    }
}

/// The Rextio rule table: one line per Python form, then the fallbacks.
pub(crate) fn rules_table() -> String {
    let mut out = String::from("| Python form | rule id | diagnostic |\n| --- | --- | --- |\n");
    for op in OPS {
        for rule in op.python {
            let targets: Vec<String> = rule.targets.iter().map(|t| spelled(rule.kind, t)).collect();
            out.push_str(&format!(
                "| {}: {} | `{}` | `{}` |\n",
                targets.join(" / "),
                op.constraint(rule).replace('|', "\\|"),
                rule.rule_id,
                rule.diagnostic_code()
            ));
        }
    }
    for (rule_id, kind, code) in FALLBACK_RULES {
        let what = match kind {
            SiteKind::Call => "a covered call",
            SiteKind::Binop | SiteKind::Compare => "a covered operator",
        };
        out.push_str(&format!(
            "| {what} whose operands are not plugin tensors (fallback) | `{rule_id}` | `{}` |\n",
            rxt_tf_spec::diagnostic_code(*code)
        ));
    }
    out
}
