//! Python's indexing inside `tf!` (`x[:, 0]`, `x[..., 1:3]`, `x[:, None]`,
//! `x[::2]`, `x[:, i]`): parsed from the tokens (Rust has no such syntax)
//! and turned into the `strided_slice` call `Tensor.__getitem__` makes, with
//! its begin, end and strides lists and its masks.

use proc_macro2::{Delimiter, Ident, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use rxt_tf_spec::{Value, OPS};
use syn::spanned::Spanned;
use syn::Expr;

use crate::errors::Errors;
use crate::tf::literal::{number_literal, NumberLiteral};
use crate::tf::model::{DimExpr, Invocation, OperandExpr};

/// `base[items]`, as written.
pub(crate) struct IndexSyntax {
    /// The indexed expression.
    pub(crate) base: Expr,
    /// The entries between the brackets.
    pub(crate) items: Vec<Item>,
    /// The brackets.
    pub(crate) span: Span,
}

/// One entry of an index.
pub(crate) enum Item {
    /// `...`: every axis not named.
    Ellipsis(Span),
    /// `None`: a new axis of size 1.
    NewAxis,
    /// `start:stop:step`, each part optional: the axis kept.
    Slice(Box<[Option<Expr>; 3]>, Span),
    /// An integer (literal or Rust expression): the axis dropped.
    At(Expr),
}

/// The tokens of `tf!` as an index, if they are one: an expression that can
/// be indexed (a path, a field, a call, a parenthesized or `?` expression)
/// followed by one bracketed group.
pub(crate) fn index_syntax(tokens: &[TokenTree]) -> Option<syn::Result<IndexSyntax>> {
    let (TokenTree::Group(group), base) = tokens.split_last()? else {
        return None;
    };
    if group.delimiter() != Delimiter::Bracket || base.is_empty() {
        return None;
    }
    let base: Expr = syn::parse2(base.iter().cloned().collect()).ok()?;
    let indexable = matches!(
        base,
        Expr::Path(_)
            | Expr::Field(_)
            | Expr::Call(_)
            | Expr::MethodCall(_)
            | Expr::Paren(_)
            | Expr::Try(_)
            | Expr::Macro(_)
            | Expr::Index(_)
    );
    if !indexable {
        return None;
    }
    let items = split(group.stream(), |tree| is_punct(tree, ','))
        .into_iter()
        .enumerate()
        .filter(|(index, item)| !item.is_empty() || *index == 0)
        .map(|(_, item)| parse_item(item, group.span()))
        .collect::<syn::Result<Vec<Item>>>();
    Some(items.map(|items| IndexSyntax {
        base,
        items,
        span: group.span(),
    }))
}

fn is_punct(tree: &TokenTree, ch: char) -> bool {
    matches!(tree, TokenTree::Punct(punct) if punct.as_char() == ch)
}

/// `tokens` split at the top-level tokens `at` matches (groups are single
/// tokens, so nested commas and colons stay inside).
fn split(tokens: TokenStream, at: impl Fn(&TokenTree) -> bool) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    for tree in tokens {
        if at(&tree) {
            parts.push(Vec::new());
        } else if let Some(last) = parts.last_mut() {
            last.push(tree);
        }
    }
    parts
}

fn parse_item(tokens: Vec<TokenTree>, brackets: Span) -> syn::Result<Item> {
    let span = tokens.first().map_or(brackets, TokenTree::span);
    let text: String = tokens.iter().map(ToString::to_string).collect();
    if text == "..." {
        return Ok(Item::Ellipsis(span));
    }
    if text == "None" {
        return Ok(Item::NewAxis);
    }
    let parts = slice_parts(&tokens);
    if parts.len() == 1 {
        if tokens.is_empty() {
            return Err(syn::Error::new(
                brackets,
                "rxt-tf: an empty index; write `x[:, 0]`, `x[..., 1:3]` or `x[None]`",
            ));
        }
        return Ok(Item::At(expr(&tokens)?));
    }
    if parts.len() > 3 {
        return Err(syn::Error::new(
            span,
            "rxt-tf: a slice has at most three parts, `start:stop:step`",
        ));
    }
    let mut bounds: [Option<Expr>; 3] = [None, None, None];
    for (bound, part) in bounds.iter_mut().zip(&parts) {
        if !part.is_empty() {
            *bound = Some(expr(part)?);
        }
    }
    Ok(Item::Slice(Box::new(bounds), span))
}

/// The parts of a slice: `tokens` split at its colons. A `::` joins two
/// parts (`::2`), except between two names, where it is a path
/// (`i64::MAX`).
fn slice_parts(tokens: &[TokenTree]) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    let mut index = 0;
    while let Some(tree) = tokens.get(index) {
        let path = is_punct(tree, ':')
            && matches!(tree, TokenTree::Punct(p) if p.spacing() == Spacing::Joint)
            && tokens
                .get(index + 1)
                .is_some_and(|next| is_punct(next, ':'))
            && index > 0
            && matches!(tokens.get(index - 1), Some(TokenTree::Ident(_)))
            && matches!(tokens.get(index + 2), Some(TokenTree::Ident(_)));
        if path {
            if let Some(last) = parts.last_mut() {
                last.extend(tokens[index..index + 2].iter().cloned());
            }
            index += 2;
            continue;
        }
        if is_punct(tree, ':') {
            parts.push(Vec::new());
        } else if let Some(last) = parts.last_mut() {
            last.push(tree.clone());
        }
        index += 1;
    }
    parts
}

fn expr(tokens: &[TokenTree]) -> syn::Result<Expr> {
    syn::parse2(tokens.iter().cloned().collect())
}

/// The `strided_slice` invocation of `index`, or its errors: the lists and
/// masks `Tensor.__getitem__` builds, run-time integers bound once each
/// (`prelude`), and the counts that type the result.
pub(crate) fn invocation(
    index: IndexSyntax,
    prelude: &mut Vec<(Ident, Expr)>,
) -> syn::Result<Invocation> {
    let op = OPS
        .iter()
        .copied()
        .find(|op| op.name == "strided_slice")
        .ok_or_else(|| syn::Error::new(index.span, "rxt-tf: no op for indexing"))?;
    let mut errors = Errors::default();
    let (mut begin, mut end, mut strides) = (Vec::new(), Vec::new(), Vec::new());
    let mut masks = [0_i64; 5];
    let [begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask] = [0, 1, 2, 3, 4];
    let (mut ellipses, mut news, mut shrinks) = (0, 0, 0);
    for (position, item) in index.items.iter().enumerate() {
        let bit = 1_i64.checked_shl(u32::try_from(position).unwrap_or(u32::MAX));
        let Some(bit) = bit.filter(|bit| *bit > 0) else {
            errors.push_at(index.span, "rxt-tf: an index has at most 62 entries");
            break;
        };
        match item {
            Item::Ellipsis(span) => {
                ellipses += 1;
                if ellipses == 2 {
                    errors.push_at(*span, "rxt-tf: an index has at most one `...`");
                }
                masks[ellipsis_mask] |= bit;
                begin.push(DimExpr::Literal(0));
                end.push(DimExpr::Literal(0));
                strides.push(DimExpr::Literal(1));
            }
            Item::NewAxis => {
                news += 1;
                masks[new_axis_mask] |= bit;
                begin.push(DimExpr::Literal(0));
                end.push(DimExpr::Literal(0));
                strides.push(DimExpr::Literal(1));
            }
            Item::Slice(bounds, span) => {
                let [start, stop, step] = &**bounds;
                match start {
                    Some(start) => begin.push(entry(start, prelude, &mut errors)),
                    None => {
                        masks[begin_mask] |= bit;
                        begin.push(DimExpr::Literal(0));
                    }
                }
                match stop {
                    Some(stop) => end.push(entry(stop, prelude, &mut errors)),
                    None => {
                        masks[end_mask] |= bit;
                        end.push(DimExpr::Literal(0));
                    }
                }
                let step = match step {
                    Some(step) => entry(step, prelude, &mut errors),
                    None => DimExpr::Literal(1),
                };
                if matches!(step, DimExpr::Literal(0)) {
                    errors.push_at(*span, "rxt-tf: a slice's step cannot be 0");
                }
                strides.push(step);
            }
            Item::At(at) => {
                shrinks += 1;
                masks[shrink_axis_mask] |= bit;
                let (first, next) = match entry(at, prelude, &mut errors) {
                    DimExpr::Literal(value) => (
                        DimExpr::Literal(value),
                        DimExpr::Literal(value.saturating_add(1)),
                    ),
                    DimExpr::Expr(bound) => {
                        let next: Expr = syn::parse_quote!(#bound.saturating_add(1));
                        (DimExpr::Expr(bound), DimExpr::Expr(next))
                    }
                };
                begin.push(first);
                end.push(next);
                strides.push(DimExpr::Literal(1));
            }
        }
    }
    let count = |n: usize| Value::Int(i64::try_from(n).unwrap_or(i64::MAX));
    let indexed = index.items.len() - ellipses - news;
    let mut keywords: Vec<Value> = masks.iter().map(|mask| Value::Int(*mask)).collect();
    keywords.extend([count(indexed), count(shrinks), count(news)]);
    errors.finish(Invocation {
        op,
        op_span: index.span,
        operands: vec![
            OperandExpr::Expr(index.base),
            OperandExpr::Dims(begin, index.span),
            OperandExpr::Dims(end, index.span),
            OperandExpr::Dims(strides, index.span),
        ],
        keywords,
        runtime: Vec::new(),
        generic: Vec::new(),
        untyped: Vec::new(),
        equation: None,
    })
}

/// One bound of an index: an integer literal as is, any other expression
/// bound once (it may be used for the begin and the end) as an `i64`.
fn entry(expr: &Expr, prelude: &mut Vec<(Ident, Expr)>, errors: &mut Errors) -> DimExpr {
    match number_literal(expr) {
        Some(NumberLiteral::Int(value)) => DimExpr::Literal(value),
        Some(_) => {
            errors.push(
                expr,
                format!(
                    "rxt-tf: an index takes integers, not `{}`",
                    expr.to_token_stream()
                ),
            );
            DimExpr::Literal(0)
        }
        None => {
            // The parentheses a bound needs in Python-style syntax
            // (`1:(n + 2)`) are not needed as an argument (`unused_parens`).
            let mut expr = expr;
            while let Expr::Paren(inner) = expr {
                expr = &inner.expr;
            }
            let name = Ident::new(
                &format!("__rxt_tf_index_{}", prelude.len()),
                Span::mixed_site().located_at(expr.span()),
            );
            prelude.push((name.clone(), expr.clone()));
            DimExpr::Expr(syn::parse_quote!(#name))
        }
    }
}
