//! Validation: the parsed `tf!` syntax against the op table, into an
//! [`Invocation`], or every error found, each at the offending tokens with
//! the valid choices. Ranks are left to the types (see the runtime's
//! `ops::typed`), which report them at the operand.
//!
//! [`rows`] chooses the row a spelling names, [`operands`] reads the
//! positional arguments by their roles, [`keywords`] the keyword values.

mod keywords;
mod operands;
mod rows;

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Expr, ExprCall};

use crate::errors::Errors;
use crate::tf::model::Invocation;
use crate::tf::parse::{Arg, Syntax};

use keywords::{defaults, keyword_values};
use operands::{check_operand_count, operands};
use rows::Args;

/// Validates one `tf!` expression.
pub(crate) fn invocation(syntax: Syntax<'_>) -> syn::Result<Invocation> {
    match syntax {
        Syntax::Operator(operator, left, right) => {
            let token = operator.to_token_stream().to_string();
            let op = rows::by_operator(&token, operator.span())?;
            let mut errors = Errors::default();
            let operands = operands(op, &[left, right], &mut errors);
            errors.finish(Invocation {
                op,
                op_span: operator.span(),
                operands,
                keywords: defaults(op),
                runtime: Vec::new(),
                generic: Vec::new(),
                untyped: Vec::new(),
                equation: None,
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
                runtime: Vec::new(),
                generic: Vec::new(),
                untyped: Vec::new(),
                equation: None,
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

fn op_call(call: &ExprCall, args: &[Arg<'_>]) -> syn::Result<Invocation> {
    let (op, name) = rows::by_name(call)?;
    let mut errors = Errors::default();
    let mut sorted = Args {
        positional: Vec::new(),
        keywords: Vec::new(),
        keyword_reported: false,
    };
    for arg in args {
        match *arg {
            Arg::Keyword(key, value) => sorted.keywords.push((key, value)),
            Arg::Positional(expr) => {
                if let Some((key, _)) = sorted.keywords.last() {
                    errors.push(
                        expr,
                        format!(
                            "rxt-tf: positional operand after the keyword `{}`",
                            key.to_token_stream()
                        ),
                    );
                }
                sorted.positional.push(expr);
            }
        }
    }
    let leading: Option<Expr> = rxt_tf_spec::spelling::leading_keyword(op.name).map(|keyword| {
        let ident = syn::Ident::new(keyword, name.span());
        syn::parse_quote!(#ident)
    });
    let op = rows::respell(op, call, &mut sorted, leading.as_ref(), &mut errors)?;
    let Args {
        mut positional,
        keywords: keyword_args,
        keyword_reported,
    } = sorted;
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
    let mut equation = None;
    let given = keyword_values(
        op,
        call,
        &given,
        given_positionally || keyword_reported,
        &mut equation,
        &mut errors,
    );
    errors.finish(Invocation {
        op,
        op_span: name.span(),
        operands,
        keywords: given.values,
        runtime: given.runtime,
        generic: given.generic,
        untyped: given.untyped,
        equation,
    })
}
