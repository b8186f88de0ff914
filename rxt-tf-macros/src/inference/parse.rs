//! Parsing `#[inference(args)] item`: the function and the `key = literal`
//! options, without judging them.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream, Parser};
use syn::{ItemFn, Lit, Token};

/// One `key = literal` option.
pub(crate) struct AttrArg {
    pub(crate) key: syn::Path,
    pub(crate) value: Lit,
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

/// The options, comma-separated.
pub(crate) fn attr_args(args: TokenStream) -> syn::Result<Vec<AttrArg>> {
    let parser = syn::punctuated::Punctuated::<AttrArg, Token![,]>::parse_terminated;
    Ok(parser.parse2(args)?.into_iter().collect())
}

/// The annotated function.
pub(crate) fn function(item: TokenStream) -> syn::Result<ItemFn> {
    syn::parse2(item).map_err(|err| {
        syn::Error::new(
            err.span(),
            "rxt-tf: #[inference] applies to a function or a `&self` method",
        )
    })
}
