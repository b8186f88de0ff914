//! Procedural macros of rxt-tf: `#[inference]` and the engine behind `tf!`.
//! Use them through the `rxt-tf` crate, which re-exports them; this crate is
//! an implementation detail and its version is pinned by `rxt-tf`.
//!
//! Each macro runs parse → typed model → validate → expand, one module per
//! phase, sharing one error collector; the ops, keywords, ranks and platform
//! profiles come from `rxt-tf-spec`. The expand functions work on
//! `proc_macro2::TokenStream`, so they are unit-tested outside the compiler.

mod errors;
mod inference;
mod tf;

use proc_macro::TokenStream;

/// Marks a function or `&self` method as an rxt-tf inference function: checks its signature
/// and the build target. See the `rxt-tf` crate documentation.
#[proc_macro_attribute]
pub fn inference(args: TokenStream, item: TokenStream) -> TokenStream {
    inference::expand(args.into(), item.into()).into()
}

/// The engine of `rxt_tf::tf!`, which forwards its own crate path first:
/// `tf_impl!($crate; matmul(x, w))`. Not for direct use.
#[doc(hidden)]
#[proc_macro]
pub fn tf_impl(input: TokenStream) -> TokenStream {
    tf::expand(input.into()).into()
}
