//! Row choice: which row of the op table a spelling names. An op name
//! (with the nearest op suggested when there is none), an operator, or a
//! spelling the spec keeps as its own row ([`rxt_tf_spec::spelling`]:
//! einsum by operand count, `split` with sizes, a mirror `pad`).

use proc_macro2::Ident;
use quote::ToTokens;
use rxt_tf_spec::spelling::{self, KeywordChoice};
use rxt_tf_spec::{join_or, Op, OPS};
use syn::spanned::Spanned;
use syn::{Expr, ExprCall};

use crate::errors::Errors;
use crate::tf::literal::string;

use super::keywords::example;

/// The row of the op `call` names, and the name as written.
pub(super) fn by_name(call: &ExprCall) -> syn::Result<(&'static Op, Ident)> {
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
    match rxt_tf_spec::lookup(&syn::ext::IdentExt::unraw(&name).to_string()) {
        Some(op) => Ok((op, name)),
        None => Err(syn::Error::new(name.span(), unknown_op(&name.to_string()))),
    }
}

/// The row of the binary operator `token` (`+` is `add`).
pub(super) fn by_operator(token: &str, span: proc_macro2::Span) -> syn::Result<&'static Op> {
    rxt_tf_spec::by_operator(token, 2).ok_or_else(|| {
        syn::Error::new(
            span,
            format!(
                "rxt-tf: unsupported operator `{token}`; `tf!` supports {}",
                operators()
            ),
        )
    })
}

/// The arguments of a call, sorted: operands by position, keywords by name.
pub(super) struct Args<'a> {
    /// The operands, in order.
    pub(super) positional: Vec<&'a Expr>,
    /// `key = value`, in order.
    pub(super) keywords: Vec<(&'a Expr, &'a Expr)>,
    /// Whether a required keyword's misplacement was already reported (so
    /// "needs the keyword" is not said too).
    pub(super) keyword_reported: bool,
}

/// The row `op`'s spellings choose for `args`, moving a leading keyword
/// (`einsum`'s equation, named `leading`) among the keywords.
pub(super) fn respell<'a>(
    op: &'static Op,
    call: &ExprCall,
    args: &mut Args<'a>,
    leading: Option<&'a Expr>,
    errors: &mut Errors,
) -> syn::Result<&'static Op> {
    // `einsum("ij,jk->ik", a, b)`: the equation comes first, as in
    // `tf.einsum`; it is the keyword `equation`.
    if let (Some(keyword), Some(name)) = (spelling::leading_keyword(op.name), leading) {
        match args.positional.first() {
            Some(first) if string(first).is_some() => {
                let value = args.positional.remove(0);
                args.keywords.insert(0, (name, value));
            }
            Some(first) => {
                let example = op.keyword(keyword).map(example).unwrap_or_default();
                errors.push(
                    first,
                    format!(
                        "rxt-tf: `{}` takes its {keyword} first, as a string literal \
                         (`{}({example}, a, b)`)",
                        op.name, op.name
                    ),
                );
                args.positional.remove(0);
                args.keyword_reported = true;
            }
            None => {}
        }
    }
    // One or three operands are the rows `einsum_one` and `einsum_three`.
    let op = match spelling::by_arity(op.name, args.positional.len()) {
        Some(Ok(row)) => row,
        Some(Err((least, most))) => {
            return Err(syn::Error::new_spanned(
                call,
                format!(
                    "rxt-tf: `{}` takes {} to {} operands after its {}, got {}",
                    op.name,
                    count(least),
                    count(most),
                    spelling::leading_keyword(op.name).unwrap_or("name"),
                    args.positional.len()
                ),
            ));
        }
        None => op,
    };
    // `split(x, [2, -1])`: the form with sizes is its own row (`SplitV`).
    let op = (args.positional.iter().enumerate())
        .filter(|(_, operand)| matches!(operand, Expr::Array(_)))
        .find_map(|(position, _)| spelling::by_list_operand(op.name, position))
        .unwrap_or(op);
    Ok(by_keyword_value(op, &mut args.keywords, errors))
}

/// "one", "two", … for small counts.
fn count(n: usize) -> String {
    match n {
        1 => "one".to_owned(),
        2 => "two".to_owned(),
        3 => "three".to_owned(),
        n => n.to_string(),
    }
}

/// `pad(x, pairs, mode = …)` as `tf.pad` spells it: `"REFLECT"` and
/// `"SYMMETRIC"` are the row `mirror_pad` (`MirrorPad`), `"CONSTANT"` stays
/// `pad` (`PadV2`); another string is an error naming all three, and so is
/// a Rust value (the text picks the op, so it is a literal); either is
/// taken out, so the op's own check does not repeat it.
fn by_keyword_value(
    op: &'static Op,
    keywords: &mut Vec<(&Expr, &Expr)>,
    errors: &mut Errors,
) -> &'static Op {
    let Some(chooser) = spelling::choosing_keyword(op.name) else {
        return op;
    };
    let given = keywords
        .iter()
        .position(|(key, _)| key.to_token_stream().to_string() == chooser);
    let chosen = given.and_then(|position| {
        let text = string(keywords[position].1)?;
        Some((
            position,
            spelling::by_keyword_value(op.name, chooser, &text),
        ))
    });
    if let (Some(position), None) = (given, &chosen) {
        let (_, value) = keywords.remove(position);
        errors.push(
            value,
            format!(
                "rxt-tf: `{}`'s `{chooser}` must be a string literal, not a Rust value: its text \
                 picks the TensorFlow op that runs",
                op.name
            ),
        );
        return op;
    }
    match chosen {
        Some((_, KeywordChoice::Row(row))) => row,
        Some((position, KeywordChoice::Unknown(stays, moves))) => {
            let (_, value) = keywords.remove(position);
            let values: Vec<String> = stays
                .iter()
                .chain(moves.iter())
                .map(|value| format!("`{value:?}`"))
                .collect();
            errors.push(
                value,
                format!(
                    "rxt-tf: `{}` supports `{chooser}` = {}, got `{chooser} = {}`",
                    op.name,
                    join_or(&values),
                    value.to_token_stream()
                ),
            );
            op
        }
        _ => op,
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
