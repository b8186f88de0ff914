//! The typed model of an `#[inference]` function: its options and the
//! types its expansion checks.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{ItemFn, Type};

/// The attribute's options.
pub(crate) struct Options {
    /// The path of the rxt-tf crate (`crate = "..."`, else `::rxt_tf`).
    pub(crate) krate: TokenStream,
    /// Test hook: check this target triple instead of the real target.
    pub(crate) target: Option<syn::LitStr>,
    /// Whether the body's ops run fused (`fuse = false` runs them per op).
    pub(crate) fuse: bool,
    /// `backend = "litert"`: the body runs in a litert scope.
    pub(crate) litert: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            krate: quote!(::rxt_tf),
            target: None,
            fuse: true,
            litert: false,
        }
    }
}

/// A checked `#[inference]` function.
pub(crate) struct InferenceFn {
    /// The function as written.
    pub(crate) function: ItemFn,
    /// Its options.
    pub(crate) options: Options,
    /// Its tensor parameters' types, in order.
    /// The parameter types (checked by trait in the expansion).
    pub(crate) parameter_types: Vec<Type>,
    /// The return type (checked to be a `Result` by trait), if written.
    pub(crate) return_type: Option<Type>,
}
