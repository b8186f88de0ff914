//! `#[inference]`: checks the function's signature and the build target,
//! then emits the function with compile-time assertions through the crate.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Pat, ReturnType, Type};

use crate::parse;
use crate::platform;

/// Tensor parameter types (last path segment).
const TENSOR_TYPES: &[&str] = &["TensorF32Cpu2D", "TensorF32Cpu1D"];
/// Scalar parameter types allowed for control flow.
const SCALAR_TYPES: &[&str] = &[
    "bool", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
    "f32", "f64",
];
/// Return types accepted as results (last path segment).
const RESULT_TYPES: &[&str] = &["Result", "PyResult"];

/// The attribute's options.
struct Options {
    krate: TokenStream,
    /// Test hook: check this target triple instead of the real target.
    target: Option<syn::LitStr>,
}

/// Expands `#[inference(args)] item`. On any error the function is still
/// emitted as written, so follow-on errors stay few.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(err) => {
            let err = syn::Error::new(
                err.span(),
                "rxt-tf: #[inference] applies to a free function",
            );
            return with_error(item, err);
        }
    };
    let mut errors: Option<syn::Error> = None;
    let mut push = |err: syn::Error| match &mut errors {
        Some(all) => all.combine(err),
        None => errors = Some(err),
    };
    let options = match options(args) {
        Ok(options) => options,
        Err(err) => {
            push(err);
            Options {
                krate: quote!(::rxt_tf),
                target: None,
            }
        }
    };
    check_signature(&function, &mut push);
    let target_error = options.target.as_ref().and_then(check_injected_target);
    if let Some(err) = target_error {
        push(err);
    }
    match errors {
        Some(err) => with_error(function.to_token_stream(), err),
        None => emit(function, &options),
    }
}

fn options(args: TokenStream) -> syn::Result<Options> {
    let mut options = Options {
        krate: quote!(::rxt_tf),
        target: None,
    };
    for arg in parse::attr_args(args)? {
        if arg.key.is_ident("crate") {
            let path: syn::Path = arg.value.parse()?;
            options.krate = path.to_token_stream();
        } else if arg.key.is_ident("__target") {
            options.target = Some(arg.value);
        } else {
            return Err(syn::Error::new(
                arg.key.span(),
                format!(
                    "rxt-tf: unknown #[inference] option `{}`; the only option is `crate = \"path\"`",
                    arg.key.to_token_stream()
                ),
            ));
        }
    }
    Ok(options)
}

fn check_signature(function: &ItemFn, push: &mut impl FnMut(syn::Error)) {
    let sig = &function.sig;
    if let Some(token) = &sig.asyncness {
        push(syn::Error::new(
            token.span(),
            "rxt-tf: #[inference] functions cannot be `async`; TensorFlow ops run synchronously",
        ));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        push(syn::Error::new(
            sig.generics.span(),
            "rxt-tf: #[inference] functions cannot be generic; name the tensor types (`TensorF32Cpu2D`, `TensorF32Cpu1D`)",
        ));
    }
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => push(syn::Error::new(
                receiver.span(),
                "rxt-tf: #[inference] applies to free functions, not methods",
            )),
            FnArg::Typed(typed) => {
                if !matches!(&*typed.pat, Pat::Ident(_) | Pat::Wild(_)) {
                    push(syn::Error::new(
                        typed.pat.span(),
                        "rxt-tf: parameters must be plain names",
                    ));
                }
                if parameter_kind(&typed.ty).is_none() {
                    push(syn::Error::new(
                        typed.ty.span(),
                        format!(
                            "rxt-tf: unsupported parameter type `{}`; expected `TensorF32Cpu2D`, `TensorF32Cpu1D`, \
                             a scalar (`bool`, an integer or a float) or `Python<'_>`",
                            typed.ty.to_token_stream()
                        ),
                    ));
                }
            }
        }
    }
    let returns_result = match &sig.output {
        ReturnType::Type(_, ty) => {
            last_segment(ty).is_some_and(|name| RESULT_TYPES.contains(&name.as_str()))
        }
        ReturnType::Default => false,
    };
    if !returns_result {
        let span = match &sig.output {
            ReturnType::Type(_, ty) => ty.span(),
            ReturnType::Default => sig.ident.span(),
        };
        push(syn::Error::new(
            span,
            "rxt-tf: #[inference] functions must return a `Result`, e.g. `rxt_tf::Result<TensorF32Cpu1D>` or `PyResult<...>`, so op errors reach Python",
        ));
    }
}

/// What a parameter is, by its type's last path segment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ParameterKind {
    Tensor,
    Scalar,
    Python,
}

fn parameter_kind(ty: &Type) -> Option<ParameterKind> {
    let name = last_segment(ty)?;
    if TENSOR_TYPES.contains(&name.as_str()) {
        Some(ParameterKind::Tensor)
    } else if SCALAR_TYPES.contains(&name.as_str()) {
        Some(ParameterKind::Scalar)
    } else if name == "Python" {
        Some(ParameterKind::Python)
    } else {
        None
    }
}

fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            path.path.segments.last().map(|s| s.ident.to_string())
        }
        Type::Paren(inner) => last_segment(&inner.elem),
        Type::Group(inner) => last_segment(&inner.elem),
        _ => None,
    }
}

/// The error for an unsupported injected target (the test hook), from the
/// same platform table the runtime's build uses.
fn check_injected_target(target: &syn::LitStr) -> Option<syn::Error> {
    let triple = target.value();
    let (arch, os, env) = platform::target_cfg(&triple);
    match platform::profile_index(&arch, &os, &env) {
        Some(_) => None,
        None => Some(syn::Error::new(
            target.span(),
            platform::unsupported_target_message(&triple),
        )),
    }
}

/// `cfg(not(any(<every supported profile>)))`, from the platform table.
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

fn emit(mut function: ItemFn, options: &Options) -> TokenStream {
    let krate = &options.krate;
    let assertions = function.sig.inputs.iter().filter_map(|input| match input {
        FnArg::Typed(typed) if parameter_kind(&typed.ty) == Some(ParameterKind::Tensor) => {
            let ty = &typed.ty;
            Some(quote_spanned!(ty.span()=> #krate::__private::assert_tensor::<#ty>();))
        }
        _ => None,
    });
    let guard = unsupported_target_guard();
    let body = &function.block;
    let stmts = quote! {{
        #guard
        #(#assertions)*
        #body
    }};
    match syn::parse2(stmts) {
        Ok(block) => {
            *function.block = block;
            function.to_token_stream()
        }
        Err(err) => with_error(function.to_token_stream(), err),
    }
}

fn with_error(item: TokenStream, err: syn::Error) -> TokenStream {
    let error = err.to_compile_error();
    quote! { #error #item }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(args: TokenStream, item: TokenStream) -> String {
        expand(args, item).to_string()
    }

    #[test]
    fn asserts_each_tensor_parameter_through_the_crate_path() {
        let out = expand_str(
            quote!(crate = "renamed"),
            quote!(
                fn f(x: TensorF32Cpu2D, n: usize) -> rxt_tf::Result<TensorF32Cpu2D> {
                    tf!(relu(x))
                }
            ),
        );
        assert!(
            out.contains("renamed :: __private :: assert_tensor :: < TensorF32Cpu2D >"),
            "{out}"
        );
        assert!(!out.contains("assert_tensor :: < usize >"), "{out}");
        assert!(out.contains("compile_error"), "the target guard: {out}");
        assert!(out.contains("target_os = \"linux\""), "{out}");
    }

    #[test]
    fn rejected_functions_are_still_emitted() {
        let out = expand_str(
            quote!(),
            quote!(
                async fn f(x: TensorF32Cpu2D) -> Result<TensorF32Cpu2D, E> {
                    g(x)
                }
            ),
        );
        assert!(out.contains("cannot be `async`"), "{out}");
        assert!(out.contains("async fn f"), "{out}");
    }

    #[test]
    fn signature_errors_are_collected() {
        let out = expand_str(
            quote!(),
            quote!(
                fn f<T>(x: String) -> TensorF32Cpu2D {
                    x
                }
            ),
        );
        assert!(out.contains("cannot be generic"), "{out}");
        assert!(out.contains("unsupported parameter type `String`"), "{out}");
        assert!(out.contains("must return a `Result`"), "{out}");
    }

    #[test]
    fn an_injected_unsupported_target_is_an_error() {
        let out = expand_str(
            quote!(__target = "x86_64-pc-windows-msvc"),
            quote!(
                fn f() -> Result<(), E> {
                    Ok(())
                }
            ),
        );
        assert!(
            out.contains("rxt-tf: unsupported target `x86_64-pc-windows-msvc`"),
            "{out}"
        );
        let out = expand_str(
            quote!(__target = "aarch64-apple-darwin"),
            quote!(
                fn f() -> Result<(), E> {
                    Ok(())
                }
            ),
        );
        assert!(!out.contains("unsupported target `aarch64"), "{out}");
    }

    #[test]
    fn unknown_options_are_rejected() {
        let out = expand_str(
            quote!(krate = "x"),
            quote!(
                fn f() -> Result<(), E> {
                    Ok(())
                }
            ),
        );
        assert!(out.contains("unknown #[inference] option `krate`"), "{out}");
    }
}
