//! `#[inference]`: checks the function's signature and the build target,
//! then emits the function with compile-time assertions through the crate.
//! Parse → model → validate → expand, sharing one error collector.

mod expand;
mod model;
mod parse;
mod validate;

use proc_macro2::TokenStream;
use quote::ToTokens;

use crate::errors::Errors;

/// Expands `#[inference(args)] item`. On any error the function is still
/// emitted as written, so follow-on errors stay few.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let function = match parse::function(item.clone()) {
        Ok(function) => function,
        Err(err) => return expand::with_error(item, err.to_compile_error()),
    };
    let mut errors = Errors::default();
    let model = validate::inference_fn(function, parse::attr_args(args), &mut errors);
    if errors.is_empty() {
        expand::emit(model)
    } else {
        expand::with_error(model.function.to_token_stream(), errors.to_compile_errors())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn expand_str(args: TokenStream, item: TokenStream) -> String {
        expand(args, item).to_string()
    }

    #[test]
    fn asserts_each_parameter_and_the_result_through_the_crate_path() {
        let out = expand_str(
            quote!(crate = "renamed"),
            quote!(
                fn f(x: TensorF32Cpu2D, n: usize) -> rxt_tf::Result<TensorF32Cpu2D> {
                    tf!(relu(x))
                }
            ),
        );
        assert!(
            out.contains("renamed :: __private :: assert_parameter :: < TensorF32Cpu2D >"),
            "{out}"
        );
        assert!(out.contains("assert_parameter :: < usize >"), "{out}");
        assert!(
            out.contains("assert_result :: < rxt_tf :: Result < TensorF32Cpu2D > >"),
            "{out}"
        );
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
                fn f<T>(&mut self, x: String) {
                    x
                }
            ),
        );
        assert!(out.contains("cannot be generic"), "{out}");
        assert!(out.contains("take `&self`"), "{out}");
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
