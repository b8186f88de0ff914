//! The typed model of an `#[inference]` function: its options and what each
//! parameter is.

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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            krate: quote!(::rxt_tf),
            target: None,
            fuse: true,
        }
    }
}

/// What a parameter is, by its type's last path segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParameterKind {
    /// An rxt-tf tensor type.
    Tensor,
    /// A plain scalar for control flow.
    Scalar,
    /// `Python<'_>`.
    Python,
}

/// A checked `#[inference]` function.
pub(crate) struct InferenceFn {
    /// The function as written.
    pub(crate) function: ItemFn,
    /// Its options.
    pub(crate) options: Options,
    /// Its tensor parameters' types, in order.
    pub(crate) tensor_parameters: Vec<Type>,
}
