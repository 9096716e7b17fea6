//! Code generation. Everything generated goes inside `const _: () = { ... };`
//! and names the runtime through `::codemode::__private`, so nothing collides
//! with the user's names.

use crate::ctxt::Ctxt;
use crate::model::{self, Params, ToolFn};
use crate::valid;
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
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
    let krate = krate_path(tool_attr.krate.as_ref());
    let tool = model::tool_fn(&mut cx, tool_attr, &func.attrs, &func.sig, false);
    valid::tool(&mut cx, &tool, &func.sig);
    strip_param_attrs(&mut func.sig);
    let vis = &func.vis;
    let ident = &func.sig.ident;
    let name = &tool.name;
    let marker = quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}
    };
    if !cx.is_ok() {
        // The marker type and its `Tool` impl are still there, so code that
        // names the tool (`tools!`, a toolset) reports nothing more.
        let errors = cx.into_compile_errors();
        let fallback = const_block(
            &krate,
            quote! {
                impl #krate::Tool for #ident {
                    const NAME: &'static str = #name;
                    const BLOCKING: bool = false;
                    fn def() -> #krate::ToolDef {
                        ::core::unreachable!()
                    }
                    async fn call(
                        _: #krate::__private::serde_json::Value,
                    ) -> ::core::result::Result<#krate::__private::serde_json::Value, #krate::ToolCallError> {
                        ::core::unreachable!()
                    }
                }
            },
        );
        return quote!(#func #marker #fallback #errors);
    }
    let checks = arg_checks(&krate, &tool, None);
    let def = def_expr(&krate, &tool);
    let body = call_body(&krate, &tool, quote!(#ident));
    let blocking = !tool.is_async;
    let glue = glue_arg();
    let generated = const_block(
        &krate,
        quote! {
            #checks

            impl #ident {
                #[doc(hidden)]
                fn __codemode_def(#glue) -> #krate::ToolDef {
                    #def
                }

                #[doc(hidden)]
                async fn __codemode_call(
                    args: #krate::__private::serde_json::Value,
                    #glue,
                ) -> ::core::result::Result<#krate::__private::serde_json::Value, #krate::ToolCallError> {
                    #body
                }
            }

            impl #krate::Tool for #ident {
                const NAME: &'static str = #name;
                const BLOCKING: bool = #blocking;

                fn def() -> #krate::ToolDef {
                    Self::__codemode_def(())
                }

                fn call(
                    args: #krate::__private::serde_json::Value,
                ) -> impl ::core::future::Future<
                    Output = ::core::result::Result<#krate::__private::serde_json::Value, #krate::ToolCallError>,
                > + ::core::marker::Send {
                    Self::__codemode_call(args, ())
                }
            }
        },
    );
    quote! {
        #func

        #marker

        #generated
    }
}

/// The path generated code names the crate by: `::codemode`, or the
/// `crate = "..."` a re-exporting crate gives.
fn krate_path(krate: Option<&syn::Path>) -> TokenStream {
    match krate {
        Some(path) => quote!(#path),
        None => quote!(::codemode),
    }
}

/// Wraps generated items in `const _: () = { ... };`, where the helper
/// traits the expansion relies on are in scope and no name leaks out.
fn const_block(krate: &TokenStream, items: TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            use #krate::__private::{
                Readable as _, Unreadable as _, ViaDisplay as _, ViaInto as _, ViaPlain as _, ViaResult as _,
            };
            #items
        };
    }
}

/// `#[toolset]` on an impl block.
pub fn toolset(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut cx = Ctxt::default();
    let krate = krate_path(model::parse_toolset_attr(&mut cx, attr).as_ref());
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
        if let Some(path) = &tool_attr.krate {
            cx.error(
                path,
                "set `crate` on #[toolset(crate = \"...\")], not on one of its tools",
            );
        }
        let tool = model::tool_fn(&mut cx, tool_attr, &method.attrs, &method.sig, true);
        valid::tool(&mut cx, &tool, &method.sig);
        tools.push(tool);
        strip_param_attrs(&mut method.sig);
    }
    valid::toolset(&mut cx, &block, &tools);
    if !cx.is_ok() {
        let errors = cx.into_compile_errors();
        // Where the block can carry them, the toolset traits are still
        // implemented, so code that uses the type reports nothing more.
        let fallback = (block.trait_.is_none() && block.generics.params.is_empty()).then(|| {
            let self_ty = &block.self_ty;
            const_block(
                &krate,
                quote! {
                    impl #krate::StaticToolset for #self_ty {
                        fn tool_defs() -> ::std::vec::Vec<#krate::ToolDef> {
                            ::core::unreachable!()
                        }
                    }
                    impl #krate::Toolset for #self_ty {
                        fn defs(&self) -> ::std::vec::Vec<#krate::ToolDef> {
                            ::core::unreachable!()
                        }
                        async fn call(
                            &self,
                            _: &str,
                            _: #krate::__private::serde_json::Value,
                        ) -> ::core::result::Result<#krate::__private::serde_json::Value, #krate::ToolCallError> {
                            ::core::unreachable!()
                        }
                    }
                },
            )
        });
        return quote!(#block #fallback #errors);
    }
    let self_ty = &block.self_ty;
    let glue = glue_arg();
    let mut checks = Vec::new();
    let mut methods = Vec::new();
    let mut entries = Vec::new();
    for tool in &tools {
        checks.push(arg_checks(&krate, tool, Some(self_ty)));
        let method = &tool.ident;
        let callee = if tool.has_self {
            quote!(self.#method)
        } else {
            quote!(Self::#method)
        };
        // Each tool's call is a method of its own: one `call` holding every
        // tool's body made the compiler's work on it grow faster than the
        // number of tools. It is generic (see `glue_arg`).
        let call_method = format_ident!("__codemode_call_{}", tool.ident.unraw());
        let body = call_body(&krate, tool, callee);
        let (asyncness, await_) = if tool.is_async {
            (quote!(async), quote!(.await))
        } else {
            (quote!(), quote!())
        };
        methods.push(quote! {
            #[doc(hidden)]
            #asyncness fn #call_method(
                &self,
                args: #krate::__private::serde_json::Value,
                #glue,
            ) -> ::core::result::Result<#krate::__private::serde_json::Value, #krate::ToolCallError> {
                #body
            }
        });
        let name = &tool.name;
        let blocking = !tool.is_async;
        entries.push(Entry {
            name: quote!(#name),
            def: def_expr(&krate, tool),
            call: quote!(self.#call_method(args, ()) #await_),
            blocking: quote!(#blocking),
        });
    }
    let impls = toolset_impls(&krate, &quote!(#self_ty), &entries);
    let generated = const_block(
        &krate,
        quote! {
            #(#checks)*
            impl #self_ty {
                #(#methods)*
            }
            #impls
        },
    );
    quote! {
        #block

        #generated
    }
}

/// One tool of a toolset, as the dispatch sees it: expressions for its
/// name, its declaration, the call (a block that may `?` and reads `args`)
/// and whether it blocks.
struct Entry {
    name: TokenStream,
    def: TokenStream,
    call: TokenStream,
    blocking: TokenStream,
}

/// The last parameter of the generated functions that hold the glue of
/// each tool (reading its arguments, calling it, converting its result),
/// the tool list and the dispatch: `_: impl Sized`, always given `()`. It
/// makes them generic, and rustc compiles generic functions in a codegen
/// unit apart from the module's own functions, so an edit to one tool's
/// body recompiles the user's code and not all the glue with it (about 15
/// times as much code as a small tool's body). This is what keeps an
/// incremental build close to one without the macros (BENCHMARKS.md,
/// section 6). An anonymous type parameter has no name that could hide
/// one of the user's types.
fn glue_arg() -> TokenStream {
    quote!(_: impl ::core::marker::Sized)
}

/// `StaticToolset` and `Toolset` for `self_ty` over `entries`: the one
/// dispatch `#[toolset]` and `tools!` both expand to.
fn toolset_impls(krate: &TokenStream, self_ty: &TokenStream, entries: &[Entry]) -> TokenStream {
    let names: Vec<&TokenStream> = entries.iter().map(|e| &e.name).collect();
    let defs = entries.iter().map(|e| &e.def);
    let calls = entries.iter().map(|e| &e.call);
    let blocking = entries.iter().map(|e| &e.blocking);
    let glue = glue_arg();
    let value = quote!(#krate::__private::serde_json::Value);
    let outcome = quote!(::core::result::Result<#value, #krate::ToolCallError>);
    // The helpers are methods of a trait private to the generated block:
    // they cannot clash with the type's own methods, or with a second
    // toolset block's (which then fails only on the two trait impls), and
    // a trait can be implemented where an inherent impl cannot.
    quote! {
        trait __CodemodeToolsetGlue {
            fn tool_defs(#glue) -> ::std::vec::Vec<#krate::ToolDef>;
            fn dispatch(
                &self,
                name: &str,
                args: #value,
                #glue,
            ) -> impl ::core::future::Future<Output = #outcome>;
            fn is_blocking(name: &str, #glue) -> bool;
        }

        impl __CodemodeToolsetGlue for #self_ty {
            fn tool_defs(#glue) -> ::std::vec::Vec<#krate::ToolDef> {
                #krate::__private::sorted(::std::vec![#(#defs),*])
            }

            async fn dispatch(&self, name: &str, args: #value, #glue) -> #outcome {
                #(
                    if name == #names {
                        return { #calls };
                    }
                )*
                let _ = args;
                ::core::result::Result::Err(#krate::unknown_tool(name, &[#(#names),*]))
            }

            fn is_blocking(name: &str, #glue) -> bool {
                #(
                    if name == #names {
                        return #blocking;
                    }
                )*
                let _ = name;
                false
            }
        }

        impl #krate::StaticToolset for #self_ty {
            fn tool_defs() -> ::std::vec::Vec<#krate::ToolDef> {
                <Self as __CodemodeToolsetGlue>::tool_defs(())
            }
        }

        impl #krate::Toolset for #self_ty {
            fn defs(&self) -> ::std::vec::Vec<#krate::ToolDef> {
                <Self as #krate::StaticToolset>::tool_defs()
            }

            fn call(
                &self,
                name: &str,
                args: #value,
            ) -> impl ::core::future::Future<Output = #outcome> + ::core::marker::Send {
                <Self as __CodemodeToolsetGlue>::dispatch(self, name, args, ())
            }

            fn is_blocking(&self, name: &str) -> bool {
                <Self as __CodemodeToolsetGlue>::is_blocking(name, ())
            }
        }
    }
}

/// `tools!` (through the facade's `macro_rules!`, which passes `$crate`):
/// a unit struct whose toolset is the listed `#[tool]` functions.
pub fn tools(input: TokenStream) -> TokenStream {
    match syn::parse2::<ToolsInput>(input) {
        Ok(input) => tools_expansion(&input),
        Err(e) => e.to_compile_error(),
    }
}

struct ToolsInput {
    krate: TokenStream,
    attrs: Vec<syn::Attribute>,
    vis: syn::Visibility,
    ident: syn::Ident,
    tools: Vec<syn::Path>,
}

impl syn::parse::Parse for ToolsInput {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        // `$crate` arrives as one identifier-like token, then `;`.
        let mut krate = TokenStream::new();
        while !input.peek(syn::Token![;]) {
            let tt: proc_macro2::TokenTree = input.parse()?;
            krate.extend([tt]);
        }
        input.parse::<syn::Token![;]>()?;
        let attrs = input.call(syn::Attribute::parse_outer)?;
        let vis = input.parse()?;
        input.parse::<syn::Token![struct]>()?;
        let ident = input.parse()?;
        let content;
        syn::braced!(content in input);
        let tools = content
            .parse_terminated(syn::Path::parse_mod_style, syn::Token![,])?
            .into_iter()
            .collect();
        Ok(ToolsInput {
            krate,
            attrs,
            vis,
            ident,
            tools,
        })
    }
}

fn tools_expansion(input: &ToolsInput) -> TokenStream {
    let ToolsInput {
        krate,
        attrs,
        vis,
        ident,
        tools,
    } = input;
    let entries: Vec<Entry> = tools
        .iter()
        .map(|path| Entry {
            name: quote!(<#path as #krate::Tool>::NAME),
            def: quote!(<#path as #krate::Tool>::def()),
            call: quote!(<#path as #krate::Tool>::call(args).await),
            blocking: quote!(<#path as #krate::Tool>::BLOCKING),
        })
        .collect();
    let names = entries.iter().map(|e| &e.name);
    let impls = toolset_impls(krate, &quote!(#ident), &entries);
    quote! {
        #(#attrs)*
        #[derive(Debug, Clone, Copy, Default)]
        #vis struct #ident;

        const _: () = #krate::__private::assert_unique_names(&[#(#names),*]);

        const _: () = {
            #impls
        };
    }
}

/// The struct the JSON arguments are read into (none for `#[args]`), and a
/// check with a clear message for each parameter type.
/// `self_ty` is the toolset's type, written for `Self` in a parameter's
/// type: the checks are free items, where `Self` means nothing.
fn arg_checks(krate: &TokenStream, tool: &ToolFn, self_ty: Option<&syn::Type>) -> TokenStream {
    let check = |ty: &syn::Type| {
        let krate = respan(krate, ty.span());
        let ty = match self_ty {
            Some(self_ty) => replace_self(quote!(#ty), &quote!(#self_ty)),
            None => quote!(#ty),
        };
        quote_spanned!(ty.span()=> const _: () = #krate::__private::assert_args::<#ty>();)
    };
    match &tool.params {
        Params::Whole(param) => check(&param.ty),
        Params::Fields(params) => {
            let checks = params.iter().map(|p| check(&p.ty));
            quote!(#(#checks)*)
        }
    }
}

/// `tokens` with each `Self` written as `self_ty` (`<self_ty>` before
/// `::`, so that `Self::X` stays a path), placed where `Self` was.
fn replace_self(tokens: TokenStream, self_ty: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            proc_macro2::TokenTree::Ident(ident) if ident == "Self" => {
                let ty = respan(self_ty, ident.span());
                let path_follows = matches!(
                    tokens.peek(),
                    Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == ':'
                );
                out.extend(if path_follows {
                    quote_spanned!(ident.span()=> <#ty>)
                } else {
                    ty
                });
            }
            proc_macro2::TokenTree::Group(group) => {
                let mut inner = proc_macro2::Group::new(
                    group.delimiter(),
                    replace_self(group.stream(), self_ty),
                );
                inner.set_span(group.span());
                out.extend([proc_macro2::TokenTree::Group(inner)]);
            }
            other => out.extend([other]),
        }
    }
    out
}

/// A parameter's doc comment as one string expression, the way schemars
/// reads doc attributes: the lines joined by `\n`, each without its first
/// space.
fn doc_expr(docs: &[syn::Attribute]) -> TokenStream {
    let mut parts = Vec::new();
    for (i, value) in docs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| a.meta.require_name_value().ok())
        .map(|nv| &nv.value)
        .enumerate()
    {
        if i > 0 {
            parts.push(quote!("\n"));
        }
        match value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => {
                let text = text.value();
                let text = text.strip_prefix(' ').unwrap_or(&text);
                parts.push(quote!(#text));
            }
            other => parts.push(quote!(#other)),
        }
    }
    quote!(::core::concat!(#(#parts),*))
}

/// The return type as written (`()` when there is none), spanned on itself so
/// a missing `Serialize`/`JsonSchema` points at it.
fn output_type(tool: &ToolFn) -> (TokenStream, Span) {
    match &tool.output {
        Some(ty) => (quote!(#ty), ty.span()),
        None => (quote!(()), tool.ident.span()),
    }
}

fn def_expr(krate: &TokenStream, tool: &ToolFn) -> TokenStream {
    let (name, description) = (&tool.name, &tool.description);
    let input_schema = match &tool.params {
        Params::Whole(param) => {
            let ty = &param.ty;
            quote!(#krate::__private::schema_for::<#ty>())
        }
        Params::Fields(params) => {
            let params = params.iter().map(|p| {
                let ty = &p.ty;
                let key = p.ident.unraw().to_string();
                let doc = doc_expr(&p.docs);
                quote!((&#krate::__private::Param::<#ty>::new()).schema(#key, #doc))
            });
            quote!(#krate::__private::args_schema(&[#(#params),*]))
        }
    };
    let (output, span) = output_type(tool);
    let spanned = respan(krate, span);
    let output_schema = quote_spanned!(span=>
        #spanned::__private::output_schema(&(&#spanned::__private::Probe::<#output>::new()).kind())
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
        quote!(.with_annotations(#krate::__private::annotations(#title, [#(#hints),*])))
    });
    let policy = tool.policy.as_deref().map(|p| {
        let variant = match p {
            "direct" => quote!(Direct),
            "both" => quote!(Both),
            _ => quote!(Program),
        };
        quote!(.with_policy(#krate::CallPolicy::#variant))
    });
    quote! {
        #krate::__private::tool_def(
            #name,
            #description,
            #input_schema,
            #output_schema,
        )
        #annotations
        #policy
    }
}

/// Reads the arguments, calls the function (catching a panic), and turns
/// its result into JSON or a `ToolCallError`.
fn call_body(krate: &TokenStream, tool: &ToolFn, callee: TokenStream) -> TokenStream {
    let name = &tool.name;
    let (read, call_args) = match &tool.params {
        Params::Whole(param) => {
            let ty = &param.ty;
            (
                quote!(let __args: #ty = #krate::__private::parse_args(#name, args)?;),
                quote!(__args),
            )
        }
        Params::Fields(params) => {
            // Bound to private names: a parameter may share its function's name.
            let keys: Vec<String> = params.iter().map(|p| p.ident.unraw().to_string()).collect();
            let types = params.iter().map(|p| &p.ty);
            let locals: Vec<_> = (0..params.len())
                .map(|i| format_ident!("__codemode_arg{}", i))
                .collect();
            (
                quote! {
                    let mut __reader = #krate::__private::args(#name, args, &[#(#keys),*])?;
                    #(let #locals: #types = (&#krate::__private::Param::<#types>::new()).read(&mut __reader, #keys)?;)*
                },
                quote!(#(#locals),*),
            )
        }
    };
    let invoke = if tool.is_async {
        quote!(#krate::__private::catch_async(#name, #callee(#call_args)).await?)
    } else {
        quote!(#krate::__private::catch_sync(#name, || #callee(#call_args))?)
    };
    // Spanned on the return type, so a type that cannot be an output or an
    // error is reported there.
    let (output, span) = output_type(tool);
    let spanned = respan(krate, span);
    let split = quote_spanned!(span=>
        #spanned::__private::Split::split(&(&#spanned::__private::Probe::<#output>::new()).kind(), __returned)
    );
    let ok = quote_spanned!(span=> #spanned::__private::serialize_output(#name, value));
    let err = quote_spanned!(span=> (&#spanned::__private::ErrProbe::of(&error)).err_kind().convert(#name, error));
    quote! {
        #read
        let __returned = #invoke;
        match #split {
            ::core::result::Result::Ok(value) => #ok,
            ::core::result::Result::Err(error) => ::core::result::Result::Err(#err),
        }
    }
}

/// The crate path with every token placed at `span`, so an error in code
/// generated for a type points at that type, not at the attribute.
fn respan(krate: &TokenStream, span: Span) -> TokenStream {
    krate
        .clone()
        .into_iter()
        .map(|mut token| {
            token.set_span(span);
            token
        })
        .collect()
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
