//! Collects every error found in an item, so all are reported at once.

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::fmt::Display;

/// The errors found so far.
#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    /// Records an error spanned on `tokens`.
    pub fn error(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error that is already built.
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// Whether nothing was wrong.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// Every error as `compile_error!` invocations.
    pub fn into_compile_errors(self) -> TokenStream {
        self.errors
            .into_iter()
            .map(|e| e.to_compile_error())
            .collect()
    }
}
