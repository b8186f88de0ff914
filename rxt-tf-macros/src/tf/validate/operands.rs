//! Operands: each positional argument as the model holds it, by the role
//! its position has in the row (a tensor or literal, a list of integers, a
//! list of tensors, pairs, a size), and their count.

use quote::ToTokens;
use rxt_tf_spec::{join_or, Keyword, Op, Role, MAX_LIST};
use syn::spanned::Spanned;
use syn::{Expr, ExprCall};

use crate::errors::Errors;
use crate::tf::literal::{number_literal, NumberLiteral};
use crate::tf::model::{DimExpr, OperandExpr};

use super::keywords::example;

/// The operands as the model holds them: number literals become literal
/// operands (they take the other operand's element type; where the op takes
/// them, the types decide); all-literal operand lists are rejected here.
pub(super) fn operands(op: &Op, exprs: &[&Expr], errors: &mut Errors) -> Vec<OperandExpr> {
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
/// Checks the number of operands; `true` when the extra ones were taken
/// for the required keywords (reported once, here).
pub(super) fn check_operand_count(
    op: &Op,
    call: &ExprCall,
    operands: &[&Expr],
    errors: &mut Errors,
) -> bool {
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
