//! The typed model of a tool, read off a function's syntax, with every
//! semantic check (each one an error spanned on the offending tokens).

use crate::ctxt::Ctxt;
use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::{
    Attribute, Expr, FnArg, Ident, Lit, LitStr, Pat, ReceiverKind, ReturnType, Signature, Type,
};

/// One tool: a function or a method marked `#[tool]`.
pub struct ToolFn {
    /// The name the program calls.
    pub name: String,
    /// Where the name came from (the `name = "..."` literal or the function name).
    pub name_span: Span,
    /// The doc comment, as the model will read it.
    pub description: String,
    /// Where `description = "..."` was written, when it was.
    pub description_span: Option<Span>,
    /// The Rust function's name.
    pub ident: Ident,
    /// `async fn`.
    pub is_async: bool,
    /// Takes `&self` (methods only).
    pub has_self: bool,
    /// What the arguments are.
    pub params: Params,
    /// The declared return type (`None` for `()`).
    pub output: Option<Type>,
    /// MCP annotations written in `#[tool(...)]`.
    pub annotations: Annotations,
    /// `policy = "program" | "direct" | "both"`.
    pub policy: Option<String>,
}

/// MCP's hints, each `None` when not written.
#[derive(Default, Clone)]
pub struct Annotations {
    /// `title = "..."`.
    pub title: Option<String>,
    /// `read_only`, `destructive`, `idempotent`, `open_world`.
    pub hints: [Option<bool>; 4],
}

/// The hint keys, in the order of [`Annotations::hints`].
pub const HINTS: [&str; 4] = ["read_only", "destructive", "idempotent", "open_world"];

impl Annotations {
    /// Whether anything was written.
    pub fn is_empty(&self) -> bool {
        self.title.is_none() && self.hints.iter().all(Option::is_none)
    }
}

/// How the JSON argument object maps onto the parameters.
pub enum Params {
    /// Each parameter is one property of a synthesised argument struct.
    Fields(Vec<Param>),
    /// The one `#[args]` parameter is the whole argument object.
    Whole(Box<Param>),
}

/// One parameter.
pub struct Param {
    /// Its name (the JSON property name, for `Params::Fields`).
    pub ident: Ident,
    /// Its type.
    pub ty: Type,
    /// Its doc attributes, which become the property's description.
    pub docs: Vec<Attribute>,
}

/// The options written in `#[tool(...)]`.
#[derive(Default)]
pub struct ToolAttr {
    /// `name = "..."`.
    pub name: Option<LitStr>,
    /// `description = "..."`.
    pub description: Option<LitStr>,
    /// `title` and the hints.
    pub annotations: Annotations,
    /// `policy = "..."`.
    pub policy: Option<LitStr>,
    /// `crate = "path"`: where the `codemode` crate is, for crates that
    /// re-export it.
    pub krate: Option<syn::Path>,
}

const TOOL_KEYS: &str = "`name = \"...\"`, `description = \"...\"`, `title = \"...\"`, `read_only`, `destructive`, `idempotent`, `open_world` (each optionally `= true|false`), `policy = \"program\"|\"direct\"|\"both\"` and `crate = \"path::to::codemode\"`";

/// Parses the tokens inside `#[tool(...)]`, recording unknown keys.
pub fn parse_tool_attr(cx: &mut Ctxt, tokens: TokenStream) -> ToolAttr {
    let mut attr = ToolAttr::default();
    if tokens.is_empty() {
        return attr;
    }
    let mut later: Vec<syn::Error> = Vec::new();
    let parser = syn::meta::parser(|meta| {
        let key = meta
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_else(|| "this".to_owned());
        let once = |slot_full: bool| -> syn::Result<()> {
            if slot_full {
                Err(meta.error(format!("`{key}` is given twice")))
            } else {
                Ok(())
            }
        };
        match key.as_str() {
            "name" => {
                once(attr.name.is_some())?;
                attr.name = Some(meta.value()?.parse()?);
            }
            "description" => {
                once(attr.description.is_some())?;
                attr.description = Some(meta.value()?.parse()?);
            }
            "title" => {
                once(attr.annotations.title.is_some())?;
                let lit: LitStr = meta.value()?.parse()?;
                attr.annotations.title = Some(lit.value());
            }
            "policy" => {
                once(attr.policy.is_some())?;
                let lit: LitStr = meta.value()?.parse()?;
                if matches!(lit.value().as_str(), "program" | "direct" | "both") {
                    attr.policy = Some(lit);
                } else {
                    // A value error: the rest of the attribute is still read.
                    later.push(syn::Error::new(
                        lit.span(),
                        "`policy` is \"program\" (the default: only programs call it), \"direct\" (only the model, as a native tool) or \"both\"",
                    ));
                }
            }
            "crate" => {
                once(attr.krate.is_some())?;
                attr.krate = Some(parse_crate_path(meta.value()?.parse()?)?);
            }
            hint if HINTS.contains(&hint) => {
                let index = HINTS.iter().position(|h| *h == hint).unwrap_or(0);
                once(attr.annotations.hints[index].is_some())?;
                let value = if meta.input.peek(syn::Token![=]) {
                    let lit: syn::LitBool = meta.value()?.parse()?;
                    lit.value
                } else {
                    true
                };
                attr.annotations.hints[index] = Some(value);
            }
            _ => {
                return Err(meta.error(format!(
                    "unknown key `{key}` in #[tool(...)]; the keys are {TOOL_KEYS}"
                )));
            }
        }
        Ok(())
    });
    if let Err(e) = syn::parse::Parser::parse2(parser, tokens) {
        later.push(e);
    }
    for e in later {
        cx.push(e);
    }
    attr
}

/// Reads `crate = "path"`: the path, spanned on the literal.
pub fn parse_crate_path(lit: LitStr) -> syn::Result<syn::Path> {
    lit.parse::<syn::Path>().map_err(|_| {
        syn::Error::new(
            lit.span(),
            "`crate` is the path of the codemode crate as a string, e.g. `crate = \"my_sdk::codemode\"`",
        )
    })
}

/// Parses the tokens inside `#[toolset(...)]`: only `crate = "path"`.
pub fn parse_toolset_attr(cx: &mut Ctxt, tokens: TokenStream) -> Option<syn::Path> {
    let mut krate = None;
    if tokens.is_empty() {
        return krate;
    }
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("crate") && krate.is_none() {
            krate = Some(parse_crate_path(meta.value()?.parse()?)?);
            Ok(())
        } else if meta.path.is_ident("crate") {
            Err(meta.error("`crate` is given twice"))
        } else {
            Err(meta.error(
                "#[codemode::toolset] takes only `crate = \"path::to::codemode\"` (for crates that re-export codemode)",
            ))
        }
    });
    if let Err(e) = syn::parse::Parser::parse2(parser, tokens) {
        cx.push(e);
    }
    krate
}

/// Reads `#[tool(...)]` written as an attribute (inside a `#[toolset]` impl).
pub fn parse_tool_attribute(cx: &mut Ctxt, attr: &Attribute) -> ToolAttr {
    match &attr.meta {
        syn::Meta::Path(_) => ToolAttr::default(),
        syn::Meta::List(list) => parse_tool_attr(cx, list.tokens.clone()),
        syn::Meta::NameValue(nv) => {
            cx.error(nv, "write `#[tool]` or `#[tool(name = \"...\")]`");
            ToolAttr::default()
        }
    }
}

/// Builds the model of a tool from its signature and attributes, recording
/// every problem. `in_impl` says whether it is a method of a `#[toolset]`.
pub fn tool_fn(
    cx: &mut Ctxt,
    attr: ToolAttr,
    attrs: &[Attribute],
    sig: &Signature,
    in_impl: bool,
) -> ToolFn {
    let (name, name_span) = match &attr.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (unraw(&sig.ident), sig.ident.span()),
    };
    let description = match &attr.description {
        Some(lit) => lit.value(),
        None => doc_text(attrs),
    };
    let mut has_self = false;
    let mut fields = Vec::new();
    let mut whole: Vec<(Param, Span)> = Vec::new();
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => {
                if !in_impl {
                    cx.error(
                        receiver,
                        "`self` is only allowed in a method of a #[toolset] impl",
                    );
                    continue;
                }
                match &receiver.kind {
                    ReceiverKind::Reference(_, _, None) => has_self = true,
                    ReceiverKind::Reference(_, _, Some(_)) => cx.error(
                        receiver,
                        "a tool method takes `&self`, not `&mut self`: calls may run concurrently (use interior mutability)",
                    ),
                    ReceiverKind::Value => {
                        cx.error(receiver, "a tool method takes `&self`, not `self`: the toolset serves many calls")
                    }
                    _ => cx.error(receiver, "a tool method takes `&self`"),
                }
            }
            FnArg::Typed(pat_type) => {
                let is_whole = pat_type.attrs.iter().any(|a| a.path().is_ident("args"));
                let ident = match &*pat_type.pat {
                    Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                        Some(pi.ident.clone())
                    }
                    other => {
                        cx.error(
                            other,
                            "use a plain name for each tool parameter: the name is the argument's JSON property",
                        );
                        None
                    }
                };
                if let Some(ident) = ident {
                    let param = Param {
                        ident,
                        ty: (*pat_type.ty).clone(),
                        docs: pat_type
                            .attrs
                            .iter()
                            .filter(|a| a.path().is_ident("doc"))
                            .cloned()
                            .collect(),
                    };
                    if is_whole {
                        whole.push((param, pat_type.span()));
                    } else {
                        fields.push(param);
                    }
                }
                for attr in &pat_type.attrs {
                    if !attr.path().is_ident("doc") && !attr.path().is_ident("args") {
                        cx.error(
                            attr,
                            "only doc comments and `#[args]` are allowed on a tool parameter",
                        );
                    } else if attr.path().is_ident("args")
                        && !matches!(attr.meta, syn::Meta::Path(_))
                    {
                        cx.error(attr, "write `#[args]` alone");
                    }
                }
            }
        }
    }
    let params = match (whole.len(), fields.is_empty()) {
        (0, _) => Params::Fields(fields),
        (1, true) => Params::Whole(Box::new(whole.remove(0).0)),
        _ => {
            for (_, span) in &whole {
                cx.push(syn::Error::new(
                    *span,
                    "an `#[args]` parameter is the whole argument object, so the tool can take no other parameters",
                ));
            }
            Params::Fields(fields)
        }
    };
    let output = match &sig.output {
        ReturnType::Default => None,
        ReturnType::Type(_, ty) => Some((**ty).clone()),
    };
    ToolFn {
        name,
        name_span,
        description,
        description_span: attr.description.as_ref().map(LitStr::span),
        ident: sig.ident.clone(),
        is_async: sig.asyncness.is_some(),
        has_self,
        params,
        output,
        annotations: attr.annotations,
        policy: attr.policy.map(|p| p.value()),
    }
}

/// The text of the `///` comments: one leading space per line removed,
/// blank edges trimmed.
pub fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(expr) = &nv.value
            && let Lit::Str(s) = &expr.lit
        {
            for line in s.value().lines() {
                lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned());
            }
        }
    }
    lines.join("\n").trim().to_owned()
}

/// An identifier's text without a raw prefix (`r#type` → `type`).
pub fn unraw(ident: &Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map(str::to_owned).unwrap_or(text)
}
