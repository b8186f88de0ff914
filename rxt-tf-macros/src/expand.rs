//! Expansion of `tf!`: a call of the op's hidden helper, by absolute path,
//! with every operand borrowed at its own span (so a rank error points at it).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::parse::TfInput;
use crate::validate;

/// Expands `tf_impl!(<crate>; <expr>)`; errors become `compile_error!`.
pub(crate) fn tf(input: TokenStream) -> TokenStream {
    let input: TfInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match validate::invocation(&input.expr) {
        Ok(invocation) => {
            let krate = &input.krate;
            let helper = Ident::new(invocation.op.helper, input.expr.span());
            let operands = invocation
                .operands
                .iter()
                .map(|operand| quote_spanned!(operand.span()=> &(#operand)));
            quote! { #krate::__private::#helper(#(#operands),*) }
        }
        Err(err) => {
            let error = err.to_compile_error();
            // Keep the expression typed as the op's result, so code after it
            // does not pile up follow-on errors.
            let krate = &input.krate;
            let tensor = Ident::new(placeholder_type(&input.expr), Span::call_site());
            quote! {{ #error #krate::__private::unreachable_result::<#krate::#tensor>() }}
        }
    }
}

/// The tensor type an invalid invocation most likely meant to produce.
fn placeholder_type(expr: &syn::Expr) -> &'static str {
    match expr {
        syn::Expr::Call(call) => match &*call.func {
            syn::Expr::Path(path) if path.path.is_ident("reduce_mean") => "TensorF32Cpu1D",
            _ => "TensorF32Cpu2D",
        },
        _ => "TensorF32Cpu2D",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(input: TokenStream) -> String {
        tf(input).to_string()
    }

    #[test]
    fn matmul_borrows_its_operands() {
        assert_eq!(
            expand(quote!(::rxt_tf; matmul(x, w))),
            quote!(::rxt_tf::__private::matmul(&(x), &(w))).to_string()
        );
    }

    #[test]
    fn plus_is_add_and_operands_are_any_expression() {
        assert_eq!(
            expand(quote!(::rxt_tf; self.h + tf!(relu(b))?)),
            quote!(::rxt_tf::__private::add(&(self.h), &(tf!(relu(b))?))).to_string()
        );
    }

    #[test]
    fn reduce_mean_expands_to_the_axis_1_helper() {
        let want = quote!(::rxt_tf::__private::reduce_mean_axis1(&(h))).to_string();
        assert_eq!(expand(quote!(::rxt_tf; reduce_mean(h, axis = 1))), want);
        assert_eq!(
            expand(quote!(::rxt_tf; reduce_mean(h, axis = 1, keepdims = false))),
            want
        );
        assert_eq!(
            expand(quote!(::rxt_tf; reduce_mean(h, keepdims = false, axis = 1))),
            want
        );
    }

    #[test]
    fn the_crate_path_is_forwarded() {
        assert_eq!(
            expand(quote!(renamed::inner; sigmoid(x))),
            quote!(renamed::inner::__private::sigmoid(&(x))).to_string()
        );
    }

    #[test]
    fn errors_expand_to_compile_error_and_a_typed_placeholder() {
        let out = expand(quote!(::rxt_tf; cos(x)));
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains("unsupported op `cos`; expected one of: `matmul`, `relu`, `sigmoid`, `add`, `reduce_mean`"), "{out}");
        assert!(out.contains("unreachable_result"), "{out}");
    }

    #[test]
    fn every_error_is_reported_at_once() {
        let out = expand(quote!(::rxt_tf; reduce_mean(h, 1, keepdims = true)));
        assert!(out.contains("not positionally"), "{out}");
        assert!(out.contains("supports only `keepdims = false`"), "{out}");
        assert!(out.contains("needs the keyword `axis = 1`"), "{out}");
    }
}
