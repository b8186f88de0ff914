//! Parsing: the raw syntax of `tf_impl!` input and of `#[inference]` arguments.

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::{Expr, LitStr, Token};

/// `tf_impl!(<crate path tokens>; <expr>)`.
pub(crate) struct TfInput {
    /// The path of the rxt-tf crate (`$crate` from the `tf!` front).
    pub(crate) krate: TokenStream,
    /// The user's expression.
    pub(crate) expr: Expr,
}

impl Parse for TfInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut krate = TokenStream::new();
        while !input.peek(Token![;]) {
            if input.is_empty() {
                return Err(input
                    .error("rxt-tf: expected `<crate path>; <expression>`; use the `tf!` macro"));
            }
            krate.extend([input.parse::<TokenTree>()?]);
        }
        input.parse::<Token![;]>()?;
        if input.is_empty() {
            return Err(input.error(
                "rxt-tf: `tf!` needs an op call such as `tf!(matmul(x, w))` or a sum `tf!(a + b)`",
            ));
        }
        let expr = input.parse()?;
        if !input.is_empty() {
            return Err(input.error("rxt-tf: `tf!` takes one expression"));
        }
        Ok(TfInput { krate, expr })
    }
}

/// One `key = "value"` argument of `#[inference(...)]`.
pub(crate) struct AttrArg {
    pub(crate) key: syn::Path,
    pub(crate) value: LitStr,
}

impl Parse for AttrArg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key = input.call(syn::Path::parse_mod_style)?;
        input.parse::<Token![=]>()?;
        Ok(AttrArg {
            key,
            value: input.parse()?,
        })
    }
}

/// `#[inference(crate = "...")]` arguments, comma-separated.
pub(crate) fn attr_args(args: TokenStream) -> syn::Result<Vec<AttrArg>> {
    use syn::parse::Parser;
    let parser = syn::punctuated::Punctuated::<AttrArg, Token![,]>::parse_terminated;
    Ok(parser.parse2(args)?.into_iter().collect())
}
