//! Expansion of `tf!`: one generic `execute` call of the op's marker type,
//! each operand checked and borrowed at its own span (so a rank error points
//! at it), the typed keywords as types and every keyword value as data.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use rxt_tf_spec::Value;
use syn::spanned::Spanned;

use crate::tf::model::Invocation;
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
            // Keep the expression typed as the op's result, so code after it
            // does not pile up follow-on errors.
            let tensor = Ident::new(&placeholder_type(&input.expr), Span::call_site());
            quote! {{ #error #krate::__private::unreachable_result::<#krate::#tensor>() }}
        }
    }
}

fn call(krate: &TokenStream, invocation: &Invocation, span: Span) -> TokenStream {
    let private = quote!(#krate::__private);
    let op = Ident::new(&marker_name(invocation.op.name), invocation.op_span);
    let marker = quote!(#krate::ops::op::#op);
    // Each operand is checked by a call spanned at the operand, so a rank
    // error points at it and is reported once.
    let operands = invocation
        .operands
        .iter()
        .enumerate()
        .map(|(index, operand)| {
            let position = index + 1;
            let span = operand.span();
            let borrowed = quote_spanned!(span=> #private::AsOperand::as_operand(&(#operand)));
            quote_spanned! {span=>
                <_ as #private::OperandOf<#marker, <#marker as #private::Slot<#position>>::Accepts, #position>>::checked(#borrowed)
            }
        });
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
    let values = invocation
        .keywords
        .iter()
        .map(|value| value_tokens(&private, value));
    quote_spanned! {span=>
        #private::execute::<#marker, _, #variant>((#(#operands,)*), &[#(#values),*])
    }
}

/// The marker type of op `name` (`ReduceMeanOp` for `reduce_mean`), as the
/// runtime's build script names it.
fn marker_name(name: &str) -> String {
    let camel: String = name
        .split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    format!("{camel}Op")
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
        // Type values are attributes of rows, never keyword values.
        Value::Type(_) => quote!(::core::compile_error!("rxt-tf: a type keyword value")),
    }
}

/// The tensor type an invalid invocation most likely meant to produce: the
/// result of the op's first signature.
fn placeholder_type(expr: &syn::Expr) -> String {
    let op = match parse::syntax(expr) {
        parse::Syntax::Call(call, _) => match &*call.func {
            syn::Expr::Path(path) => path
                .path
                .get_ident()
                .and_then(|name| rxt_tf_spec::lookup(&name.to_string())),
            _ => None,
        },
        _ => None,
    };
    op.and_then(|op| op.signatures.first())
        .map_or_else(|| String::from("TensorF32Cpu2D"), |s| s.result.type_name())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(input: TokenStream) -> String {
        expand(input).to_string()
    }

    /// The check-and-borrow of operand `position` of `marker`.
    fn checked(marker: &str, position: usize, operand: &str) -> String {
        format!(
            "< _ as :: rxt_tf :: __private :: OperandOf < :: rxt_tf :: ops :: op :: {marker} , \
             < :: rxt_tf :: ops :: op :: {marker} as :: rxt_tf :: __private :: Slot < {position}usize >> \
             :: Accepts , {position}usize >> :: checked \
             (:: rxt_tf :: __private :: AsOperand :: as_operand (& ({operand})))"
        )
    }

    #[test]
    fn matmul_checks_and_borrows_each_operand() {
        assert_eq!(
            expand_str(quote!(::rxt_tf; matmul(x, w))),
            format!(
                ":: rxt_tf :: __private :: execute :: < :: rxt_tf :: ops :: op :: MatmulOp , _ , () > \
                 (({} , {} ,) , & [])",
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
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = 0)));
        assert!(out.contains("TensorF32Cpu1D"), "{out}");
    }

    #[test]
    fn every_error_is_reported_at_once() {
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, 1, keepdims = true)));
        assert!(out.contains("not positionally"), "{out}");
        assert!(out.contains("supports only `keepdims = false`"), "{out}");
        assert!(
            out.contains("needs the keyword `axis` (`axis = 1`)"),
            "{out}"
        );
    }

    #[test]
    fn negative_and_suffixed_literals_are_read() {
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = -1)));
        assert!(
            out.contains("supports only `axis = 1`, got `axis = - 1`"),
            "{out}"
        );
        let out = expand_str(quote!(::rxt_tf; reduce_mean(h, axis = 1i64)));
        assert!(!out.contains("compile_error"), "{out}");
    }
}
