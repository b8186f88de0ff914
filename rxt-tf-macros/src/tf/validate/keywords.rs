//! Keywords: each `key = value` checked against the row (its name, its
//! literal, the values it allows, axes some rank can take), one value per
//! row keyword in row order, and the einsum equation parsed once.

use quote::ToTokens;
use rxt_tf_spec::einsum::Equation;
use rxt_tf_spec::{axes, Keyword, Op, Value, ValueKind, MAX_RANK};
use syn::{Expr, ExprCall};

use crate::errors::Errors;
use crate::tf::literal::{
    contraction_lists, int_list, literal, number_literal, string, NumberLiteral,
};
use crate::tf::model::{DimExpr, GenericType, RuntimeKeyword, RuntimeValue};

/// The keyword values of a call that gives none (an operator).
pub(super) fn defaults(op: &Op) -> Vec<Value> {
    op.keywords.iter().filter_map(|k| k.default).collect()
}

/// A value to show in "write `axis = 1`" hints.
pub(super) fn example(keyword: &Keyword) -> String {
    match keyword.allowed.first() {
        Some(value) => value.rust(),
        None => match keyword.kind {
            ValueKind::Bool => "true".to_owned(),
            ValueKind::Int => "0".to_owned(),
            ValueKind::Float => "0.5".to_owned(),
            ValueKind::Ints => "[1, 0]".to_owned(),
            ValueKind::Type => "i64".to_owned(),
            ValueKind::Axes => "[0, 1]".to_owned(),
            ValueKind::Count => "1".to_owned(),
            ValueKind::Str => "\"CONSTANT\"".to_owned(),
            ValueKind::Number => "0".to_owned(),
            ValueKind::Spatial | ValueKind::Volume => "2".to_owned(),
            ValueKind::Equation => "\"ij,jk->ik\"".to_owned(),
            ValueKind::Contraction => "[[1], [0]]".to_owned(),
        },
    }
}

/// The type parameter an element-type keyword names, if it names one: a
/// path (`T::Elem`), or a capitalized name that is no element type (`T` in
/// `cast(x, T)`), where the keyword takes every element type. Lowercase
/// names and capitalized element-type names (`F32`) stay element-type
/// names, so a misspelling is told what to write instead.
fn type_parameter(keyword: &Keyword, value: &Expr) -> Option<syn::Path> {
    let Expr::Path(path) = value else {
        return None;
    };
    if keyword.kind != ValueKind::Type || !keyword.allowed.is_empty() || path.qself.is_some() {
        return None;
    }
    let Some(ident) = path.path.get_ident() else {
        return Some(path.path.clone());
    };
    let name = ident.to_string();
    let capitalized = name.chars().next().is_some_and(char::is_uppercase);
    let misspelt = rxt_tf_spec::DType::from_rust_name(&name.to_lowercase()).is_some();
    (capitalized && !misspelt).then(|| path.path.clone())
}

/// The keyword values of a call, as [`keyword_values`] reads them.
pub(super) struct GivenKeywords {
    /// One value per row keyword, in row order (a stand-in for one given
    /// as a Rust expression).
    pub(super) values: Vec<Value>,
    /// Axes and permutations given as Rust expressions.
    pub(super) runtime: Vec<RuntimeValue>,
    /// Element types named by a type parameter.
    pub(super) generic: Vec<GenericType>,
    /// Floats, sizes and texts given as Rust expressions.
    pub(super) untyped: Vec<RuntimeKeyword>,
}

/// One value per row keyword (given, else its default), checking names,
/// duplicates, literals and values; required keywords must be given
/// (unless `given_positionally` already said where they go). Axes and
/// permutations written as Rust expressions are returned apart, their
/// values a stand-in of their count, and so are element types named by a
/// type parameter (a capitalized name that is no element type: `T`) and
/// floats, sizes and texts written as Rust expressions.
pub(super) fn keyword_values(
    op: &Op,
    call: &ExprCall,
    given: &[(&Expr, &Expr)],
    given_positionally: bool,
    equation: &mut Option<Equation>,
    errors: &mut Errors,
) -> GivenKeywords {
    let mut values: Vec<Option<Value>> = op.keywords.iter().map(|k| k.default).collect();
    let mut runtime = Vec::new();
    let mut generic = Vec::new();
    let mut untyped = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for &(key, value) in given {
        let name = match key {
            Expr::Path(path) => path.path.get_ident().map(ToString::to_string),
            _ => None,
        };
        let Some(name) = name else {
            errors.push(key, "rxt-tf: expected a keyword name");
            continue;
        };
        let Some(index) = op.keywords.iter().position(|k| k.name == name) else {
            let allowed = if op.keywords.is_empty() {
                format!("`{}` takes no keyword arguments", op.name)
            } else {
                let names: Vec<String> = op
                    .keywords
                    .iter()
                    .map(|k| format!("`{}`", k.name))
                    .collect();
                format!("`{}` accepts only {}", op.name, names.join(" and "))
            };
            errors.push(
                key,
                format!("rxt-tf: unsupported keyword `{name}`; {allowed}"),
            );
            continue;
        };
        if seen.contains(&name) {
            errors.push(key, format!("rxt-tf: keyword `{name}` given twice"));
        }
        seen.push(name);
        let keyword = &op.keywords[index];
        let written_out = int_list(value).is_some()
            || number_literal(value).is_some()
            || matches!(value, Expr::Lit(_));
        if takes_runtime_values(keyword) && !written_out {
            if let Some((stand_in, entries, list)) = runtime_value(keyword, value, errors) {
                values[index] = Some(stand_in);
                runtime.push(RuntimeValue {
                    index,
                    entries,
                    list,
                });
            }
            continue;
        }
        let stand_in = untyped_stand_in(keyword);
        if let (Some(stand_in), false) = (stand_in, written_out) {
            // The expression is the value when the op runs.
            values[index] = Some(stand_in);
            untyped.push(RuntimeKeyword {
                index,
                expr: value.clone(),
            });
            continue;
        }
        if let Some(path) = type_parameter(keyword, value) {
            // A stand-in: the type decides the call's types and value.
            values[index] = Some(Value::Type(rxt_tf_spec::DType::F32));
            generic.push(GenericType { index, path });
            continue;
        }
        if let Some(parsed) = keyword_value(op, keyword, value, equation, errors) {
            values[index] = Some(parsed);
        }
    }
    for (keyword, value) in op.keywords.iter().zip(&values) {
        if value.is_none() && !given_positionally && !seen.iter().any(|k| k == keyword.name) {
            errors.push(
                call,
                format!(
                    "rxt-tf: `{}` needs the keyword `{}` ({})",
                    op.name,
                    keyword.name,
                    literal_text(keyword)
                ),
            );
        }
    }
    GivenKeywords {
        values: values.into_iter().flatten().collect(),
        runtime,
        generic,
        untyped,
    }
}

/// Whether `keyword` may be given as Rust expressions: axes and
/// permutations, whose count (not their values) types the call.
fn takes_runtime_values(keyword: &Keyword) -> bool {
    match keyword.kind {
        ValueKind::Int | ValueKind::Axes => matches!(keyword.name, "axis" | "axes"),
        ValueKind::Ints => keyword.typed,
        _ => false,
    }
}

/// A stand-in value for `keyword` given as a Rust expression, if it may
/// be one though it does not type the call: a float that becomes an
/// attribute or a step's constant (`alpha`, `epsilon`; not a constant
/// input of its own, as `one_hot`'s `on_value` is, kept per distinct
/// value), an image op's sizes, a text of a few allowed values (`padding`).
fn untyped_stand_in(keyword: &Keyword) -> Option<Value> {
    if keyword.typed {
        return None;
    }
    match keyword.kind {
        ValueKind::Float if !matches!(keyword.becomes, rxt_tf_spec::Becomes::Input(_)) => {
            Some(Value::Float(0.0))
        }
        ValueKind::Spatial | ValueKind::Volume => Some(Value::Int(1)),
        ValueKind::Str => keyword.allowed.first().copied(),
        _ => None,
    }
}

/// Axes or a permutation written as Rust expressions (`axis = k`,
/// `axis = [a, 1]`, `perm = [a, b, c]`): a stand-in value of their count,
/// their entries, and whether they form a list.
fn runtime_value(
    keyword: &Keyword,
    value: &Expr,
    errors: &mut Errors,
) -> Option<(Value, Vec<DimExpr>, bool)> {
    let entry = |expr: &Expr| match literal(ValueKind::Int, expr) {
        Some(Value::Int(int)) => DimExpr::Literal(int),
        _ => DimExpr::Expr(expr.clone()),
    };
    let list = match value {
        Expr::Array(array) => Some(array.elems.iter().map(entry).collect::<Vec<_>>()),
        _ => None,
    };
    match (keyword.kind, list) {
        (ValueKind::Int, Some(_)) => {
            errors.push(
                value,
                format!(
                    "rxt-tf: `{}` takes one axis: an integer literal or a Rust integer",
                    keyword.name
                ),
            );
            None
        }
        (ValueKind::Ints, None) => {
            errors.push(
                value,
                format!(
                    "rxt-tf: a `{0}` known at run time is written as a list (`{0} = [a, b, c]`): \
                     its length gives the result's rank",
                    keyword.name
                ),
            );
            None
        }
        (_, Some(entries)) if entries.is_empty() || entries.len() > usize::from(MAX_RANK) => {
            errors.push(
                value,
                format!("rxt-tf: `{}` names 1 to {MAX_RANK} axes", keyword.name),
            );
            None
        }
        (_, Some(entries)) => {
            let count = i64::try_from(entries.len()).unwrap_or(i64::MAX);
            // A permutation's stand-in is one (the identity), so that
            // nothing checked of the count reports a value.
            let stand_in = Value::Ints(leak((0..count).collect()));
            Some((stand_in, entries, true))
        }
        (_, None) => Some((Value::Int(0), vec![entry(value)], false)),
    }
}

/// "`axis = 1`" or "`axis` = `0`, `1` or `-1`" or "`alpha` = a float literal".
fn literal_text(keyword: &Keyword) -> String {
    match keyword.allowed {
        [only] => format!("`{} = {}`", keyword.name, only.rust()),
        _ => format!("`{}` = {}", keyword.name, keyword.allowed_text()),
    }
}

/// The literal `value` of `keyword`, if it is one the row accepts.
fn keyword_value(
    op: &Op,
    keyword: &Keyword,
    value: &Expr,
    equation: &mut Option<Equation>,
    errors: &mut Errors,
) -> Option<Value> {
    if let (ValueKind::Float, Some(NumberLiteral::Float(float))) =
        (keyword.kind, number_literal(value))
    {
        if !(float as f32).is_finite() {
            errors.push(
                value,
                format!(
                    "rxt-tf: `{}` does not fit a float32",
                    value.to_token_stream()
                ),
            );
            return None;
        }
    }
    let parsed = match keyword.kind {
        ValueKind::Ints => int_list(value).map(|ints| Value::Ints(leak(ints))),
        ValueKind::Axes | ValueKind::Spatial | ValueKind::Volume => match int_list(value) {
            Some(ints) => Some(Value::Ints(leak(ints))),
            None => literal(ValueKind::Int, value),
        },
        ValueKind::Count => literal(ValueKind::Int, value),
        ValueKind::Contraction => match contraction_lists(value) {
            Some(Ok(axes)) => Some(Value::Ints(leak(axes))),
            Some(Err((first, second))) => {
                errors.push(
                    value,
                    format!(
                        "rxt-tf: `{}`: `{}` pairs {first} axes of the first tensor with {second} \
                         of the second; give as many of each",
                        op.name, keyword.name
                    ),
                );
                return None;
            }
            None => literal(ValueKind::Int, value),
        },
        ValueKind::Number => {
            literal(ValueKind::Int, value).or_else(|| literal(ValueKind::Float, value))
        }
        ValueKind::Str => string(value).map(|text| Value::Str(Box::leak(text.into_boxed_str()))),
        ValueKind::Equation => match string(value) {
            Some(text) => match rxt_tf_spec::einsum::parse(&text, op.arity()) {
                Ok(parsed) => {
                    let resolved = Box::leak(parsed.resolved.clone().into_boxed_str());
                    *equation = Some(parsed);
                    Some(Value::Str(resolved))
                }
                Err(message) => {
                    errors.push(value, format!("rxt-tf: `einsum`: {message}"));
                    return None;
                }
            },
            None => None,
        },
        kind => literal(kind, value),
    };
    let Some(parsed) = parsed else {
        if let (ValueKind::Type, Expr::Path(path)) = (keyword.kind, value) {
            if let Some(name) = path.path.get_ident() {
                errors.push(
                    value,
                    format!(
                        "rxt-tf: `{name}` is not an element type of rxt-tf; `{}` must be {}",
                        keyword.name,
                        keyword.allowed_text()
                    ),
                );
                return None;
            }
        }
        // Only an input's float reaches here as an expression: the others
        // take Rust floats (`untyped_stand_in`).
        let expression = number_literal(value).is_none() && !matches!(value, Expr::Lit(_));
        if keyword.kind == ValueKind::Float && expression {
            errors.push(
                value,
                format!(
                    "rxt-tf: `{}` must be a float literal, not an expression (it becomes a \
                     constant input of its own; `alpha` and the epsilons take Rust floats)",
                    keyword.name
                ),
            );
            return None;
        }
        errors.push(
            value,
            format!(
                "rxt-tf: `{}` must be {}, not an expression (keywords are checked at compile time)",
                keyword.name,
                match keyword.allowed {
                    [only] => format!("the literal `{}`", only.rust()),
                    _ => keyword.allowed_text(),
                }
            ),
        );
        return None;
    };
    if let (rxt_tf_spec::Becomes::Input(rxt_tf_spec::DType::I32), Value::Int(int)) =
        (keyword.becomes, &parsed)
    {
        if i32::try_from(*int).is_err() {
            errors.push(
                value,
                format!(
                    "rxt-tf: `{} = {int}` does not fit an int32, the input rxt-tf passes it as",
                    keyword.name
                ),
            );
            return None;
        }
    }
    if !keyword.accepts(&parsed) {
        let supported = match keyword.allowed {
            [only] => format!("supports only `{} = {}`", keyword.name, only.rust()),
            _ => format!("supports `{}` = {}", keyword.name, keyword.allowed_text()),
        };
        errors.push(
            value,
            format!(
                "rxt-tf: `{}` {supported}, got `{} = {}`",
                op.name,
                keyword.name,
                value.to_token_stream()
            ),
        );
        return None;
    }
    match check_axes(keyword, &parsed) {
        Ok(()) => Some(parsed),
        Err(message) => {
            errors.push(value, format!("rxt-tf: `{}`: {message}", op.name));
            None
        }
    }
}

/// Axis lists and permutations that no rank could take: an axis beyond
/// every rank, an axis or entry named twice, a `perm` that is not a
/// permutation ([`rxt_tf_spec::axes`], as the runtime checks them at the
/// rank it meets).
fn check_axes(keyword: &Keyword, value: &Value) -> Result<(), String> {
    let max = i64::from(MAX_RANK);
    let (axes, is_perm): (&[i64], bool) = match (keyword.kind, value) {
        (ValueKind::Axes | ValueKind::Int, Value::Int(axis)) if keyword.typed => {
            (std::slice::from_ref(axis), false)
        }
        (ValueKind::Axes, Value::Ints(axes)) => (axes, false),
        (ValueKind::Ints, Value::Ints(perm)) => (perm, true),
        (ValueKind::Contraction, _) => return check_contraction(keyword, value),
        _ => return Ok(()),
    };
    if is_perm {
        if !axes::permutes_some_rank(axes) {
            return Err(format!(
                "`perm = {}` is not a permutation of the axes (each of 0..{} once; tensors have \
                 at most {max} axes)",
                value.rust(),
                axes.len()
            ));
        }
        return Ok(());
    }
    if axes.is_empty() {
        return Err(format!("`{} = []` names no axis", keyword.name));
    }
    if let Some(axis) = axes.iter().find(|axis| !axes::in_some_rank(**axis)) {
        return Err(format!(
            "`{} = {}`: axis {axis} is out of range for every rank (tensors have at most {max} axes)",
            keyword.name,
            value.rust()
        ));
    }
    if let Some(axis) = axes::repeated(axes) {
        return Err(format!(
            "`{} = {}` names the axis {axis} twice",
            keyword.name,
            value.rust()
        ));
    }
    if !axes::fit_some_rank(axes) {
        return Err(format!(
            "`{} = {}` names one axis twice for every rank",
            keyword.name,
            value.rust()
        ));
    }
    Ok(())
}

/// `tensordot`'s axes lists: on each side, axes some rank takes, each once.
fn check_contraction(keyword: &Keyword, value: &Value) -> Result<(), String> {
    let Some(contraction @ axes::Contraction::Lists(first, second)) = axes::Contraction::of(value)
    else {
        return Ok(());
    };
    let max = i64::from(MAX_RANK);
    for (side, list) in [(0, first), (1, second)] {
        let which = if side == 0 { "first" } else { "second" };
        if let Some(axis) = list.iter().find(|axis| !axes::in_some_rank(**axis)) {
            return Err(format!(
                "`{} = {}`: axis {axis} of the {which} tensor is out of range for every rank \
                 (tensors have at most {max} axes)",
                keyword.name,
                value.rust()
            ));
        }
        if contraction.fits_mask(side) == 0 {
            return Err(format!(
                "`{} = {}` names an axis of the {which} tensor twice",
                keyword.name,
                value.rust()
            ));
        }
    }
    Ok(())
}

/// `ints` kept for the rest of the expansion (a keyword value is `'static`).
fn leak(ints: Vec<i64>) -> &'static [i64] {
    Box::leak(ints.into_boxed_slice())
}
