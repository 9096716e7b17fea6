//! The checks a well-formed model must pass, kept apart from reading it (as
//! serde_derive and thiserror do): the model says what was written, this
//! says what is allowed. Every problem is recorded, spanned on its tokens.

use crate::ctxt::Ctxt;
use crate::model::ToolFn;
use proc_macro2::Span;
use std::collections::BTreeMap;
use syn::{FnArg, ItemImpl, Safety, Signature, Type};

/// Checks one tool: its signature, its parameter and return types, and the
/// name and description the model will read.
pub fn tool(cx: &mut Ctxt, tool: &ToolFn, sig: &Signature) {
    signature(cx, sig);
    for input in &sig.inputs {
        if let FnArg::Typed(pat_type) = input {
            param_type(cx, &pat_type.ty);
        }
    }
    if let Some(ty) = &tool.output
        && contains_impl_trait(ty)
    {
        cx.error(
            ty,
            "a tool must return a concrete type: its output schema is rendered from it",
        );
    }
    // A name taken from the function is always a valid one; a written one
    // may not be, and its error goes on the literal. This is the rule (and
    // the wording) of `codemode_core::check_tool_name`, restated because a
    // proc-macro crate does not link the core; the UI test
    // `tests/ui/fail/invalid_name.rs` pins the wording.
    if tool.name.is_empty() {
        cx.push(syn::Error::new(
            tool.name_span,
            "a tool name cannot be empty",
        ));
    } else if let Some(c) = tool.name.chars().find(|c| c.is_control()) {
        cx.push(syn::Error::new(
            tool.name_span,
            format!("a tool name cannot contain control characters (found {c:?})"),
        ));
    }
    match tool.description_span {
        Some(span) if tool.description.trim().is_empty() => cx.push(syn::Error::new(
            span,
            "a tool's description cannot be empty: it is what the model reads",
        )),
        Some(_) => {}
        None if tool.description.is_empty() => cx.error(
            &sig.ident,
            "a tool needs a doc comment or `#[tool(description = \"...\")]`: it is the description the model reads (add `/// What this tool does.`)",
        ),
        None => {}
    }
}

/// Checks a `#[toolset]` block: an inherent, non-generic impl whose tools
/// have distinct names.
pub fn toolset(cx: &mut Ctxt, block: &ItemImpl, tools: &[ToolFn]) {
    if let Some((path, _)) = &block.trait_ {
        cx.error(
            path,
            "#[codemode::toolset] goes on an inherent `impl Type { ... }` block, not a trait impl",
        );
    }
    if !block.generics.params.is_empty() {
        cx.error(&block.generics, "a #[toolset] impl cannot be generic: its schemas must be known when the SDK is rendered");
    }
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for tool in tools {
        if seen.insert(&tool.name, tool.name_span).is_some() {
            cx.push(syn::Error::new(
                tool.name_span,
                format!(
                    "two tools in this toolset are named {:?}; tool names must be unique",
                    tool.name
                ),
            ));
        }
    }
}

fn signature(cx: &mut Ctxt, sig: &Signature) {
    if let Some(c) = &sig.constness {
        cx.error(c, "a tool cannot be a `const fn`");
    }
    if let Safety::Unsafe(u) = &sig.safety {
        cx.error(
            u,
            "a tool cannot be `unsafe`: a program calls it with arguments nobody checked by hand",
        );
    }
    if let Some(abi) = &sig.abi {
        cx.error(abi, "a tool cannot be an `extern` function");
    }
    if let Some(v) = &sig.variadic {
        cx.error(v, "a tool cannot be variadic");
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        cx.error(
            &sig.generics,
            "a tool cannot be generic: its schema must be known when the SDK is rendered",
        );
    }
}

fn param_type(cx: &mut Ctxt, ty: &Type) {
    match ty {
        Type::Reference(r) => {
            let is_str = matches!(&*r.elem, Type::Path(p) if p.path.is_ident("str"));
            if is_str {
                cx.error(ty, "tool arguments are read from JSON into owned values: use `String` instead of `&str`");
            } else {
                cx.error(ty, "tool arguments are read from JSON into owned values: use an owned type, not a reference");
            }
        }
        _ if contains_impl_trait(ty) => {
            cx.error(
                ty,
                "an `impl Trait` parameter cannot be read from JSON: use a concrete type",
            );
        }
        _ => {}
    }
}

fn contains_impl_trait(ty: &Type) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    syn::visit::Visit::visit_type(&mut finder, ty);
    finder.0
}
