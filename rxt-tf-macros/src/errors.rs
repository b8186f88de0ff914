//! One error collector for both macros: every error found is kept, each at
//! its own tokens, and they are reported together.

use proc_macro2::TokenStream;
use quote::ToTokens;

/// Errors collected across a macro's phases.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    /// Records `message` at `tokens`' span.
    pub(crate) fn push(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.add(syn::Error::new_spanned(tokens, message));
    }

    /// Records `message` at `span`.
    pub(crate) fn push_at(&mut self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.add(syn::Error::new(span, message));
    }

    /// Records an error already made (e.g. by syn).
    pub(crate) fn add(&mut self, err: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(err),
            None => self.0 = Some(err),
        }
    }

    /// Whether nothing has been recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// `value`, or every error recorded.
    pub(crate) fn finish<T>(self, value: T) -> syn::Result<T> {
        self.0.map_or(Ok(value), Err)
    }

    /// The errors as `compile_error!` invocations (nothing if none).
    pub(crate) fn to_compile_errors(&self) -> TokenStream {
        self.0
            .as_ref()
            .map(syn::Error::to_compile_error)
            .unwrap_or_default()
    }
}
