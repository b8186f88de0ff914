//! The Rextio plugin's generated modules: its op table
//! (`rxt_tf_plugin/spec.py`, the rows of `rxt-tf-spec` as Python constructor
//! calls of `rxt_tf_plugin.model`) and its annotation markers
//! (`rxt_tf_plugin/types.py`, one class per tensor type).

use std::fmt::Write as _;

use crate::python_checks;

use rxt_tf_spec::{
    axes_fit, DType, Keyword, Op, PythonRule, Role, Rule, TensorKind, Value, ValueKind,
    FALLBACK_RULES, MAX_RANK, OPS,
};

/// The header of every generated module.
const GENERATED: &str = "Do not edit: run ``cargo run -p xtask -- codegen``.";

/// The whole `spec.py`.
pub(crate) fn spec_module() -> String {
    let mut out = format!(
        "\"\"\"The op table of rxt-tf, generated from the crate rxt-tf-spec.\n\n\
         {GENERATED}\n\"\"\"\n\n\
         from __future__ import annotations\n\n\
         from rxt_tf_plugin.model import (\n    FallbackRow,\n    KeywordRow,\n    OpRow,\n    \
         PythonKeywordRow,\n    RuleRow,\n)\n\n"
    );
    let _ = writeln!(out, "MAX_RANK = {MAX_RANK}");
    out.push_str("\"\"\"The largest rank of an rxt-tf tensor (ranks are 0 to MAX_RANK).\"\"\"\n\n");
    let dtypes: Vec<String> = DType::ALL.iter().map(|d| string(d.name())).collect();
    let _ = writeln!(out, "DTYPES: tuple[str, ...] = {}", tuple(&dtypes));
    out.push_str("\"\"\"Every element type of rxt-tf, by TensorFlow's name.\"\"\"\n\n");
    let floats: Vec<String> = DType::ALL
        .iter()
        .filter(|d| d.is_float())
        .map(|d| string(d.name()))
        .collect();
    let _ = writeln!(out, "FLOAT_DTYPES: tuple[str, ...] = {}", tuple(&floats));
    out.push_str("\"\"\"The floating-point element types (a float literal converts only to these).\"\"\"\n\n");
    out.push_str("OPS: tuple[OpRow, ...] = (\n");
    for op in OPS {
        op_row(&mut out, op);
    }
    out.push_str(")\n\"\"\"Every op `tf!` runs, in table order.\"\"\"\n\n");
    out.push_str("TENSOR_KINDS: tuple[tuple[str, str, str, int], ...] = (\n");
    for kind in TensorKind::all() {
        let _ = writeln!(
            out,
            "    ({}, {}, {}, {}),",
            string(&kind.type_name()),
            string(&short_name(kind.dtype)),
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
        ")\n\"\"\"The rules for covered sites whose operands are not rxt-tf tensors.\"\"\"\n\n",
    );
    result_ranks(&mut out);
    axes_fit_rows(&mut out);
    python_checks::checks(&mut out, &rules());
    out
}

/// The short element type of plugin type keys (`f32` in `rxt-tf/tensor-f32-cpu-2d`).
fn short_name(dtype: DType) -> String {
    dtype.type_infix().to_lowercase()
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
    let _ = writeln!(
        out,
        "        batched_tf_op={},",
        op.batched.map_or_else(
            || "None".to_owned(),
            |batched| string(&batched.tf_op.to_string_lossy())
        )
    );
    let _ = writeln!(out, "        summary={},", string(op.summary));
    let _ = writeln!(out, "        rule={},", string(op.rule.name()));
    let ranks: Vec<String> = (0..op.arity())
        .map(|position| {
            let (low, high) = op.rule.ranks(position);
            format!("({low}, {high})")
        })
        .collect();
    let _ = writeln!(out, "        ranks={},", tuple(&ranks));
    let roles: Vec<String> = (0..op.arity())
        .map(|position| string(role_name(op.rule.role(position))))
        .collect();
    let _ = writeln!(out, "        roles={},", tuple(&roles));
    let literals: Vec<String> = (0..op.arity())
        .map(|position| boolean(op.rule.takes_literal_at(position)).to_owned())
        .collect();
    let _ = writeln!(out, "        literals={},", tuple(&literals));
    let dtypes: Vec<String> = op.dtypes.iter().map(|d| string(d.name())).collect();
    let _ = writeln!(out, "        dtypes={},", tuple(&dtypes));
    let promoted: Vec<String> = op
        .dtypes
        .iter()
        .filter(|d| op.result_element(**d) != **d)
        .map(|d| {
            format!(
                "{}: {}",
                string(d.name()),
                string(op.result_element(*d).name())
            )
        })
        .collect();
    let _ = writeln!(out, "        promoted={{{}}},", promoted.join(", "));
    let _ = writeln!(
        out,
        "        operands_text={},",
        string(&op.operands_text())
    );
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
            rule_row(out, op, rule);
        }
        let _ = writeln!(out, "        ),");
    }
    let _ = writeln!(out, "    ),");
}

fn keyword_row(out: &mut String, keyword: &Keyword) {
    let kind = match keyword.kind {
        ValueKind::Bool => "bool",
        ValueKind::Int => "int",
        ValueKind::Float => "float",
        ValueKind::Ints => "ints",
        ValueKind::Type => "type",
        ValueKind::Axes => "axes",
        ValueKind::Count => "count",
        ValueKind::Str => "str",
        ValueKind::Number => "number",
        ValueKind::Spatial => "spatial",
        ValueKind::Volume => "volume",
        ValueKind::Equation => "equation",
        ValueKind::Contraction => "contraction",
    };
    // A type keyword that lists no values takes every element type.
    let allowed: Vec<String> = match (keyword.kind, keyword.allowed) {
        (ValueKind::Type, []) => DType::ALL
            .iter()
            .map(|dtype| python(&Value::Type(*dtype)))
            .collect(),
        (_, allowed) => allowed.iter().map(python).collect(),
    };
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
        boolean(keyword.typed)
    );
}

fn rule_row(out: &mut String, op: &Op, rule: &PythonRule) {
    let targets: Vec<String> = rule.targets.iter().map(|t| string(t)).collect();
    let positional: Vec<String> = rule.positional.iter().map(|k| string(k)).collect();
    let macro_only: Vec<String> = rule.macro_only.iter().map(|k| string(k)).collect();
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
    let renamed: Vec<String> = rule
        .renamed
        .iter()
        .map(|(python, row)| format!("({}, {})", string(python), string(row)))
        .collect();
    let _ = writeln!(
        out,
        "            RuleRow(\n                kind={},\n                targets={},\n                \
         rule_id={},\n                code={},\n                constraint={},\n                \
         positional={},\n                python_only={},\n                \
         macro_only={},\n                leading_literal_keeps_its_type={},\n                \
         renamed={},\n                matching_dtype={},\n                \
         other_dtype_casts={},\n                needs_literal={},\n                \
         scalar_shape={},\n                omitted_axis_is_every_axis={},\n            ),",
        string(rule.kind.as_str()),
        tuple(&targets),
        string(rule.rule_id),
        string(&rule.diagnostic_code()),
        string(&op.constraint(rule)),
        tuple(&positional),
        tuple(&python_only),
        tuple(&macro_only),
        boolean(rule.leading_literal_keeps_its_type),
        tuple(&renamed),
        rule.matching_dtype.map_or_else(|| "None".to_owned(), string),
        boolean(rule.other_dtype_casts),
        boolean(rule.needs_literal),
        boolean(rule.scalar_shape),
        boolean(rule.omitted_axis_is_every_axis)
    );
}

/// The distinct rules of the table, in first-seen order.
fn rules() -> Vec<Rule> {
    let mut rules: Vec<Rule> = Vec::new();
    for op in OPS {
        if !rules.contains(&op.rule) {
            rules.push(op.rule);
        }
    }
    rules
}

/// Every accepted operand rank combination of `rule`.
fn rank_combinations(rule: Rule) -> Vec<Vec<u8>> {
    let mut combinations = vec![Vec::new()];
    for position in 0..rule.arity() {
        let (low, high) = rule.ranks(position);
        combinations = combinations
            .into_iter()
            .flat_map(|prefix| {
                (low..=high).map(move |rank| {
                    let mut next = prefix.clone();
                    next.push(rank);
                    next
                })
            })
            .collect();
    }
    combinations
}

/// `RESULT_RANKS`: `Rule::result_rank` for every accepted rank combination
/// of every rule of the table (and, for a reduction, every number of axes
/// with and without `keepdims`), so the plugin's tests hold its own rule
/// functions to the crate's.
fn result_ranks(out: &mut String) {
    out.push_str(
        "RESULT_RANKS: tuple[tuple[str, tuple[int, ...], int, bool, int | None], ...] = (\n",
    );
    for rule in rules() {
        for ranks in rank_combinations(rule) {
            let cases: Vec<(usize, bool)> = match rule {
                Rule::Reduce | Rule::Moments => (1..=usize::from(ranks[0]))
                    .flat_map(|axes| [(axes, false), (axes, true)])
                    .collect(),
                Rule::Squeeze => (1..=usize::from(ranks[0]))
                    .map(|axes| (axes, false))
                    .collect(),
                // The number of sizes in the list.
                Rule::Reshape | Rule::Fill | Rule::Filled => (0..=usize::from(MAX_RANK))
                    .map(|sizes| (sizes, false))
                    .collect(),
                // The number of axes contracted, up to the smaller rank.
                Rule::Contract => (0..=usize::from(ranks[0].min(ranks[1])))
                    .map(|axes| (axes, false))
                    .collect(),
                // `batch_dims`, where the result has a rank.
                Rule::Gather => (0..=usize::from(ranks[1]))
                    .filter(|batch| rule.result_rank(&ranks, *batch, false).is_some())
                    .map(|batch| (batch, false))
                    .collect(),
                _ => vec![(0, false)],
            };
            for (axes, keepdims) in cases {
                let operands: Vec<String> = ranks.iter().map(u8::to_string).collect();
                let result = rule
                    .result_rank(&ranks, axes, keepdims)
                    .map_or_else(|| "None".to_owned(), |rank| rank.to_string());
                let _ = writeln!(
                    out,
                    "    ({}, {}, {axes}, {}, {result}),",
                    string(rule.name()),
                    tuple(&operands),
                    boolean(keepdims)
                );
            }
        }
    }
    out.push_str(
        ")\n\"\"\"The crate's result rank (rule, operand ranks, number of axes, keepdims → \
         rank) for every accepted case: what the plugin's rule functions are tested \
         against.\"\"\"\n\n",
    );
}

/// `AXES_FIT`: `axes_fit` for every single axis and pair of axes in
/// `-MAX_RANK - 1..=MAX_RANK` (pairs in `-MAX_RANK..MAX_RANK`, unordered) at
/// every rank from 1, for the plugin's tests.
fn axes_fit_rows(out: &mut String) {
    let bound = i64::from(MAX_RANK);
    let singles = (-bound - 1..=bound).map(|axis| vec![axis]);
    let pairs =
        (-bound..bound).flat_map(|first| (first..bound).map(move |second| vec![first, second]));
    let lists: Vec<Vec<i64>> = singles.chain(pairs).collect();
    out.push_str("AXES_FIT: tuple[tuple[int, tuple[int, ...], bool], ...] = (\n");
    for rank in 1..=MAX_RANK {
        for axes in &lists {
            let items: Vec<String> = axes.iter().map(i64::to_string).collect();
            let _ = writeln!(
                out,
                "    ({rank}, {}, {}),",
                tuple(&items),
                boolean(axes_fit(axes, rank))
            );
        }
    }
    out.push_str(
        ")\n\"\"\"The crate's ``axes_fit`` (rank, axes → whether they fit) for single axes and \
         pairs: what the plugin's check is tested against.\"\"\"\n",
    );
}

/// The whole `types.py`: an import-free marker class per tensor type.
pub(crate) fn types_module() -> String {
    let mut out = format!(
        "\"\"\"Import-free annotation markers for functions Rextio compiles with rxt-tf.\n\n\
         Annotate parameters and returns with these; at run time the values are\n\
         ordinary ``tf.Tensor`` (EagerTensor) objects. This module imports neither\n\
         TensorFlow nor Rextio. Generated from the crate rxt-tf-spec: one class per\n\
         element type and rank.\n\n\
         {GENERATED}\n\"\"\"\n"
    );
    let kinds = TensorKind::all();
    for kind in &kinds {
        let _ = write!(
            out,
            "\n\nclass {}:\n    \"\"\"{} {} rank-{} tensor on ``CPU:0`` (plugin type \
             ``rxt-tf/tensor-{}-cpu-{}d``).\"\"\"\n",
            kind.type_name(),
            article(kind.dtype),
            kind.dtype.name(),
            kind.rank,
            short_name(kind.dtype),
            kind.rank
        );
    }
    let mut names: Vec<String> = kinds.iter().map(|kind| kind.type_name()).collect();
    names.sort();
    out.push_str("\n\n__all__ = [\n");
    for name in names {
        let _ = writeln!(out, "    {},", string(&name));
    }
    out.push_str("]\n");
    out
}

/// "A" or "An", before the element type's name.
fn article(dtype: DType) -> &'static str {
    match dtype.name().chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "An",
        _ => "A",
    }
}

/// The plugin's name of an operand role.
pub(crate) fn role_name(role: Role) -> &'static str {
    match role {
        Role::Element => "element",
        Role::Condition => "condition",
        Role::Dims => "dims",
        Role::Indices => "indices",
        Role::Tensors => "tensors",
        Role::Size => "size",
        Role::Pairs => "pairs",
    }
}

/// A Python value literal.
fn python(value: &Value) -> String {
    match value {
        Value::Bool(flag) => boolean(*flag).to_owned(),
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

/// `True` / `False`.
fn boolean(flag: bool) -> &'static str {
    if flag {
        "True"
    } else {
        "False"
    }
}

/// A Python tuple of already rendered items.
pub(crate) fn tuple(items: &[String]) -> String {
    match items {
        [] => "()".to_owned(),
        [only] => format!("({only},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// A Python string literal (double quotes, as ruff formats them).
pub(crate) fn string(text: &str) -> String {
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
