//! Expansion of `tf!`: one generic `execute` call of the op's marker type,
//! each operand checked and borrowed at its own span (so a rank error points
//! at it), the typed keywords as types and every keyword value as data.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use rxt_tf_spec::Value;
use syn::spanned::Spanned;

use crate::tf::model::{Invocation, OperandExpr};
use crate::tf::parse::{self, TfInput};
use crate::tf::validate;

/// Expands `tf_impl!(<crate>; <expr>)`; errors become `compile_error!`.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let input: TfInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    let krate = &input.krate;
    match validate::invocation(parse::syntax(&input.expr)) {
        Ok(invocation) => call(krate, &invocation, input.expr.span()),
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
    let variant: Vec<TokenStream> = invocation
        .typed_values()
        .map(|value| match value {
            Value::Bool(flag) => quote!(#private::Flag<#flag>),
            Value::Int(int) => quote!(#private::Int<#int>),
            // The spec allows only bools and ints as typed keywords.
            _ => quote!(()),
        })
        .collect();
    let variant = match variant.is_empty() {
        true => quote!(()),
        false => quote!((#(#variant,)*)),
    };
    // Each operand is checked by a call spanned at the operand, so a rank
    // error (given the typed keywords) points at it and is reported once.
    let operands = invocation
        .operands
        .iter()
        .enumerate()
        .map(|(index, operand)| {
            let position = index + 1;
            let (span, value) = match operand {
                OperandExpr::Expr(expr) => (expr.span(), quote_spanned!(expr.span()=> &(#expr))),
                OperandExpr::Float(float, span) => {
                    let literal = Literal::f32_suffixed(float.abs());
                    let sign = float.is_sign_negative().then(|| quote!(-));
                    (
                        *span,
                        quote_spanned!(*span=> &#krate::ops::Scalar(#sign #literal)),
                    )
                }
            };
            let borrowed = quote_spanned!(span=> #private::AsOperand::as_operand(#value));
            quote_spanned! {span=>
                <_ as #private::OperandOf<
                    #marker,
                    <#marker as #private::Slot<#position, #variant>>::Accepts,
                    #position,
                >>::checked(#borrowed)
            }
        });
    let values = invocation
        .keywords
        .iter()
        .map(|value| value_tokens(&private, value));
    quote_spanned! {span=>
        #private::execute::<#marker, _, #variant>((#(#operands,)*), &[#(#values),*])
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

    /// The check-and-borrow of operand `position` of `marker`.
    fn checked(marker: &str, position: usize, operand: &str) -> String {
        checked_in(marker, position, "()", operand)
    }

    /// As [`checked`], under the typed-keyword variant `variant`.
    fn checked_in(marker: &str, position: usize, variant: &str, operand: &str) -> String {
        format!(
            "< _ as :: rxt_tf :: __private :: OperandOf < :: rxt_tf :: ops :: op :: {marker} , \
             < :: rxt_tf :: ops :: op :: {marker} as :: rxt_tf :: __private :: Slot < {position}usize , {variant} >> \
             :: Accepts , {position}usize , >> :: checked \
             (:: rxt_tf :: __private :: AsOperand :: as_operand (& ({operand})))"
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
             (:: rxt_tf :: __private :: Flag < false > ,) > (({} ,) , \
             & [:: rxt_tf :: __private :: Value :: Int (1i64) , :: rxt_tf :: __private :: Value :: Bool (false)])",
            checked_in(
                "ReduceMeanOp",
                1,
                "(:: rxt_tf :: __private :: Flag < false > ,)",
                "h"
            )
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
        let out = expand_str(quote!(::rxt_tf; cos(x)));
        assert!(out.contains("compile_error"), "{out}");
        let names: Vec<String> = rxt_tf_spec::OPS
            .iter()
            .map(|op| format!("`{}`", op.name))
            .collect();
        let want = format!(
            "unsupported op `cos`; expected one of: {}",
            names.join(", ")
        );
        assert!(out.contains(&want), "{out}");
        assert!(out.contains("`matmul`, `relu`"), "{out}");
        assert!(out.contains("unreachable_result"), "{out}");
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
            out.contains("needs the keyword `axis` (`axis` = `0`, `1`, `-1` or `-2`)"),
            "{out}"
        );
    }

    #[test]
    fn negative_and_suffixed_literals_are_read() {
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = -3)));
        assert!(
            out.contains("supports `axis` = `0`, `1`, `-1` or `-2`, got `axis = - 3`"),
            "{out}"
        );
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = -1i64)));
        assert!(out.contains("Value :: Int (- 1i64)"), "{out}");
        let out = expand_str(quote!(::rxt_tf; leaky_relu(h, alpha = -0.25f32)));
        assert!(out.contains("Value :: Float (- 0.25f64)"), "{out}");
    }

    #[test]
    fn float_literal_operands_become_scalars() {
        let out = expand_str(quote!(::rxt_tf; h * -3.0));
        assert!(out.contains(":: op :: MulOp"), "{out}");
        assert!(out.contains("Scalar (- 3f32)"), "{out}");
        let out = expand_str(quote!(::rxt_tf; -h));
        assert!(out.contains(":: op :: NegOp"), "{out}");
        let out = expand_str(quote!(::rxt_tf; 2.0 - 1.0));
        assert!(out.contains("needs a tensor operand"), "{out}");
        let out = expand_str(quote!(::rxt_tf; h / 2));
        assert!(
            out.contains("integer literal operands are not supported"),
            "{out}"
        );
    }
}
