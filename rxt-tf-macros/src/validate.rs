//! Validation: turns the parsed `tf!` expression into an [`Invocation`], or
//! every error found, each at the offending tokens with the valid choices.

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, ExprCall, Lit};

use crate::model::Invocation;
use crate::ops::{self, Keyword, OpSpec};

/// Collects errors so all of them are reported at once.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, span: impl Spanned, message: impl std::fmt::Display) {
        let err = syn::Error::new(span.span(), message);
        match &mut self.0 {
            Some(all) => all.combine(err),
            None => self.0 = Some(err),
        }
    }

    fn finish<T>(self, value: T) -> syn::Result<T> {
        self.0.map_or(Ok(value), Err)
    }
}

/// Validates one `tf!` expression.
pub(crate) fn invocation(expr: &Expr) -> syn::Result<Invocation> {
    match expr {
        Expr::Binary(binary) => match binary.op {
            BinOp::Add(_) => Ok(Invocation {
                op: ops::lookup("add").ok_or_else(|| syn::Error::new(binary.span(), "rxt-tf: no `add` op"))?,
                operands: vec![(*binary.left).clone(), (*binary.right).clone()],
            }),
            other => Err(syn::Error::new(
                other.span(),
                format!(
                    "rxt-tf: unsupported operator `{}`; `tf!` supports only `+` (tensor addition)",
                    other.to_token_stream()
                ),
            )),
        },
        Expr::Call(call) => op_call(call),
        Expr::Paren(inner) => invocation(&inner.expr),
        other => Err(syn::Error::new(
            other.span(),
            format!(
                "rxt-tf: `tf!` expects an op call such as `matmul(x, w)` or a sum `a + b`; supported ops: {}",
                ops::names()
            ),
        )),
    }
}

fn op_call(call: &ExprCall) -> syn::Result<Invocation> {
    let name = match &*call.func {
        Expr::Path(path) if path.qself.is_none() => path.path.get_ident().cloned(),
        _ => None,
    };
    let Some(name) = name else {
        return Err(syn::Error::new(
            call.func.span(),
            format!(
                "rxt-tf: expected an op name; supported ops: {}",
                ops::names()
            ),
        ));
    };
    let Some(op) = ops::lookup(&name.to_string()) else {
        return Err(syn::Error::new(
            name.span(),
            format!(
                "rxt-tf: unsupported op `{name}`; expected one of: {}",
                ops::names()
            ),
        ));
    };

    let mut errors = Errors::default();
    let mut operands = Vec::new();
    let mut keywords = Vec::new();
    for arg in &call.args {
        match arg {
            Expr::Assign(assign) => keywords.push(assign),
            positional => {
                if let Some(keyword) = keywords.last() {
                    errors.push(
                        positional,
                        format!(
                            "rxt-tf: positional operand after the keyword `{}`",
                            keyword.left.to_token_stream()
                        ),
                    );
                }
                operands.push(positional.clone());
            }
        }
    }
    check_operands(op, call, &operands, &mut errors);
    check_keywords(op, call, &keywords, &mut errors);
    errors.finish(Invocation { op, operands })
}

fn check_operands(op: &OpSpec, call: &ExprCall, operands: &[Expr], errors: &mut Errors) {
    if operands.len() == op.operands {
        return;
    }
    if op
        .keywords
        .iter()
        .any(|k| matches!(k, Keyword::RequiredInt(..)))
        && operands.len() > op.operands
    {
        for extra in &operands[op.operands..] {
            errors.push(
                extra,
                format!(
                    "rxt-tf: `{}` takes the axis as the keyword `axis = 1`, not positionally",
                    op.name
                ),
            );
        }
        return;
    }
    let s = if op.operands == 1 { "" } else { "s" };
    let span = if operands.len() > op.operands {
        operands[op.operands..]
            .iter()
            .map(|e| e.to_token_stream())
            .collect::<proc_macro2::TokenStream>()
    } else {
        call.to_token_stream()
    };
    errors.push(
        span,
        format!(
            "rxt-tf: `{}` takes {} tensor operand{s} ({}), got {}",
            op.name,
            op.operands,
            op.ranks,
            operands.len()
        ),
    );
}

fn check_keywords(op: &OpSpec, call: &ExprCall, given: &[&syn::ExprAssign], errors: &mut Errors) {
    let mut seen: Vec<String> = Vec::new();
    for assign in given {
        let key = match &*assign.left {
            Expr::Path(path) => path.path.get_ident().map(ToString::to_string),
            _ => None,
        };
        let Some(key) = key else {
            errors.push(&assign.left, "rxt-tf: expected a keyword name");
            continue;
        };
        let Some(rule) = op.keywords.iter().find(|k| k.name() == key) else {
            let allowed = if op.keywords.is_empty() {
                format!("`{}` takes no keyword arguments", op.name)
            } else {
                let names: Vec<String> = op
                    .keywords
                    .iter()
                    .map(|k| format!("`{}`", k.name()))
                    .collect();
                format!("`{}` accepts only {}", op.name, names.join(" and "))
            };
            errors.push(
                &assign.left,
                format!("rxt-tf: unsupported keyword `{key}`; {allowed}"),
            );
            continue;
        };
        if seen.contains(&key) {
            errors.push(&assign.left, format!("rxt-tf: keyword `{key}` given twice"));
        }
        seen.push(key.clone());
        check_keyword_value(op, rule, &assign.right, errors);
    }
    for rule in op.keywords {
        if let Keyword::RequiredInt(name, value) = rule {
            if !seen.iter().any(|k| k == name) {
                errors.push(call, format!(
                    "rxt-tf: `{}` needs the keyword `{name} = {value}` (the only supported reduction)",
                    op.name
                ));
            }
        }
    }
}

fn check_keyword_value(op: &OpSpec, rule: &Keyword, value: &Expr, errors: &mut Errors) {
    let literal = match value {
        Expr::Lit(lit) => Some(&lit.lit),
        _ => None,
    };
    match (rule, literal) {
        (Keyword::RequiredInt(name, expected), Some(Lit::Int(int))) => {
            if int.base10_digits() != *expected || !int.suffix().is_empty() && int.suffix() != "i32" {
                errors.push(value, format!(
                    "rxt-tf: `{}` supports only `{name} = {expected}`, got `{name} = {}`",
                    op.name,
                    int.to_token_stream()
                ));
            }
        }
        (Keyword::RequiredInt(name, expected), _) => errors.push(value, format!(
            "rxt-tf: `{name}` must be the integer literal `{expected}`, not an expression (the axis is checked at compile time)"
        )),
        (Keyword::OptionalBool(name, expected), Some(Lit::Bool(flag))) => {
            if flag.value != *expected {
                errors.push(value, format!(
                    "rxt-tf: `{}` supports only `{name} = {expected}`, got `{name} = {}`",
                    op.name, flag.value
                ));
            }
        }
        (Keyword::OptionalBool(name, expected), _) => errors.push(value, format!(
            "rxt-tf: `{name}` must be the literal `{expected}`, not an expression"
        )),
    }
}
