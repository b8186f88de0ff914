//! Expansion of a valid `#[inference]` function: the function as written,
//! its body preceded by the unsupported-target guard, a compile-time
//! assertion per tensor parameter and the fusion scope of its ops.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};
use rxt_tf_spec::platform;
use syn::spanned::Spanned;

use crate::inference::model::InferenceFn;

/// The function with its checks.
pub(crate) fn emit(model: InferenceFn) -> TokenStream {
    let InferenceFn {
        mut function,
        options,
        parameter_types,
        return_type,
    } = model;
    let krate = &options.krate;
    let parameters = parameter_types
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> #krate::__private::assert_parameter::<#ty>();));
    let result = return_type
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> #krate::__private::assert_result::<#ty>();));
    let assertions = parameters.chain(result);
    let guard = unsupported_target_guard();
    let scope = if options.litert {
        let name = function.sig.ident.to_string();
        quote!(#krate::fusion::Scope::litert_for(
            ::core::concat!("`", ::core::module_path!(), "::", #name, "`")
        ))
    } else {
        let fuse = options.fuse;
        quote!(#krate::fusion::Scope::new(#fuse))
    };
    let body = &function.block;
    // The scope is declared before the body's locals, so it ends after them:
    // when the result is returned, only the result is live, and the fused
    // call computes just that (when Python or the caller first reads it).
    let stmts = quote! {{
        #guard
        #(#assertions)*
        let __rxt_tf_scope = #scope;
        #body
    }};
    match syn::parse2(stmts) {
        Ok(block) => {
            *function.block = block;
            function.to_token_stream()
        }
        Err(err) => with_error(function.to_token_stream(), err.to_compile_error()),
    }
}

/// `item` preceded by `errors` (the user's item is always emitted, so
/// follow-on errors stay few).
pub(crate) fn with_error(item: TokenStream, errors: TokenStream) -> TokenStream {
    quote! { #errors #item }
}

/// `cfg(not(any(<every supported profile>)))`, from the platform table.
/// Target checks live in the generated code: this crate is compiled for the
/// host, so its own `cfg!` would describe the build machine.
fn unsupported_target_guard() -> TokenStream {
    let supported = platform::PROFILES.iter().map(|p| {
        let (arch, os, env) = (p.target_arch, p.target_os, p.target_env);
        quote!(all(target_arch = #arch, target_os = #os, target_env = #env))
    });
    let message = platform::unsupported_target_message("of this build");
    quote! {
        #[cfg(not(any(#(#supported),*)))]
        ::core::compile_error!(#message);
    }
}
