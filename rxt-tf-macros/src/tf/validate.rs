//! Validation: the parsed `tf!` syntax against the op table, into an
//! [`Invocation`], or every error found, each at the offending tokens with
//! the valid choices. Ranks are left to the types (see the runtime's
//! `ops::dispatch`), which report them at the operand.

use quote::ToTokens;
use rxt_tf_spec::{
    axes_fit, join_or, Keyword, Op, Role, Rule, Value, ValueKind, MAX_LIST, MAX_RANK, OPS,
};
use syn::spanned::Spanned;
use syn::{Expr, ExprCall, Lit};

use crate::errors::Errors;
use crate::tf::literal::{int_list, literal, number_literal, string, NumberLiteral};
use crate::tf::model::{DimExpr, Invocation, OperandExpr};
use crate::tf::parse::{Arg, Syntax};

/// Validates one `tf!` expression.
pub(crate) fn invocation(syntax: Syntax<'_>) -> syn::Result<Invocation> {
    match syntax {
        Syntax::Operator(operator, left, right) => {
            let token = operator.to_token_stream().to_string();
            let Some(op) = rxt_tf_spec::by_operator(&token, 2) else {
                return Err(syn::Error::new(
                    operator.span(),
                    format!(
                        "rxt-tf: unsupported operator `{token}`; `tf!` supports {}",
                        operators()
                    ),
                ));
            };
            let mut errors = Errors::default();
            let operands = operands(op, &[left, right], &mut errors);
            errors.finish(Invocation {
                op,
                op_span: operator.span(),
                operands,
                keywords: defaults(op),
            })
        }
        Syntax::Negation(minus, operand) => {
            let Some(op) = rxt_tf_spec::by_operator("-", 1) else {
                return Err(syn::Error::new(minus.span(), "rxt-tf: no op for unary `-`"));
            };
            let mut errors = Errors::default();
            let operands = operands(op, &[operand], &mut errors);
            errors.finish(Invocation {
                op,
                op_span: minus.span(),
                operands,
                keywords: defaults(op),
            })
        }
        Syntax::Call(call, args) => op_call(call, &args),
        Syntax::Other(Expr::Try(tried)) => Err(syn::Error::new(
            tried.question_token.span,
            format!(
                "rxt-tf: a `?` belongs outside `tf!`: write `tf!({})?`",
                tried.expr.to_token_stream()
            ),
        )),
        Syntax::Other(other) => Err(syn::Error::new(
            other.span(),
            "rxt-tf: `tf!` expects an op call such as `matmul(x, w)`, an operator such as \
             `a + b`, or an index such as `x[:, 0]`",
        )),
    }
}

/// "unsupported op `atan`; did you mean `tanh`?": the nearest op by edit
/// distance, if one is near enough to be a misspelling.
fn unknown_op(name: &str) -> String {
    let nearest = OPS
        .iter()
        .map(|op| (edit_distance(name, op.name), op.name))
        .min_by_key(|(distance, _)| *distance)
        .filter(|(distance, _)| *distance <= 2 || *distance * 3 <= name.chars().count());
    match nearest {
        Some((_, op)) => format!("rxt-tf: unsupported op `{name}`; did you mean `{op}`?"),
        None => format!(
            "rxt-tf: unsupported op `{name}`; the guide's op reference lists the {} ops",
            OPS.len()
        ),
    }
}

/// The Levenshtein distance between `a` and `b` (insertions, deletions
/// and substitutions of one character).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, left) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, right) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(left != *right);
            let insert = current[j] + 1;
            let delete = previous[j + 1] + 1;
            current.push(substitute.min(insert).min(delete));
        }
        previous = current;
    }
    previous[b.len()]
}

/// "`a + b` (`add`), …, `-x` (`neg`)" for messages.
fn operators() -> String {
    let operators: Vec<String> = OPS
        .iter()
        .filter_map(|op| {
            op.operator.map(|token| match op.arity() {
                1 => format!("`{token}x` (`{}`)", op.name),
                _ => format!("`a {token} b` (`{}`)", op.name),
            })
        })
        .collect();
    join_or(&operators)
}

/// The operands as the model holds them: number literals become literal
/// operands (they take the other operand's element type; where the op takes
/// them, the types decide); all-literal operand lists are rejected here.
fn operands(op: &Op, exprs: &[&Expr], errors: &mut Errors) -> Vec<OperandExpr> {
    let mut operands = Vec::new();
    let mut literals = 0;
    for (position, expr) in exprs.iter().enumerate() {
        match op.rule.role(position) {
            Role::Dims => {
                operands.push(dims(op, position, expr, errors));
                continue;
            }
            Role::Tensors => {
                operands.push(tensors(op, expr, errors));
                continue;
            }
            Role::Pairs => {
                operands.push(pairs(op, expr, errors));
                continue;
            }
            Role::Size => {
                let size = match number_literal(expr) {
                    Some(NumberLiteral::Int(value)) if value >= 0 => DimExpr::Literal(value),
                    Some(_) => {
                        errors.push(
                            expr,
                            format!(
                                "rxt-tf: `{}` takes a non-negative integer here, not `{}`",
                                op.name,
                                expr.to_token_stream()
                            ),
                        );
                        DimExpr::Literal(0)
                    }
                    None => DimExpr::Expr((*expr).clone()),
                };
                operands.push(OperandExpr::Size(size, expr.span()));
                continue;
            }
            _ => {}
        }
        match number_literal(expr) {
            Some(NumberLiteral::Float(value)) => {
                literals += 1;
                if !value.is_finite() {
                    errors.push(
                        expr,
                        format!("rxt-tf: `{}` is not a finite float", expr.to_token_stream()),
                    );
                }
                operands.push(OperandExpr::Float(value, expr.span()));
            }
            Some(NumberLiteral::Int(value)) => {
                literals += 1;
                operands.push(OperandExpr::Int(value, expr.span()));
            }
            Some(NumberLiteral::Unsupported) => {
                literals += 1;
                errors.push(
                    expr,
                    format!(
                        "rxt-tf: `{}` is not an integer literal `tf!` takes: write an `i64` \
                         literal without a suffix (or with `i32` / `i64`)",
                        expr.to_token_stream()
                    ),
                );
            }
            None => operands.push(OperandExpr::Expr((*expr).clone())),
        }
    }
    let tensors = (0..exprs.len())
        .filter(|position| op.rule.role(*position) == Role::Element)
        .count();
    if tensors > 0 && literals == tensors && !op.rule.creates() {
        let all: proc_macro2::TokenStream = exprs.iter().map(|e| e.to_token_stream()).collect();
        errors.push(
            all,
            format!(
                "rxt-tf: `{}` needs a tensor operand; scalar with scalar is plain Rust arithmetic",
                op.name
            ),
        );
    }
    operands
}

/// A list of integers known at run time: a bracketed list of integer
/// literals and Rust integer expressions. Literal entries are checked here
/// as the rule says ([`Rule::list_entries`]): the least value, at most one
/// `-1` where a size is inferred, at most so many entries for a shape.
fn dims(op: &Op, position: usize, expr: &Expr, errors: &mut Errors) -> OperandExpr {
    let Expr::Array(array) = expr else {
        errors.push(
            expr,
            format!(
                "rxt-tf: `{}` takes a bracketed list of integers here (`[2, -1]`, `[b, s, 4]`), \
                 not `{}`",
                op.name,
                expr.to_token_stream()
            ),
        );
        return OperandExpr::Dims(Vec::new(), expr.span());
    };
    let rule = op.rule.list_entries(position);
    let mut entries = Vec::new();
    let mut inferred = 0;
    for element in &array.elems {
        match number_literal(element) {
            Some(NumberLiteral::Int(value)) => {
                if value == -1 && rule.one_inferred {
                    inferred += 1;
                    if inferred == 2 {
                        errors.push(
                            element,
                            format!(
                                "rxt-tf: `{}`: at most one size may be `-1` (inferred from the \
                                 others)",
                                op.name
                            ),
                        );
                    }
                } else if value < rule.lowest {
                    let what = match rule.lowest {
                        -1 if rule.one_inferred => {
                            "a size is at least 0, or `-1` for the one inferred"
                        }
                        -1 => "a size is at least 0, or `-1` for the rest of the axis",
                        _ => "an entry is at least 0",
                    };
                    errors.push(
                        element,
                        format!("rxt-tf: `{}`: {what}, not {value}", op.name),
                    );
                }
                entries.push(DimExpr::Literal(value));
            }
            Some(_) => errors.push(
                element,
                format!(
                    "rxt-tf: `{}` takes integers in its list, not `{}`",
                    op.name,
                    element.to_token_stream()
                ),
            ),
            None => entries.push(DimExpr::Expr(element.clone())),
        }
    }
    if let Some(most) = rule
        .at_most
        .filter(|most| entries.len() > usize::from(*most))
    {
        errors.push(
            expr,
            format!(
                "rxt-tf: `{}` takes at most {most} sizes (the result's rank), got {}",
                op.name,
                entries.len()
            ),
        );
    }
    OperandExpr::Dims(entries, expr.span())
}

/// Pairs of integers known at run time: a bracketed list of bracketed
/// pairs, each entry a non-negative integer literal or a Rust integer.
fn pairs(op: &Op, expr: &Expr, errors: &mut Errors) -> OperandExpr {
    let message = || {
        format!(
            "rxt-tf: `{}` takes a bracketed list of pairs here (`[[1, 1], [0, 2]]`, one per \
             axis), not `{}`",
            op.name,
            expr.to_token_stream()
        )
    };
    let Expr::Array(array) = expr else {
        errors.push(expr, message());
        return OperandExpr::Pairs(Vec::new(), expr.span());
    };
    let mut pairs = Vec::new();
    for element in &array.elems {
        let Expr::Array(pair) = element else {
            errors.push(element, message());
            continue;
        };
        let entries: Vec<DimExpr> = pair
            .elems
            .iter()
            .map(|entry| match number_literal(entry) {
                Some(NumberLiteral::Int(value)) if value >= 0 => DimExpr::Literal(value),
                Some(_) => {
                    errors.push(
                        entry,
                        format!(
                            "rxt-tf: `{}`: a padding is a non-negative integer, not `{}`",
                            op.name,
                            entry.to_token_stream()
                        ),
                    );
                    DimExpr::Literal(0)
                }
                None => DimExpr::Expr(entry.clone()),
            })
            .collect();
        match <[DimExpr; 2]>::try_from(entries) {
            Ok(pair) => pairs.push(pair),
            Err(_) => errors.push(element, message()),
        }
    }
    OperandExpr::Pairs(pairs, expr.span())
}

/// A list of tensors: a bracketed list of 2 to `MAX_LIST` expressions,
/// each borrowed as an operand (their types must agree: one element type
/// and rank).
fn tensors(op: &Op, expr: &Expr, errors: &mut Errors) -> OperandExpr {
    let Expr::Array(array) = expr else {
        errors.push(
            expr,
            format!(
                "rxt-tf: `{}` takes its tensors as a bracketed list (`[a, b]`), not `{}`",
                op.name,
                expr.to_token_stream()
            ),
        );
        return OperandExpr::Tensors(Vec::new(), expr.span());
    };
    let count = array.elems.len();
    if !(2..=MAX_LIST).contains(&count) {
        errors.push(
            expr,
            format!(
                "rxt-tf: `{}` takes 2 to {MAX_LIST} tensors, got {count}",
                op.name
            ),
        );
    }
    for element in &array.elems {
        if number_literal(element).is_some() {
            errors.push(
                element,
                format!(
                    "rxt-tf: `{}` takes tensors in its list, not literals",
                    op.name
                ),
            );
        }
    }
    OperandExpr::Tensors(array.elems.iter().cloned().collect(), expr.span())
}

/// The keyword values of a call that gives none (an operator).
fn defaults(op: &Op) -> Vec<Value> {
    op.keywords.iter().filter_map(|k| k.default).collect()
}

fn op_call(call: &ExprCall, args: &[Arg<'_>]) -> syn::Result<Invocation> {
    let name = match &*call.func {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident().cloned(),
        _ => None,
    };
    let Some(name) = name else {
        return Err(syn::Error::new(
            call.func.span(),
            "rxt-tf: expected an op name such as `matmul` or `relu`",
        ));
    };
    // `r#where` is the op `where`.
    let Some(op) = rxt_tf_spec::lookup(&syn::ext::IdentExt::unraw(&name).to_string()) else {
        return Err(syn::Error::new(name.span(), unknown_op(&name.to_string())));
    };

    let mut errors = Errors::default();
    let mut positional: Vec<&Expr> = Vec::new();
    let mut keyword_args: Vec<(&Expr, &Expr)> = Vec::new();
    for arg in args {
        match *arg {
            Arg::Keyword(key, value) => keyword_args.push((key, value)),
            Arg::Positional(expr) => {
                if let Some((key, _)) = keyword_args.last() {
                    errors.push(
                        expr,
                        format!(
                            "rxt-tf: positional operand after the keyword `{}`",
                            key.to_token_stream()
                        ),
                    );
                }
                positional.push(expr);
            }
        }
    }
    // `einsum("ij,jk->ik", a, b)`: the equation comes first, as in
    // `tf.einsum`; it is the keyword `equation`.
    let equation_name: Expr = syn::parse_quote!(equation);
    let mut equation_reported = false;
    if op.name == "einsum" {
        match positional.first() {
            Some(Expr::Lit(syn::ExprLit {
                lit: Lit::Str(_), ..
            })) => {
                let equation = positional.remove(0);
                keyword_args.insert(0, (&equation_name, equation));
            }
            Some(first) => {
                errors.push(
                    first,
                    "rxt-tf: `einsum` takes its equation first, as a string literal \
                     (`einsum(\"ij,jk->ik\", a, b)`)",
                );
                positional.remove(0);
                equation_reported = true;
            }
            None => {}
        }
    }
    // One or three operands are the rows `einsum_one` and `einsum_three`.
    let op = match (op.rule, positional.len()) {
        (Rule::Einsum { .. }, operands) => {
            let row = OPS.iter().find(|row| {
                u8::try_from(operands).is_ok_and(|n| row.rule == Rule::Einsum { operands: n })
            });
            let Some(row) = row else {
                return Err(syn::Error::new_spanned(
                    call,
                    format!(
                        "rxt-tf: `einsum` takes one to three operands after its equation, \
                         got {operands}"
                    ),
                ));
            };
            *row
        }
        _ => op,
    };
    // `split(x, [2, -1])`: the form with sizes is its own row (`SplitV`).
    let op = match (op.name, positional.get(1)) {
        ("split", Some(Expr::Array(_))) => rxt_tf_spec::lookup("split_v").unwrap_or(op),
        _ => op,
    };
    let op = match op.name {
        "pad" => pad_mode(op, &mut keyword_args, &mut errors),
        _ => op,
    };
    // Keywords the op also takes by position, after its operands
    // (`cast(x, f32)`): named here, then checked as keywords.
    let by_position: Vec<&Expr> = match positional.len().checked_sub(op.arity()) {
        Some(extra) if extra > 0 && !op.positional.is_empty() => {
            let taken = extra.min(op.positional.len());
            positional.drain(op.arity()..op.arity() + taken).collect()
        }
        _ => Vec::new(),
    };
    let names: Vec<Expr> = op
        .positional
        .iter()
        .zip(&by_position)
        .map(|(name, value)| {
            let ident = syn::Ident::new(name, value.span());
            syn::parse_quote!(#ident)
        })
        .collect();
    let mut given: Vec<(&Expr, &Expr)> = names.iter().zip(by_position).collect();
    given.extend(keyword_args);
    let given_positionally = check_operand_count(op, call, &positional, &mut errors);
    let operands = match positional.len() == op.arity() {
        true => operands(op, &positional, &mut errors),
        false => Vec::new(),
    };
    let keywords = keyword_values(
        op,
        call,
        &given,
        given_positionally || equation_reported,
        &mut errors,
    );
    errors.finish(Invocation {
        op,
        op_span: name.span(),
        operands,
        keywords,
    })
}

/// `pad(x, pairs, mode = …)` as `tf.pad` spells it: `"REFLECT"` and
/// `"SYMMETRIC"` are the row `mirror_pad` (`MirrorPad`), `"CONSTANT"` stays
/// `pad` (`PadV2`); another string is an error naming all three (and is
/// taken out, so `pad`'s own check does not repeat it).
fn pad_mode(
    op: &'static Op,
    keywords: &mut Vec<(&Expr, &Expr)>,
    errors: &mut Errors,
) -> &'static Op {
    let mode = keywords
        .iter()
        .enumerate()
        .find_map(|(position, (key, value))| {
            match (key.to_token_stream().to_string().as_str(), value) {
                (
                    "mode",
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }),
                ) => Some((position, text.value())),
                _ => None,
            }
        });
    match mode {
        Some((_, mode)) if mode == "REFLECT" || mode == "SYMMETRIC" => {
            rxt_tf_spec::lookup("mirror_pad").unwrap_or(op)
        }
        Some((position, mode)) if mode != "CONSTANT" => {
            let (_, value) = keywords.remove(position);
            errors.push(
                value,
                format!(
                    "rxt-tf: `pad` supports `mode` = `\"CONSTANT\"`, `\"REFLECT\"` or \
                     `\"SYMMETRIC\"`, got `mode = {}`",
                    value.to_token_stream()
                ),
            );
            op
        }
        _ => op,
    }
}

/// Checks the number of operands; `true` when the extra ones were taken
/// for the required keywords (reported once, here).
fn check_operand_count(op: &Op, call: &ExprCall, operands: &[&Expr], errors: &mut Errors) -> bool {
    let arity = op.arity();
    if operands.len() == arity {
        return false;
    }
    let required: Vec<&Keyword> = op.keywords.iter().filter(|k| k.default.is_none()).collect();
    if operands.len() > arity && !required.is_empty() {
        let names: Vec<String> = required.iter().map(|k| format!("`{}`", k.name)).collect();
        let examples: Vec<String> = required
            .iter()
            .map(|k| format!("`{} = {}`", k.name, example(k)))
            .collect();
        for extra in &operands[arity..] {
            errors.push(
                extra,
                format!(
                    "rxt-tf: `{}` takes {} as a keyword, not positionally: write {}",
                    op.name,
                    join_or(&names),
                    join_or(&examples)
                ),
            );
        }
        return true;
    }
    let s = if arity == 1 { "" } else { "s" };
    let message = format!(
        "rxt-tf: `{}` takes {arity} tensor operand{s} ({}), got {}",
        op.name,
        op.operands_text(),
        operands.len()
    );
    match operands.get(arity..) {
        Some(extra) if !extra.is_empty() => {
            let extra: proc_macro2::TokenStream =
                extra.iter().map(ToTokens::to_token_stream).collect();
            errors.push(extra, message);
        }
        _ => errors.push(call, message),
    }
    false
}

/// A value to show in "write `axis = 1`" hints.
fn example(keyword: &Keyword) -> String {
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
            ValueKind::Spatial => "2".to_owned(),
            ValueKind::Equation => "\"ij,jk->ik\"".to_owned(),
        },
    }
}

/// One value per row keyword (given, else its default), checking names,
/// duplicates, literals and values; required keywords must be given
/// (unless `given_positionally` already said where they go).
fn keyword_values(
    op: &Op,
    call: &ExprCall,
    given: &[(&Expr, &Expr)],
    given_positionally: bool,
    errors: &mut Errors,
) -> Vec<Value> {
    let mut values: Vec<Option<Value>> = op.keywords.iter().map(|k| k.default).collect();
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
        if let Some(parsed) = keyword_value(op, keyword, value, errors) {
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
    values.into_iter().flatten().collect()
}

/// "`axis = 1`" or "`axis` = `0`, `1` or `-1`" or "`alpha` = a float literal".
fn literal_text(keyword: &Keyword) -> String {
    match keyword.allowed {
        [only] => format!("`{} = {}`", keyword.name, only.rust()),
        _ => format!("`{}` = {}", keyword.name, keyword.allowed_text()),
    }
}

/// The literal `value` of `keyword`, if it is one the row accepts.
fn keyword_value(op: &Op, keyword: &Keyword, value: &Expr, errors: &mut Errors) -> Option<Value> {
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
        ValueKind::Axes | ValueKind::Spatial => match int_list(value) {
            Some(ints) => Some(Value::Ints(leak(ints))),
            None => literal(ValueKind::Int, value),
        },
        ValueKind::Count => literal(ValueKind::Int, value),
        ValueKind::Number => {
            literal(ValueKind::Int, value).or_else(|| literal(ValueKind::Float, value))
        }
        ValueKind::Str => string(value).map(|text| Value::Str(Box::leak(text.into_boxed_str()))),
        ValueKind::Equation => match string(value) {
            Some(text) => match rxt_tf_spec::einsum::parse(&text, op.arity()) {
                Ok(equation) => Some(Value::Str(Box::leak(equation.resolved.into_boxed_str()))),
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
/// permutation.
fn check_axes(keyword: &Keyword, value: &Value) -> Result<(), String> {
    let max = i64::from(MAX_RANK);
    let (axes, is_perm): (&[i64], bool) = match (keyword.kind, value) {
        (ValueKind::Axes | ValueKind::Int, Value::Int(axis)) if keyword.typed => {
            (std::slice::from_ref(axis), false)
        }
        (ValueKind::Axes, Value::Ints(axes)) => (axes, false),
        (ValueKind::Ints, Value::Ints(perm)) => (perm, true),
        _ => return Ok(()),
    };
    if is_perm {
        let n = i64::try_from(axes.len()).unwrap_or(i64::MAX);
        let mut sorted = axes.to_vec();
        sorted.sort_unstable();
        let identity: Vec<i64> = (0..n).collect();
        if axes.len() > usize::from(MAX_RANK) || sorted != identity {
            return Err(format!(
                "`perm = {}` is not a permutation of the axes (each of 0..{n} once; tensors have \
                 at most {max} axes)",
                value.rust()
            ));
        }
        return Ok(());
    }
    if axes.is_empty() {
        return Err(format!("`{} = []` names no axis", keyword.name));
    }
    if let Some(axis) = axes.iter().find(|axis| !(-max..max).contains(*axis)) {
        return Err(format!(
            "`{} = {}`: axis {axis} is out of range for every rank (tensors have at most {max} axes)",
            keyword.name,
            value.rust()
        ));
    }
    for (index, axis) in axes.iter().enumerate() {
        if axes[..index].contains(axis) {
            return Err(format!(
                "`{} = {}` names the axis {axis} twice",
                keyword.name,
                value.rust()
            ));
        }
    }
    if !(1..=MAX_RANK).any(|rank| axes_fit(axes, rank)) {
        return Err(format!(
            "`{} = {}` names one axis twice for every rank",
            keyword.name,
            value.rust()
        ));
    }
    Ok(())
}

/// `ints` kept for the rest of the expansion (a keyword value is `'static`).
fn leak(ints: Vec<i64>) -> &'static [i64] {
    Box::leak(ints.into_boxed_slice())
}
