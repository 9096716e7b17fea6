//! Code generation. Everything generated goes inside `const _: () = { ... };`
//! and names the runtime through `::codemode::__private`, so nothing collides
//! with the user's names.

use crate::ctxt::Ctxt;
use crate::model::{self, Params, ToolFn};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use std::collections::BTreeMap;
use syn::spanned::Spanned;
use syn::{FnArg, ImplItem, Item, ItemFn, ItemImpl};

/// `#[tool]` on a free function.
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut cx = Ctxt::default();
    let tool_attr = model::parse_tool_attr(&mut cx, attr);
    let mut func: ItemFn = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(func)) => func,
        Ok(other) => {
            cx.error(
                first_token(&other),
                "#[codemode::tool] goes on a function; for methods, mark the impl block #[codemode::toolset] and each method #[tool]",
            );
            return quote!(#item)
                .into_iter()
                .chain(cx.into_compile_errors())
                .collect();
        }
        Err(e) => return e.to_compile_error(),
    };
    let tool = model::tool_fn(&mut cx, tool_attr, &func.attrs, &func.sig, false);
    strip_param_attrs(&mut func.sig);
    if !cx.is_ok() {
        let errors = cx.into_compile_errors();
        return quote!(#func #errors);
    }
    let vis = &func.vis;
    let ident = &func.sig.ident;
    let args_struct = args_struct(&tool, &format_ident!("__CodemodeArgs"));
    let def = def_expr(&tool, &format_ident!("__CodemodeArgs"));
    let body = call_body(&tool, &format_ident!("__CodemodeArgs"), quote!(#ident));
    let name = &tool.name;
    let blocking = !tool.is_async;
    quote! {
        #func

        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}

        const _: () = {
            use ::codemode::__private::{ViaDisplay as _, ViaInto as _, ViaPlain as _, ViaResult as _};
            #args_struct

            impl ::codemode::Tool for #ident {
                const NAME: &'static str = #name;
                const BLOCKING: bool = #blocking;

                fn def() -> ::codemode::ToolDef {
                    #def
                }

                async fn call(
                    args: ::codemode::__private::serde_json::Value,
                ) -> ::core::result::Result<::codemode::__private::serde_json::Value, ::codemode::ToolCallError> {
                    #body
                }
            }
        };
    }
}

/// `#[toolset]` on an impl block.
pub fn toolset(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut cx = Ctxt::default();
    if !attr.is_empty() {
        cx.error(&attr, "#[codemode::toolset] takes no arguments");
    }
    let mut block: ItemImpl = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Impl(block)) => block,
        Ok(other) => {
            cx.error(first_token(&other), "#[codemode::toolset] goes on an `impl` block whose tool methods are marked #[tool]");
            return quote!(#item)
                .into_iter()
                .chain(cx.into_compile_errors())
                .collect();
        }
        Err(e) => return e.to_compile_error(),
    };
    if let Some((path, _)) = &block.trait_ {
        cx.error(
            path,
            "#[codemode::toolset] goes on an inherent `impl Type { ... }` block, not a trait impl",
        );
    }
    if !block.generics.params.is_empty() {
        cx.error(&block.generics, "a #[toolset] impl cannot be generic: its schemas must be known when the SDK is rendered");
    }
    let mut tools: Vec<ToolFn> = Vec::new();
    for item in &mut block.items {
        let (attrs, is_fn) = match item {
            ImplItem::Fn(f) => (&mut f.attrs, true),
            ImplItem::Const(c) => (&mut c.attrs, false),
            ImplItem::Type(t) => (&mut t.attrs, false),
            ImplItem::Macro(m) => (&mut m.attrs, false),
            _ => continue,
        };
        let Some(index) = attrs.iter().position(|a| a.path().is_ident("tool")) else {
            continue;
        };
        let marker = attrs.remove(index);
        if let Some(extra) = attrs.iter().find(|a| a.path().is_ident("tool")) {
            cx.error(extra, "#[tool] is given twice");
        }
        if !is_fn {
            cx.error(&marker, "#[tool] goes on a method");
            continue;
        }
        let ImplItem::Fn(method) = item else { continue };
        let tool_attr = model::parse_tool_attribute(&mut cx, &marker);
        tools.push(model::tool_fn(
            &mut cx,
            tool_attr,
            &method.attrs,
            &method.sig,
            true,
        ));
        strip_param_attrs(&mut method.sig);
    }
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for tool in &tools {
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
    if !cx.is_ok() {
        let errors = cx.into_compile_errors();
        return quote!(#block #errors);
    }
    let self_ty = &block.self_ty;
    let mut structs = Vec::new();
    let mut defs = Vec::new();
    let mut arms = Vec::new();
    let mut names = Vec::new();
    let mut blocking = Vec::new();
    for tool in &tools {
        let args = format_ident!("__CodemodeArgs_{}", tool.ident);
        structs.push(args_struct(tool, &args));
        defs.push(def_expr(tool, &args));
        let method = &tool.ident;
        let callee = if tool.has_self {
            quote!(self.#method)
        } else {
            quote!(Self::#method)
        };
        let body = call_body(tool, &args, callee);
        let name = &tool.name;
        arms.push(quote!(#name => { #body }));
        if !tool.is_async {
            blocking.push(name);
        }
        names.push(name);
    }
    let is_blocking = if blocking.is_empty() {
        quote!(let _ = name; false)
    } else {
        quote!(matches!(name, #(#blocking)|*))
    };
    quote! {
        #block

        const _: () = {
            use ::codemode::__private::{ViaDisplay as _, ViaInto as _, ViaPlain as _, ViaResult as _};
            #(#structs)*

            impl ::codemode::StaticToolset for #self_ty {
                fn tool_defs() -> ::std::vec::Vec<::codemode::ToolDef> {
                    ::codemode::__private::sorted(::std::vec![#(#defs),*])
                }
            }

            impl ::codemode::Toolset for #self_ty {
                fn defs(&self) -> ::std::vec::Vec<::codemode::ToolDef> {
                    <Self as ::codemode::StaticToolset>::tool_defs()
                }

                async fn call(
                    &self,
                    name: &str,
                    args: ::codemode::__private::serde_json::Value,
                ) -> ::core::result::Result<::codemode::__private::serde_json::Value, ::codemode::ToolCallError> {
                    match name {
                        #(#arms)*
                        _ => {
                            let _ = args;
                            ::core::result::Result::Err(::codemode::unknown_tool(name, &[#(#names),*]))
                        }
                    }
                }

                fn is_blocking(&self, name: &str) -> bool {
                    #is_blocking
                }
            }
        };
    }
}

/// The struct the JSON arguments are read into (none for `#[args]`), and a
/// check with a clear message for each parameter type.
fn args_struct(tool: &ToolFn, ident: &syn::Ident) -> TokenStream {
    match &tool.params {
        Params::Whole(param) => {
            let ty = &param.ty;
            quote_spanned!(ty.span()=> const _: () = ::codemode::__private::assert_args::<#ty>();)
        }
        Params::Fields(params) => {
            let checks = params.iter().map(|p| {
                let ty = &p.ty;
                quote_spanned!(ty.span()=> const _: () = ::codemode::__private::assert_args::<#ty>();)
            });
            let fields = params.iter().map(|p| {
                let (docs, ident, ty) = (&p.docs, &p.ident, &p.ty);
                quote!(#(#docs)* #ident: #ty)
            });
            quote! {
                #(#checks)*
                #[derive(::codemode::__private::serde::Deserialize, ::codemode::__private::schemars::JsonSchema)]
                #[serde(crate = "::codemode::__private::serde", deny_unknown_fields, expecting = "an object of the tool's arguments")]
                #[schemars(crate = "::codemode::__private::schemars")]
                #[allow(non_camel_case_types)]
                struct #ident {
                    #(#fields,)*
                }
            }
        }
    }
}

/// The return type as written (`()` when there is none), spanned on itself so
/// a missing `Serialize`/`JsonSchema` points at it.
fn output_type(tool: &ToolFn) -> (TokenStream, Span) {
    match &tool.output {
        Some(ty) => (quote!(#ty), ty.span()),
        None => (quote!(()), tool.ident.span()),
    }
}

fn def_expr(tool: &ToolFn, args: &syn::Ident) -> TokenStream {
    let (name, description) = (&tool.name, &tool.description);
    let input_ty = match &tool.params {
        Params::Whole(param) => {
            let ty = &param.ty;
            quote!(#ty)
        }
        Params::Fields(_) => quote!(#args),
    };
    let (output, span) = output_type(tool);
    let output_schema = quote_spanned!(span=>
        ::codemode::__private::output_schema(&(&::codemode::__private::Probe::<#output>::new()).kind())
    );
    let annotations = (!tool.annotations.is_empty()).then(|| {
        let title = match &tool.annotations.title {
            Some(t) => quote!(::core::option::Option::Some(#t)),
            None => quote!(::core::option::Option::None),
        };
        let hints = tool.annotations.hints.iter().map(|h| match h {
            Some(v) => quote!(::core::option::Option::Some(#v)),
            None => quote!(::core::option::Option::None),
        });
        quote!(.with_annotations(::codemode::__private::annotations(#title, [#(#hints),*])))
    });
    let policy = tool.policy.as_deref().map(|p| {
        let variant = match p {
            "direct" => quote!(Direct),
            "both" => quote!(Both),
            _ => quote!(Program),
        };
        quote!(.with_policy(::codemode::CallPolicy::#variant))
    });
    quote! {
        ::codemode::__private::tool_def(
            #name,
            #description,
            ::codemode::__private::schema_for::<#input_ty>(),
            #output_schema,
        )
        #annotations
        #policy
    }
}

/// Reads the arguments, calls the function (catching a panic), and turns
/// its result into JSON or a `ToolCallError`.
fn call_body(tool: &ToolFn, args: &syn::Ident, callee: TokenStream) -> TokenStream {
    let name = &tool.name;
    let (read, call_args) = match &tool.params {
        Params::Whole(param) => {
            let ty = &param.ty;
            (
                quote!(let __args: #ty = ::codemode::__private::parse_args(#name, args)?;),
                quote!(__args),
            )
        }
        Params::Fields(params) => {
            // Bound to private names: a parameter may share its function's name.
            let idents: Vec<_> = params.iter().map(|p| &p.ident).collect();
            let locals: Vec<_> = (0..params.len())
                .map(|i| format_ident!("__codemode_arg{}", i))
                .collect();
            (
                quote!(let #args { #(#idents: #locals),* } = ::codemode::__private::parse_args(#name, args)?;),
                quote!(#(#locals),*),
            )
        }
    };
    let invoke = if tool.is_async {
        quote!(::codemode::__private::catch_async(#name, #callee(#call_args)).await?)
    } else {
        quote!(::codemode::__private::catch_sync(#name, || #callee(#call_args))?)
    };
    // Spanned on the return type, so a type that cannot be an output or an
    // error is reported there.
    let (output, span) = output_type(tool);
    let split = quote_spanned!(span=>
        ::codemode::__private::Split::split(&(&::codemode::__private::Probe::<#output>::new()).kind(), __returned)
    );
    let ok = quote_spanned!(span=> ::codemode::__private::serialize_output(#name, value));
    let err = quote_spanned!(span=> (&::codemode::__private::ErrProbe::of(&error)).err_kind().convert(#name, error));
    quote! {
        #read
        let __returned = #invoke;
        match #split {
            ::core::result::Result::Ok(value) => #ok,
            ::core::result::Result::Err(error) => ::core::result::Result::Err(#err),
        }
    }
}

/// Removes the attributes only this macro understands (`///` docs and
/// `#[args]` on parameters), which the compiler would otherwise reject.
fn strip_param_attrs(sig: &mut syn::Signature) {
    for input in sig.inputs.iter_mut() {
        if let FnArg::Typed(pat_type) = input {
            pat_type
                .attrs
                .retain(|a| !a.path().is_ident("doc") && !a.path().is_ident("args"));
        }
    }
}

/// Something to hang an error about a whole item on: its first tokens.
fn first_token(item: &Item) -> TokenStream {
    let tokens = quote!(#item);
    tokens.into_iter().take(2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expansions as formatted source, compared with files next to this one.
    fn check_snapshot(name: &str, expanded: TokenStream) {
        let file: syn::File = syn::parse2(expanded).expect("the expansion parses");
        let text = prettyplease::unparse(&file);
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/expand")
            .join(format!("{name}.rs"));
        if std::env::var_os("UPDATE_GOLDENS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            expected,
            text,
            "{} is stale: run with UPDATE_GOLDENS=1 and review",
            path.display()
        );
    }

    #[test]
    fn sync_tool_expansion() {
        check_snapshot(
            "sync_tool",
            tool(
                quote!(),
                quote! {
                    /// Add two numbers.
                    pub fn add(
                        /// The first.
                        a: i64,
                        b: Option<i64>,
                    ) -> i64 {
                        a + b.unwrap_or(0)
                    }
                },
            ),
        );
    }

    #[test]
    fn async_tool_expansion() {
        check_snapshot(
            "async_tool",
            tool(
                quote!(name = "fetch-page"),
                quote! {
                    /// Fetch a page.
                    async fn fetch(url: String) -> Result<String, FetchError> {
                        todo!()
                    }
                },
            ),
        );
    }

    #[test]
    fn errors_are_all_reported() {
        let out = tool(
            quote!(nmae = "x"),
            quote!(
                const unsafe fn f<T>(s: &str, (a, b): (u8, u8)) {}
            ),
        )
        .to_string();
        for fragment in [
            "unknown key `nmae`",
            "const fn",
            "unsafe",
            "generic",
            "instead of `&str`",
            "plain name",
            "doc comment",
        ] {
            assert!(out.contains(fragment), "missing {fragment:?} in {out}");
        }
    }
}
