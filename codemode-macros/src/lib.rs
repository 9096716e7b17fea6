//! The `#[tool]` and `#[toolset]` attributes of codemode. Use them through the
//! `codemode` crate, which documents them; this crate only expands them.
//!
//! Each goes parse → model (`model`) → validate (`valid`, every error
//! collected in `ctxt`) → expand (`expand`). When there are errors, the item is still
//! emitted (without the macro's own attributes), so the user sees the macro's
//! errors rather than a cascade.

mod ctxt;
mod expand;
mod model;
mod valid;

use proc_macro::TokenStream;

/// Makes a free function a tool. See `codemode::tool`.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(attr.into(), item.into()).into()
}

/// Makes the `#[tool]` methods of an `impl` block a `codemode::Toolset`.
/// See `codemode::toolset`.
#[proc_macro_attribute]
pub fn toolset(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::toolset(attr.into(), item.into()).into()
}

/// The body of `codemode::tools!`, which passes its `$crate` first. Not for
/// direct use.
#[doc(hidden)]
#[proc_macro]
pub fn __tools(input: TokenStream) -> TokenStream {
    expand::tools(input.into()).into()
}
