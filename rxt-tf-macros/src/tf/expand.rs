//! Expansion of `tf!`: one generic `execute` call of the op's marker type,
//! each operand checked and borrowed at its own span (so a rank error points
//! at it), the typed keywords as types and every keyword value as data.

use proc_macro2::{Group, Ident, Literal, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use rxt_tf_spec::einsum::Equation;
use rxt_tf_spec::{fits_mask, Keyword, Value, ValueKind};
use syn::spanned::Spanned;

use crate::tf::index;
use crate::tf::model::{DimExpr, Invocation, OperandExpr, RuntimeValue};
use crate::tf::parse::{self, Body, TfInput};
use crate::tf::validate;

/// Expands `tf_impl!(<crate>; <expr>)`; errors become `compile_error!`.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let input: TfInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    let krate = &input.krate;
    let mut prelude = Vec::new();
    let (validated, span) = match input.body {
        Body::Expr(expr) => (validate::invocation(parse::syntax(&expr)), expr.span()),
        Body::Index(index) => {
            let span = index.span;
            (index::invocation(index, &mut prelude), span)
        }
    };
    match validated {
        Ok(invocation) if prelude.is_empty() => call(krate, &invocation, span),
        Ok(invocation) => {
            // Run-time integers of an index, each evaluated once.
            let call = call(krate, &invocation, span);
            let (names, exprs): (Vec<Ident>, Vec<syn::Expr>) = prelude.into_iter().unzip();
            let private = quote!(#krate::__private);
            quote! {{
                #(let #names: i64 = #private::IntoDim::dim(#exprs);)*
                #call
            }}
        }
        Err(err) => {
            let error = err.to_compile_error();
            // The result type is left to inference, so the code after it
            // type-checks whatever it expects.
            quote! {{ #error #krate::__private::unreachable_result() }}
        }
    }
}

fn call(krate: &TokenStream, invocation: &Invocation, span: Span) -> TokenStream {
    let private = quote!(#krate::__private);
    let op = Ident::new(&invocation.op.marker_name(), invocation.op_span);
    let marker = quote!(#krate::ops::op::#op);
    let runtime = |index: usize| at(&invocation.runtime, index, |value| value.index);
    let generic =
        |index: usize| at(&invocation.generic, index, |value| value.index).map(|value| &value.path);
    let untyped = |index: usize| at(&invocation.untyped, index, |value| value.index);
    let variant: Vec<TokenStream> = invocation
        .op
        .keywords
        .iter()
        .zip(&invocation.keywords)
        .enumerate()
        .filter(|(_, (keyword, _))| keyword.typed)
        .map(
            |(index, (keyword, value))| match (runtime(index), generic(index)) {
                (Some(given), _) => runtime_type(&private, keyword, given),
                (None, Some(path)) => quote!(#path),
                (None, None) => typed_value(&private, keyword, value, invocation.equation.as_ref()),
            },
        )
        .collect();
    let variant = match variant.is_empty() {
        true => quote!(()),
        false => quote!((#(#variant,)*)),
    };
    // Each operand is checked by a call spanned at the operand, so a rank
    // error (given the typed keywords) points at it and is reported once.
    // The element type is checked at the first operand written as an
    // expression; the rule ties the others' to it, so a wrong element type
    // is reported once, not once per operand.
    let first_expression = invocation
        .operands
        .iter()
        .position(|operand| matches!(operand, OperandExpr::Expr(_) | OperandExpr::Tensors(..)));
    // The operands of a three-operand einsum without `...` are also checked
    // at the operand against the ranks their subscripts give: a wrong rank
    // is then one error there, and the operand's type an error type, where
    // the rule's bounds alone would add a type mismatch about the operand
    // tuple.
    let ranks = match invocation.op.name {
        "einsum_three" => invocation
            .equation
            .as_ref()
            .and_then(|equation| equation.fixed_ranks()),
        _ => None,
    };
    let operands = invocation
        .operands
        .iter()
        .enumerate()
        .map(|(index, operand)| {
            let position = index + 1;
            let check = match first_expression.is_none_or(|first| first == index) {
                true => quote!(OperandOf),
                false => quote!(OperandRankOf),
            };
            let rank = ranks
                .as_ref()
                .and_then(|(operands, _)| operands.get(index))
                .map(|rank| usize::from(*rank));
            let (span, value) = match operand {
                OperandExpr::Expr(expr) => (expr.span(), quote_spanned!(expr.span()=> &(#expr))),
                OperandExpr::Float(float, span) => {
                    let literal = Literal::f64_suffixed(float.abs());
                    let sign = float.is_sign_negative().then(|| quote!(-));
                    (
                        *span,
                        quote_spanned!(*span=> &#private::FloatLiteral(#sign #literal)),
                    )
                }
                OperandExpr::Pairs(pairs, span) => {
                    let pairs = pairs.iter().map(|[before, after]| {
                        let before = dim_tokens(&private, before);
                        let after = dim_tokens(&private, after);
                        quote!([#before, #after])
                    });
                    (
                        *span,
                        quote_spanned!(*span=> &#private::Pairs([#(#pairs),*])),
                    )
                }
                OperandExpr::Size(size, span) => {
                    let value = dim_tokens(&private, size);
                    (*span, quote_spanned!(*span=> &#private::Size(#value)))
                }
                OperandExpr::Tensors(exprs, span) => {
                    let borrowed = exprs.iter().map(|expr| {
                        quote_spanned!(expr.span()=> #private::AsOperand::as_operand(&(#expr)))
                    });
                    (
                        *span,
                        quote_spanned!(*span=> &#private::TensorList::new([#(#borrowed),*])),
                    )
                }
                OperandExpr::Dims(entries, span) => {
                    let entries = entries.iter().map(|entry| dim_tokens(&private, entry));
                    (
                        *span,
                        quote_spanned!(*span=> &#private::Dims([#(#entries),*])),
                    )
                }
                OperandExpr::Int(int, span) => {
                    let literal = int_tokens(*int);
                    (
                        *span,
                        quote_spanned!(*span=> &#private::IntLiteral(#literal)),
                    )
                }
            };
            // The crate path too is placed at the operand, so every
            // obligation of its check is reported there, once.
            let private = located_at(&private, span);
            let checked = quote_spanned! {span=>
                <_ as #private::#check<#marker, #position>>::checked(#value)
            };
            match rank {
                Some(rank) => quote_spanned! {span=>
                    <_ as #private::SubscriptRank<#rank>>::ranked(#checked)
                },
                None => checked,
            }
        });
    // A list given at run time is kept as a keyword value (checked and
    // interned first); one integer is a value as it is.
    let mut lists = Vec::new();
    let values: Vec<TokenStream> = invocation
        .op
        .keywords
        .iter()
        .zip(&invocation.keywords)
        .enumerate()
        .map(|(index, (keyword, value))| match runtime(index) {
            Some(given) if given.list => {
                let name = Ident::new(&format!("__rxt_tf_keyword_{index}"), Span::mixed_site());
                let entries = given
                    .entries
                    .iter()
                    .map(|entry| dim_tokens(&private, entry));
                lists.push((name.clone(), quote!(#private::interned(&[#(#entries),*]))));
                quote!(#name)
            }
            Some(given) => {
                let entry = given
                    .entries
                    .iter()
                    .map(|entry| dim_tokens(&private, entry));
                quote!(#private::Value::Int(#(#entry)*))
            }
            None => match (generic(index), untyped(index)) {
                (Some(path), _) => {
                    quote!(#private::Value::Type(<#path as #private::Element>::DTYPE))
                }
                (None, Some(given)) => untyped_value(&private, keyword, &given.expr),
                (None, None) => value_tokens(&private, value),
            },
        })
        .collect();
    // Bit `i` for each keyword `i` given at run time: the runtime takes
    // those as inputs of a fused trace, not as part of its key.
    let given: u32 = invocation
        .runtime
        .iter()
        .filter_map(|value| 1_u32.checked_shl(u32::try_from(value.index).ok()?))
        .fold(0, |mask, bit| mask | bit);
    let mut call = match given {
        0 => quote_spanned! {span=>
            #private::execute::<#marker, _, #variant>((#(#operands,)*), &[#(#values),*])
        },
        _ => quote_spanned! {span=>
            #private::execute_given::<#marker, _, #variant>(
                (#(#operands,)*), &[#(#values),*], #given
            )
        },
    };
    for (name, list) in lists.into_iter().rev() {
        call = quote! {
            match #list {
                ::core::result::Result::Ok(#name) => #call,
                ::core::result::Result::Err(err) => ::core::result::Result::Err(err),
            }
        };
    }
    call
}

/// The item of `items` (given keywords) for keyword `index`.
fn at<T>(items: &[T], index: usize, of: impl Fn(&T) -> usize) -> Option<&T> {
    items.iter().find(|item| of(item) == index)
}

/// The value of `keyword`, which does not type the call, given as the Rust
/// expression `expr`. Sizes and texts are kept as `&'static` values; the
/// op's plan checks them when it runs, as it checks the plain functions'.
fn untyped_value(private: &TokenStream, keyword: &Keyword, expr: &syn::Expr) -> TokenStream {
    let span = expr.span();
    match (keyword.kind, expr) {
        (ValueKind::Float, _) => quote_spanned! {span=>
            #private::Value::Float(::core::convert::Into::<f64>::into(#expr))
        },
        (ValueKind::Str, _) => quote_spanned! {span=>
            #private::text(::core::convert::AsRef::<str>::as_ref(&#expr))
        },
        (_, syn::Expr::Array(array)) => {
            let entries = array.elems.iter().map(|entry| {
                quote_spanned! {entry.span()=> #private::IntoDim::dim(#entry)}
            });
            quote_spanned! {span=> #private::sizes(&[#(#entries),*])}
        }
        _ => quote_spanned! {span=> #private::Value::Int(#private::IntoDim::dim(#expr))},
    }
}

/// The type that carries a keyword given at run time: `RuntimeAxes<N>`
/// (checked against the rank when the op runs) or `Perm<N>`.
fn runtime_type(private: &TokenStream, keyword: &Keyword, given: &RuntimeValue) -> TokenStream {
    let count = given.entries.len();
    match keyword.kind {
        ValueKind::Ints => quote!(#private::Perm<#count>),
        _ => quote!(#private::RuntimeAxes<#count>),
    }
}

/// `tokens` shown at `span`, resolving names as before (`$crate` keeps
/// its hygiene).
fn located_at(tokens: &TokenStream, span: Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|mut tree| {
            if let TokenTree::Group(group) = &tree {
                let mut inner = Group::new(group.delimiter(), located_at(&group.stream(), span));
                inner.set_span(group.span().located_at(span));
                tree = TokenTree::Group(inner);
            } else {
                tree.set_span(tree.span().located_at(span));
            }
            tree
        })
        .collect()
}

/// An `i64` literal, its sign as a separate token (`-1i64`).
fn int_tokens(value: i64) -> TokenStream {
    let literal = Literal::i64_suffixed(value.unsigned_abs() as i64);
    let sign = (value < 0).then(|| quote!(-));
    quote!(#sign #literal)
}

/// An entry of a list of integers as an `i64`: a literal, or a Rust
/// integer converted when the op runs.
fn dim_tokens(private: &TokenStream, entry: &DimExpr) -> TokenStream {
    match entry {
        DimExpr::Literal(value) => int_tokens(*value),
        DimExpr::Expr(expr) => quote_spanned! {expr.span()=> #private::IntoDim::dim(#expr)},
    }
}

/// The type that carries the value of a typed keyword: `Flag<true>`,
/// `Axes<N, FITS>` (how many axes, and the ranks they fit as bits), `Perm<N>`
/// or `Reversed`, the ranks of an einsum's `equation` (parsed when
/// validated), or the element type itself.
fn typed_value(
    private: &TokenStream,
    keyword: &Keyword,
    value: &Value,
    equation: Option<&Equation>,
) -> TokenStream {
    let axes = |axes: &[i64]| {
        let count = axes.len();
        let fits = fits_mask(axes);
        quote!(#private::Axes<#count, #fits>)
    };
    match (keyword.kind, value) {
        (_, Value::Bool(flag)) => quote!(#private::Flag<#flag>),
        (ValueKind::Equation, Value::Str(_)) => {
            // The ranks its subscripts give, or with `...` its letters.
            let Some(parsed) = equation else {
                return quote!(());
            };
            let letters = |i: usize| parsed.operands.get(i).map_or(0, |s| usize::from(s.labels));
            let ellipsis = |i: usize| parsed.operands.get(i).is_some_and(|s| s.ellipsis);
            let (a, b, c) = (letters(0), letters(1), letters(2));
            let result = usize::from(parsed.result.labels);
            match parsed.fixed_ranks() {
                Some(_) => quote!(#private::Equation<#result, #a, #b, #c>),
                None => {
                    let (ea, eb, ec) = (ellipsis(0), ellipsis(1), ellipsis(2));
                    quote!(#private::Subscripts<#result, #a, #b, #c, #ea, #eb, #ec>)
                }
            }
        }
        (ValueKind::Count, Value::Int(count)) => {
            let count = usize::try_from(*count).unwrap_or(usize::MAX);
            quote!(#private::Count<#count>)
        }
        (ValueKind::Contraction, _) => match rxt_tf_spec::axes::Contraction::of(value) {
            // A count fits every rank with as many axes (the result's rank
            // checks that), lists the ranks their axes fit.
            Some(contraction) => {
                let count = contraction.count();
                let (a, b) = (contraction.fits_mask(0), contraction.fits_mask(1));
                quote!(#private::Contracted<#count, #a, #b>)
            }
            None => quote!(()),
        },
        (_, Value::Int(axis)) => axes(std::slice::from_ref(axis)),
        (ValueKind::Ints, Value::Ints([])) => quote!(#private::Reversed),
        (ValueKind::Ints, Value::Ints(perm)) => {
            let count = perm.len();
            quote!(#private::Perm<#count>)
        }
        (_, Value::Ints(list)) => axes(list),
        (_, Value::Type(dtype)) => {
            let name = Ident::new(dtype.rust_name(), Span::call_site());
            if dtype.is_primitive() {
                quote!(::core::primitive::#name)
            } else {
                quote!(#private::#name)
            }
        }
        // The spec types no other values (checked by its tests).
        _ => quote!(()),
    }
}

fn value_tokens(private: &TokenStream, value: &Value) -> TokenStream {
    match value {
        Value::Bool(flag) => quote!(#private::Value::Bool(#flag)),
        Value::Int(int) => quote!(#private::Value::Int(#int)),
        Value::Float(float) => {
            let float = Literal::f64_suffixed(*float);
            quote!(#private::Value::Float(#float))
        }
        Value::Ints(ints) => quote!(#private::Value::Ints(&[#(#ints),*])),
        Value::Str(text) => quote!(#private::Value::Str(#text)),
        Value::Type(dtype) => {
            let variant = Ident::new(&format!("{dtype:?}"), Span::call_site());
            quote!(#private::Value::Type(#private::DType::#variant))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(input: TokenStream) -> String {
        expand(input).to_string()
    }

    /// The check-and-borrow of operand `position` of `marker`: element
    /// type and rank at the first operand, the rank alone after it.
    fn checked(marker: &str, position: usize, operand: &str) -> String {
        let check = match position {
            1 => "OperandOf",
            _ => "OperandRankOf",
        };
        format!(
            "< _ as :: rxt_tf :: __private :: {check} < :: rxt_tf :: ops :: op :: {marker} , \
             {position}usize >> :: checked \
             (& ({operand}))"
        )
    }

    #[test]
    fn matmul_checks_and_borrows_each_operand() {
        assert_eq!(
            expand_str(quote!(::rxt_tf; matmul(x, w))),
            format!(
                ":: rxt_tf :: __private :: execute :: < :: rxt_tf :: ops :: op :: MatmulOp , _ , () > \
                 (({} , {} ,) , & [:: rxt_tf :: __private :: Value :: Bool (false) , \
                 :: rxt_tf :: __private :: Value :: Bool (false)])",
                checked("MatmulOp", 1, "x"),
                checked("MatmulOp", 2, "w")
            )
        );
    }

    #[test]
    fn plus_is_add_and_operands_are_any_expression() {
        let out = expand_str(quote!(::rxt_tf; self.h + tf!(relu(b))?));
        assert!(out.contains(":: op :: AddOp , _ , ()"), "{out}");
        assert!(out.contains(&checked("AddOp", 1, "self . h")), "{out}");
        assert!(
            out.contains(&checked("AddOp", 2, "tf ! (relu (b)) ?")),
            "{out}"
        );
    }

    #[test]
    fn keywords_become_values_and_typed_keywords_types() {
        let want = format!(
            ":: rxt_tf :: __private :: execute :: < :: rxt_tf :: ops :: op :: ReduceMeanOp , _ , \
             (:: rxt_tf :: __private :: Axes < 1usize , 30u8 > , :: rxt_tf :: __private :: Flag < false > ,) > (({} ,) , \
             & [:: rxt_tf :: __private :: Value :: Int (1i64) , :: rxt_tf :: __private :: Value :: Bool (false)])",
            checked("ReduceMeanOp", 1, "h")
        );
        assert_eq!(expand_str(quote!(::rxt_tf; reduce_mean(h, axis = 1))), want);
        assert_eq!(
            expand_str(quote!(::rxt_tf; reduce_mean(h, axis = 1, keepdims = false))),
            want
        );
        assert_eq!(
            expand_str(quote!(::rxt_tf; reduce_mean(h, keepdims = false, axis = 1))),
            want
        );
    }

    #[test]
    fn the_crate_path_is_forwarded() {
        let out = expand_str(quote!(renamed::inner; sigmoid(x)));
        assert!(
            out.starts_with("renamed :: inner :: __private :: execute"),
            "{out}"
        );
        assert!(!out.contains("rxt_tf"), "{out}");
    }

    #[test]
    fn errors_expand_to_compile_error_and_a_typed_placeholder() {
        let out = expand_str(quote!(::rxt_tf; atan(x)));
        assert!(out.contains("compile_error"), "{out}");
        assert!(
            out.contains("unsupported op `atan`; did you mean `tanh`?"),
            "{out}"
        );
        assert!(
            !out.contains("`matmul`, `relu`"),
            "no list of every op: {out}"
        );
        assert!(out.contains("unreachable_result"), "{out}");
        let out = expand_str(quote!(::rxt_tf; frobnicate(x)));
        assert!(out.contains("the guide's op reference lists"), "{out}");
    }

    #[test]
    fn a_question_mark_inside_is_named() {
        let out = expand_str(quote!(::rxt_tf; reciprocal(x)?));
        assert!(
            out.contains("a `?` belongs outside `tf!`: write `tf!(reciprocal (x))?`"),
            "{out}"
        );
    }

    #[test]
    fn every_error_is_reported_at_once() {
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, 1, keepdims = 1)));
        assert!(out.contains("not positionally"), "{out}");
        assert!(
            out.contains("`keepdims` must be `false` or `true`"),
            "{out}"
        );
        assert!(
            !out.contains("needs the keyword `axis`"),
            "the positional axis is reported once: {out}"
        );
    }

    #[test]
    fn negative_and_suffixed_literals_are_read() {
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = -6)));
        assert!(
            out.contains("axis -6 is out of range for every rank"),
            "{out}"
        );
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = [1, -3])));
        assert!(
            out.contains("Axes < 2usize , 20u8 >"),
            "fits ranks 3 and 5 (at rank 4, -3 is 1 again): {out}"
        );
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = [1, 1])));
        assert!(out.contains("names the axis 1 twice"), "{out}");
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = -1i64)));
        assert!(out.contains("Value :: Int (- 1i64)"), "{out}");
        let out = expand_str(quote!(::rxt_tf; leaky_relu(h, alpha = -0.25f32)));
        assert!(out.contains("Value :: Float (- 0.25f64)"), "{out}");
    }

    #[test]
    fn number_literal_operands_become_literals() {
        let out = expand_str(quote!(::rxt_tf; h * -3.0));
        assert!(out.contains(":: op :: MulOp"), "{out}");
        assert!(out.contains("FloatLiteral (- 3f64)"), "{out}");
        let out = expand_str(quote!(::rxt_tf; ids + 2));
        assert!(out.contains("IntLiteral (2i64)"), "{out}");
        let out = expand_str(quote!(::rxt_tf; -h));
        assert!(out.contains(":: op :: NegOp"), "{out}");
        let out = expand_str(quote!(::rxt_tf; 2.0 - 1.0));
        assert!(out.contains("needs a tensor operand"), "{out}");
        let out = expand_str(quote!(::rxt_tf; h / 2u8));
        assert!(
            out.contains("is not an integer literal `tf!` takes"),
            "{out}"
        );
    }

    #[test]
    fn spellings_choose_their_rows() {
        let out = expand_str(quote!(::rxt_tf; einsum("ij->ji", x)));
        assert!(out.contains(":: op :: EinsumOneOp"), "{out}");
        assert!(
            out.contains("Equation < 2usize , 2usize , 0usize , 0usize >"),
            "{out}"
        );
        let out = expand_str(quote!(::rxt_tf; einsum("bij,bjk->bik", a, b)));
        assert!(out.contains(":: op :: EinsumOp"), "{out}");
        assert!(
            out.contains("Equation < 3usize , 3usize , 3usize , 0usize >"),
            "{out}"
        );
        let out = expand_str(quote!(::rxt_tf; einsum("...ij,jk->...ik", a, b)));
        assert!(
            out.contains("Subscripts < 2usize , 2usize , 2usize , 0usize , true , false , false >"),
            "{out}"
        );
        let out = expand_str(quote!(::rxt_tf; einsum("ij,jk,kl->il", a, b, c)));
        assert!(out.contains(":: op :: EinsumThreeOp"), "{out}");
        let ranked = |rank: usize, position: usize, operand: &str| {
            format!(
                "< _ as :: rxt_tf :: __private :: SubscriptRank < {rank}usize >> :: ranked ({})",
                checked("EinsumThreeOp", position, operand)
            )
        };
        assert!(out.contains(&ranked(2, 1, "a")), "{out}");
        assert!(out.contains(&ranked(2, 2, "b")), "{out}");
        assert!(out.contains(&ranked(2, 3, "c")), "{out}");
        let out = expand_str(quote!(::rxt_tf; einsum_three(a, b, c, equation = "ij,jk,kl->il")));
        assert!(out.contains(&ranked(2, 2, "b")), "{out}");
        let out = expand_str(quote!(::rxt_tf; einsum("...ij,jk,kl->...il", a, b, c)));
        assert!(
            !out.contains("SubscriptRank"),
            "`...`: typed by the rule: {out}"
        );
        let out = expand_str(quote!(::rxt_tf; einsum("ij,jk,kl,lm->im", a, b, c, d)));
        assert!(
            out.contains("`einsum` takes one to three operands after its equation, got 4"),
            "{out}"
        );
        let out = expand_str(quote!(::rxt_tf; einsum(e, a, b)));
        assert!(
            out.contains("`einsum` takes its equation first, as a string literal"),
            "{out}"
        );
        let out = expand_str(quote!(::rxt_tf; split(x, [2, -1], axis = 0)));
        assert!(out.contains(":: op :: SplitVOp"), "{out}");
        let out = expand_str(quote!(::rxt_tf; pad(x, [[1, 1]], mode = "SYMMETRIC")));
        assert!(out.contains(":: op :: MirrorPadOp"), "{out}");
        let out = expand_str(quote!(::rxt_tf; pad(x, [[1, 1]], mode = "WRAP")));
        assert!(
            out.contains(
                "`pad` supports `mode` = `\\\"CONSTANT\\\"`, `\\\"REFLECT\\\"` or `\\\"SYMMETRIC\\\"`"
            ),
            "{out}"
        );
    }
}
