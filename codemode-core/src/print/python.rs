//! The Python stub module: TypedDicts for arguments and results, and a
//! `Tools` protocol with one `async def` per tool.
//!
//! Python cannot say everything TypeScript can. Every such decision is made
//! here, in [`Convert`], which turns the shared IR into [`Py`] trees:
//! - a nested object becomes a named TypedDict (Python has no anonymous record);
//! - `allOf` becomes one merged TypedDict when every part is an object, and
//!   the escape hatch (recorded) otherwise (there is no intersection type);
//! - a tuple with optional elements or a rest becomes a union of fixed
//!   lengths or `tuple[T, ...]`;
//! - a float literal widens to `float` (`Literal` takes no floats);
//! - extra keys beside listed properties are not expressible in a TypedDict.

use super::comment::doc_lines;
use crate::canonical::json_string;
use crate::error::ErrorKind;
use crate::names;
use crate::schema::{
    Def, Degradation, Doc, Extra, Lit, Lowered, Object, Origin, Prop, Tuple, Ty, pascal_case,
};
use crate::{ERROR_CLASS, GLOBAL};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write;
use unicode_normalization::UnicodeNormalization;

/// Most alternatives an `allOf` over unions may expand into before it
/// falls to the escape hatch.
const MAX_MERGED_ALTERNATIVES: usize = 16;

/// Most properties that `allOf` merges may copy in one render. A merged
/// TypedDict repeats the properties of every part, so one large definition
/// merged into many places would make the stub grow with their product;
/// past this budget each further merge is the escape hatch.
const MAX_MERGED_PROPS: usize = 1 << 17;

/// How many optional trailing tuple elements are spelled as a union of
/// fixed-length tuples; more widen to `tuple[T, ...]`.
const MAX_TUPLE_LENGTHS: usize = 4;

/// Prints the whole stub module for a lowered tool set, and returns the
/// degradations that only Python has.
pub(crate) fn render(lowered: &Lowered<'_>) -> (String, Vec<Degradation>) {
    let mut cv = Convert::new(&lowered.defs, false);
    // Definitions first, in id order, then tools in name order: both orders
    // depend only on the tool set.
    let mut def_kinds = Vec::with_capacity(lowered.defs.len());
    for def in &lowered.defs {
        let origin = Origin {
            tool: def.tool.clone(),
            pointer: def.pointer.clone(),
        };
        let key = format!("d:{}", def.key);
        def_kinds.push(match &def.ty {
            Ty::Object(obj) if !obj.props.is_empty() => {
                DefKind::Class(cv.class(obj, &def.base, &key, def.doc.clone(), &origin))
            }
            ty => DefKind::Alias(cv.conv(ty, &def.base, &key, &origin)),
        });
    }
    let mut methods = Vec::with_capacity(lowered.tools.len());
    for tool in &lowered.tools {
        let base = pascal_case(&tool.tool.name);
        let origin = |field: &str| Origin {
            tool: tool.tool.name.clone(),
            pointer: format!("/{field}"),
        };
        let key = format!("t:{}", tool.tool.name);
        let args = cv.conv(
            &tool.input,
            &format!("{base}Args"),
            &format!("{key}:args"),
            &origin("inputSchema"),
        );
        let output = match &tool.output {
            Some(out) => cv.conv(
                out,
                &format!("{base}Output"),
                &format!("{key}:output"),
                &origin("outputSchema"),
            ),
            None => Py::Any,
        };
        let optional = cv.all_optional(&args, &def_kinds);
        methods.push(Method {
            name: &tool.tool.name,
            description: tool.tool.description.as_deref(),
            args,
            output,
            optional,
        });
    }

    // One namespace for classes and aliases.
    let mut requests: Vec<(String, String)> = Vec::new();
    for (id, def) in lowered.defs.iter().enumerate() {
        if let DefKind::Alias(_) = def_kinds[id] {
            requests.push((def.base.clone(), format!("d:{}", def.key)));
        }
    }
    let alias_count = requests.len();
    requests.extend(cv.classes.iter().map(|c| (c.base.clone(), c.key.clone())));
    let assigned = names::assign(&requests, names::py_reserved);
    let mut alias_names = assigned[..alias_count].iter();
    let def_names: Vec<String> = def_kinds
        .iter()
        .map(|kind| match kind {
            DefKind::Alias(_) => alias_names.next().cloned().unwrap_or_default(),
            DefKind::Class(c) => assigned[alias_count + c].clone(),
        })
        .collect();
    let class_names = assigned[alias_count..].to_vec();
    let module_names: HashSet<&str> = assigned.iter().map(String::as_str).collect();

    let mut p = Printer {
        def_names: &def_names,
        class_names: &class_names,
        imports: BTreeSet::new(),
        out: String::new(),
    };
    p.imports.insert("Protocol");
    p.imports.insert("Literal");
    // Classes and aliases in name order.
    let mut items: Vec<(&str, Item)> = Vec::new();
    for (id, kind) in def_kinds.iter().enumerate() {
        match kind {
            DefKind::Alias(py) => {
                items.push((&def_names[id], Item::Alias(py, &lowered.defs[id].doc)))
            }
            DefKind::Class(_) => {}
        }
    }
    for (i, class) in cv.classes.iter().enumerate() {
        items.push((&class_names[i], Item::Class(class)));
    }
    items.sort_by(|a, b| a.0.cmp(b.0));
    for (name, item) in items {
        match item {
            Item::Alias(py, doc) => p.alias(name, py, doc),
            Item::Class(class) => p.class(name, class, &module_names),
        }
    }
    p.tools(&methods);
    let body = std::mem::take(&mut p.out);
    let mut out = header();
    let imports: Vec<&str> = p.imports.into_iter().collect();
    // Annotations may name a type declared further down: postponed, they
    // are forward references for every checker.
    out.push_str("from __future__ import annotations\n");
    let _ = writeln!(out, "from typing import {}\n", imports.join(", "));
    let kinds: Vec<String> = ErrorKind::ALL
        .iter()
        .map(|k| json_string(k.as_str()))
        .collect();
    let _ = write!(
        out,
        "class {ERROR_CLASS}(Exception):\n    \
         \"\"\"Raised by a failed tool call.\"\"\"\n    \
         toolName: str\n    \
         kind: Literal[{}]\n\n",
        kinds.join(", ")
    );
    out.push_str(&body);
    (out, cv.degradations)
}

/// Prints one type expression, nested objects as `dict[str, ...]` and
/// definitions inlined, for [`crate::json_schema_to_type`].
pub(crate) fn expression(ty: &Ty, defs: &[Def]) -> String {
    let mut cv = Convert::new(defs, true);
    let py = cv.conv(ty, "", "", &Origin::default());
    let mut p = Printer {
        def_names: &[],
        class_names: &[],
        imports: BTreeSet::new(),
        out: String::new(),
    };
    p.ty(&py);
    p.out
}

fn header() -> String {
    format!(
        "\"\"\"Typed stubs of the tools a Code Mode program can call.\n\
         \n\
         These declarations are static stubs: nothing here runs. At run time exactly\n\
         two names are bound, `{GLOBAL}` and `{ERROR_CLASS}`; the TypedDict classes below\n\
         do not exist then, so never call one: pass plain dict/list values, e.g.\n\
         `{{\"city\": \"Oslo\"}}`, not `FooArgs(city=\"Oslo\")`.\n\
         \n\
         Every call is awaited: `await {GLOBAL}.name(args)`. A tool whose name is not\n\
         a Python identifier is listed as a comment; call it as\n\
         `await {GLOBAL}[\"its-name\"](args)`. A failed call raises {ERROR_CLASS}\n\
         (`.toolName`, `.kind`).\n\
         \"\"\"\n"
    )
}

/// A Python type expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Py {
    Any,
    Never,
    None,
    Bool,
    Int,
    Float,
    Str,
    /// `Literal[...]` of already-printed atoms.
    Literal(Vec<String>),
    List(Box<Py>),
    /// `tuple[A, B]`; empty is `tuple[()]`.
    Tuple(Vec<Py>),
    /// `tuple[T, ...]`.
    TupleOf(Box<Py>),
    /// `dict[str, V]`.
    Dict(Box<Py>),
    Union(Vec<Py>),
    /// A TypedDict made for a nested object, by index.
    Class(usize),
    /// A definition, by id (a class or an alias).
    Def(usize),
}

enum DefKind {
    Class(usize),
    Alias(Py),
}

enum Item<'a> {
    Alias(&'a Py, &'a Doc),
    Class(&'a Class),
}

struct Class {
    base: String,
    key: String,
    fields: Vec<Field>,
    doc: Doc,
}

struct Field {
    name: String,
    ty: Py,
    required: bool,
    doc: Doc,
}

struct Method<'a> {
    name: &'a str,
    description: Option<&'a str>,
    args: Py,
    output: Py,
    optional: bool,
}

/// Turns IR into [`Py`], creating a class for each object with properties.
struct Convert<'a> {
    defs: &'a [Def],
    /// One-expression mode: no classes, definitions inlined.
    standalone: bool,
    inlining: Vec<usize>,
    /// Properties `allOf` merges may still copy ([`MAX_MERGED_PROPS`]).
    merge_budget: usize,
    classes: Vec<Class>,
    degradations: Vec<Degradation>,
}

impl<'a> Convert<'a> {
    fn new(defs: &'a [Def], standalone: bool) -> Self {
        Convert {
            defs,
            standalone,
            inlining: Vec::new(),
            merge_budget: MAX_MERGED_PROPS,
            classes: Vec::new(),
            degradations: Vec::new(),
        }
    }

    /// Whether a call may leave out this argument: a TypedDict, inline or
    /// named, with no required key.
    fn all_optional(&self, py: &Py, def_kinds: &[DefKind]) -> bool {
        let class = match py {
            Py::Class(i) => Some(&self.classes[*i]),
            Py::Def(id) => match def_kinds.get(*id) {
                Some(DefKind::Class(i)) => Some(&self.classes[*i]),
                _ => None,
            },
            _ => None,
        };
        class.is_some_and(|c| c.fields.iter().all(|f| !f.required))
    }

    fn degrade(&mut self, origin: &Origin, reason: &str) -> Py {
        self.degradations.push(Degradation {
            tool: origin.tool.clone(),
            pointer: origin.pointer.clone(),
            reason: reason.to_owned(),
        });
        Py::Any
    }

    fn class(&mut self, obj: &Object, base: &str, key: &str, doc: Doc, origin: &Origin) -> usize {
        let fields = obj
            .props
            .iter()
            .map(|prop| Field {
                name: prop.name.clone(),
                ty: self.conv(
                    &prop.ty,
                    &format!("{base}{}", pascal_case(&prop.name)),
                    &format!("{key}/{}", prop.name),
                    origin,
                ),
                required: prop.required,
                doc: prop.doc.clone(),
            })
            .collect();
        self.classes.push(Class {
            base: base.to_owned(),
            key: key.to_owned(),
            fields,
            doc,
        });
        self.classes.len() - 1
    }

    fn conv(&mut self, ty: &Ty, base: &str, key: &str, origin: &Origin) -> Py {
        match ty {
            Ty::Unknown => Py::Any,
            Ty::Never => Py::Never,
            Ty::Null => Py::None,
            Ty::Bool => Py::Bool,
            Ty::Int => Py::Int,
            Ty::Num => Py::Float,
            Ty::Str => Py::Str,
            Ty::Lit(Lit::Str(s)) => Py::Literal(vec![json_string(s)]),
            Ty::Lit(Lit::Bool(b)) => {
                Py::Literal(vec![if *b { "True" } else { "False" }.to_owned()])
            }
            Ty::Lit(Lit::Num(n)) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Py::Literal(vec![i.to_string()]),
                (None, Some(u)) => Py::Literal(vec![u.to_string()]),
                _ => Py::Float,
            },
            Ty::Array(item) => Py::List(Box::new(self.conv(
                item,
                &format!("{base}Item"),
                &format!("{key}[]"),
                origin,
            ))),
            Ty::Tuple(tuple) => self.tuple(tuple, base, key, origin),
            Ty::Object(obj) => self.object(obj, base, key, origin),
            Ty::Union(members) => {
                let mut out = Vec::with_capacity(members.len());
                for (i, member) in members.iter().enumerate() {
                    let member_base = match tag_of(member, self.defs) {
                        Some(tag) => format!("{base}{}", pascal_case(tag)),
                        None => base.to_owned(),
                    };
                    out.push(self.conv(member, &member_base, &format!("{key}|{i}"), origin));
                }
                py_union(out)
            }
            Ty::Inter(members, inter_origin) => self.intersection(members, base, key, inter_origin),
            Ty::Named(id) => {
                if !self.standalone {
                    return Py::Def(*id);
                }
                if self.inlining.contains(id) || self.inlining.len() >= 4 {
                    return Py::Any;
                }
                self.inlining.push(*id);
                let defs = self.defs;
                let py = self.conv(&defs[*id].ty, base, key, origin);
                self.inlining.pop();
                py
            }
        }
    }

    fn object(&mut self, obj: &Object, base: &str, key: &str, origin: &Origin) -> Py {
        if obj.props.is_empty() || self.standalone {
            return Py::Dict(Box::new(match &obj.extra {
                Extra::Unspecified => Py::Any,
                Extra::Closed if obj.props.is_empty() => Py::Never,
                Extra::Closed => Py::Any,
                Extra::Values(ty) if obj.props.is_empty() => {
                    self.conv(ty, &format!("{base}Value"), &format!("{key}{{}}"), origin)
                }
                Extra::Values(_) => Py::Any,
            }));
        }
        Py::Class(self.class(obj, base, key, Doc::default(), origin))
    }

    fn tuple(&mut self, tuple: &Tuple, base: &str, key: &str, origin: &Origin) -> Py {
        let mut items = Vec::with_capacity(tuple.items.len());
        for (i, item) in tuple.items.iter().enumerate() {
            items.push(self.conv(
                item,
                &format!("{base}Item{i}"),
                &format!("{key}[{i}]"),
                origin,
            ));
        }
        let rest = tuple
            .rest
            .as_ref()
            .map(|rest| self.conv(rest, &format!("{base}Item"), &format!("{key}[]"), origin));
        match rest {
            None if items.len() - tuple.required <= MAX_TUPLE_LENGTHS => {
                let lengths = (tuple.required..=items.len())
                    .map(|n| Py::Tuple(items[..n].to_vec()))
                    .collect();
                py_union(lengths)
            }
            rest => {
                let mut all = items;
                all.extend(rest);
                Py::TupleOf(Box::new(py_union(all)))
            }
        }
    }

    /// `allOf`: one merged TypedDict per combination of object alternatives.
    fn intersection(&mut self, members: &[Ty], base: &str, key: &str, origin: &Origin) -> Py {
        let mut combos: Vec<Vec<&Object>> = vec![Vec::new()];
        for member in members {
            let Some(alts) = object_alternatives(member, self.defs, 0) else {
                return self.degrade(origin, "allOf over non-object schemas has no Python type");
            };
            let mut next = Vec::with_capacity(combos.len() * alts.len());
            for combo in &combos {
                for alt in &alts {
                    let mut c = combo.clone();
                    c.push(*alt);
                    next.push(c);
                }
            }
            if next.len() > MAX_MERGED_ALTERNATIVES {
                return self.degrade(origin, "allOf expands into too many alternatives");
            }
            combos = next;
        }
        let copied: usize = combos.iter().flatten().map(|o| o.props.len()).sum();
        if copied > self.merge_budget {
            return self.degrade(
                origin,
                "allOf merges more properties than the Python stub has room for",
            );
        }
        self.merge_budget -= copied;
        let mut out = Vec::with_capacity(combos.len());
        for (i, combo) in combos.iter().enumerate() {
            let merged = merge_objects(combo);
            let key = if combos.len() == 1 {
                key.to_owned()
            } else {
                format!("{key}&{i}")
            };
            let ty = Ty::Object(merged);
            out.push(self.conv(&ty, base, &key, origin));
        }
        py_union(out)
    }
}

/// The objects a type stands for, if it is objects all the way down
/// (an object, a definition of one, or a union of such).
fn object_alternatives<'t>(ty: &'t Ty, defs: &'t [Def], hops: usize) -> Option<Vec<&'t Object>> {
    match ty {
        Ty::Object(obj) => Some(vec![obj]),
        Ty::Named(id) if hops < 8 => object_alternatives(&defs[*id].ty, defs, hops + 1),
        Ty::Union(members) => {
            let mut out = Vec::new();
            for m in members {
                out.extend(object_alternatives(m, defs, hops + 1)?);
            }
            Some(out)
        }
        Ty::Inter(members, _) => {
            let mut props: Vec<&Object> = Vec::new();
            for m in members {
                match object_alternatives(m, defs, hops + 1)?.as_slice() {
                    [one] => props.push(one),
                    _ => return None,
                }
            }
            // A nested intersection of single objects is itself one object,
            // but it has no storage here; merge at the caller instead.
            if props.len() == 1 { Some(props) } else { None }
        }
        _ => None,
    }
}

/// One object with every property of every part; a key that several parts
/// give different types becomes the escape hatch.
fn merge_objects(parts: &[&Object]) -> Object {
    let mut props: Vec<Prop> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for part in parts {
        for prop in &part.props {
            match at.get(prop.name.as_str()).and_then(|&i| props.get_mut(i)) {
                Some(existing) => {
                    if existing.ty != prop.ty {
                        existing.ty = Ty::Unknown;
                    }
                    existing.required |= prop.required;
                    if existing.doc.is_empty() {
                        existing.doc = prop.doc.clone();
                    }
                }
                None => {
                    at.insert(&prop.name, props.len());
                    props.push(prop.clone());
                }
            }
        }
    }
    props.sort_by(|a, b| a.name.cmp(&b.name));
    Object {
        props,
        extra: Extra::Unspecified,
    }
}

/// The string a union member is tagged with: its first required property
/// whose type is one string literal (`{"kind": "user", ...}` gives `user`),
/// or the key of an object with one required property (serde's external
/// tagging: `{"Other": ...}` gives `Other`).
fn tag_of<'t>(ty: &'t Ty, defs: &'t [Def]) -> Option<&'t str> {
    let obj = match ty {
        Ty::Object(obj) => obj,
        Ty::Named(id) => match &defs[*id].ty {
            Ty::Object(obj) => obj,
            _ => return None,
        },
        _ => return None,
    };
    let literal = obj.props.iter().find_map(|p| match &p.ty {
        Ty::Lit(Lit::Str(s)) if p.required => Some(s.as_str()),
        _ => None,
    });
    match obj.props.as_slice() {
        [only] if literal.is_none() && only.required => Some(only.name.as_str()),
        _ => literal,
    }
}

/// A flat union with its literals gathered into one `Literal[...]`.
/// Duplicates are dropped through hash sets, so a long union stays linear.
fn py_union(members: Vec<Py>) -> Py {
    let mut out: Vec<Py> = Vec::with_capacity(members.len());
    let mut seen: HashSet<Py> = HashSet::new();
    let mut literals: Vec<String> = Vec::new();
    let mut seen_literals: HashSet<String> = HashSet::new();
    let mut literal_at: Option<usize> = None;
    let mut stack: Vec<Py> = members.into_iter().rev().collect();
    while let Some(member) = stack.pop() {
        match member {
            Py::Union(inner) => stack.extend(inner.into_iter().rev()),
            Py::Never => {}
            Py::Any => return Py::Any,
            Py::Literal(atoms) => {
                if literal_at.is_none() {
                    literal_at = Some(out.len());
                    // A placeholder, filled in with every literal at the end.
                    out.push(Py::Literal(Vec::new()));
                }
                for atom in atoms {
                    if seen_literals.insert(atom.clone()) {
                        literals.push(atom);
                    }
                }
            }
            other => {
                if seen.insert(other.clone()) {
                    out.push(other);
                }
            }
        }
    }
    if let Some(i) = literal_at {
        out[i] = Py::Literal(literals);
    }
    match out.len() {
        0 => Py::Never,
        1 => out.pop().unwrap_or(Py::Never),
        _ => Py::Union(out),
    }
}

/// Whether `name` can be written bare in Python source as an identifier:
/// XID characters and stable under NFKC (the form Python compares names in).
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let start = chars
        .next()
        .is_some_and(|c| c == '_' || unicode_ident::is_xid_start(c));
    start && chars.all(unicode_ident::is_xid_continue) && name.nfkc().eq(name.chars())
}

/// Python's hard keywords; none of them can name a method or a field.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Every name a printed annotation can use besides the module's own classes
/// and aliases. A TypedDict field with one of these names, written in class
/// syntax, would shadow it for the fields after it.
const ANNOTATION_NAMES: &[&str] = &[
    "Any",
    "Awaitable",
    "Callable",
    "Literal",
    "Never",
    "None",
    "NotRequired",
    "Protocol",
    "Required",
    "TypeAlias",
    "TypedDict",
    "bool",
    "dict",
    "float",
    "int",
    "list",
    "overload",
    "str",
    "tuple",
];

/// Whether `name` can be written as a bare name in a class body: an
/// identifier, not a keyword, and not mangled or special (`__x`).
fn is_plain_member(name: &str) -> bool {
    is_identifier(name) && !KEYWORDS.contains(&name) && !name.starts_with("__")
}

struct Printer<'a> {
    def_names: &'a [String],
    class_names: &'a [String],
    imports: BTreeSet<&'static str>,
    out: String,
}

impl Printer<'_> {
    fn ty(&mut self, py: &Py) {
        match py {
            Py::Any => self.import("Any"),
            Py::Never => self.import("Never"),
            Py::None => self.out.push_str("None"),
            Py::Bool => self.out.push_str("bool"),
            Py::Int => self.out.push_str("int"),
            Py::Float => self.out.push_str("float"),
            Py::Str => self.out.push_str("str"),
            Py::Literal(atoms) => {
                self.import("Literal");
                self.out.push('[');
                self.out.push_str(&atoms.join(", "));
                self.out.push(']');
            }
            Py::List(item) => self.wrap("list[", item),
            Py::Dict(value) => self.wrap("dict[str, ", value),
            Py::TupleOf(item) => {
                self.out.push_str("tuple[");
                self.ty(item);
                self.out.push_str(", ...]");
            }
            Py::Tuple(items) if items.is_empty() => self.out.push_str("tuple[()]"),
            Py::Tuple(items) => {
                self.out.push_str("tuple[");
                self.join(items, ", ");
                self.out.push(']');
            }
            Py::Union(members) => self.join(members, " | "),
            Py::Class(i) => self.out.push_str(&self.class_names[*i]),
            Py::Def(id) => self.out.push_str(&self.def_names[*id]),
        }
    }

    fn import(&mut self, name: &'static str) {
        self.imports.insert(name);
        self.out.push_str(name);
    }

    fn wrap(&mut self, open: &str, inner: &Py) {
        self.out.push_str(open);
        self.ty(inner);
        self.out.push(']');
    }

    fn join(&mut self, items: &[Py], sep: &str) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(sep);
            }
            self.ty(item);
        }
    }

    /// `py` printed on its own, for quoting.
    fn text(&mut self, py: &Py) -> String {
        let saved = std::mem::take(&mut self.out);
        self.ty(py);
        std::mem::replace(&mut self.out, saved)
    }

    /// A field's annotation. In a `total=False` class the required fields are
    /// marked; otherwise the optional ones are.
    fn field_type(&mut self, field: &Field, total: bool) -> String {
        let inner = self.text(&field.ty);
        match (field.required, total) {
            (true, true) | (false, false) => inner,
            (false, true) => {
                self.imports.insert("NotRequired");
                format!("NotRequired[{inner}]")
            }
            (true, false) => {
                self.imports.insert("Required");
                format!("Required[{inner}]")
            }
        }
    }

    /// A field's annotation and its trailing comment. A one-line doc trails
    /// the field; a longer one is written above it here.
    fn field(&mut self, field: &Field, total: bool) -> (String, String) {
        let trailing = match doc_lines(&field.doc).as_slice() {
            [one] => format!("  # {one}"),
            _ => {
                self.comments("    ", &field.doc);
                String::new()
            }
        };
        (self.field_type(field, total), trailing)
    }

    fn comments(&mut self, indent: &str, doc: &Doc) {
        for line in doc_lines(doc) {
            let _ = writeln!(self.out, "{indent}# {line}");
        }
    }

    fn alias(&mut self, name: &str, py: &Py, doc: &Doc) {
        self.imports.insert("TypeAlias");
        self.comments("", doc);
        let text = self.text(py);
        // Quoted, so it may name types defined further down.
        let _ = writeln!(self.out, "{name}: TypeAlias = {}\n", quote(&text));
    }

    fn class(&mut self, name: &str, class: &Class, module_names: &HashSet<&str>) {
        self.imports.insert("TypedDict");
        // Class syntax reads best, but a key that is not a plain name, or one
        // that would shadow a type named in the body, needs the functional form.
        let class_syntax = class.fields.iter().all(|f| {
            is_plain_member(&f.name)
                && !ANNOTATION_NAMES.contains(&f.name.as_str())
                && !module_names.contains(f.name.as_str())
        });
        // Mark whichever of required or optional fields is rarer.
        let optional = class.fields.iter().filter(|f| !f.required).count();
        let total = optional * 2 <= class.fields.len();
        if class_syntax {
            let total_arg = if total { "" } else { ", total=False" };
            let _ = writeln!(self.out, "class {name}(TypedDict{total_arg}):");
            if let Some(doc) = docstring(&class.doc, "    ") {
                self.out.push_str(&doc);
            }
            for field in &class.fields {
                let (ty, trailing) = self.field(field, total);
                let _ = writeln!(self.out, "    {}: {ty}{trailing}", field.name);
            }
        } else {
            self.comments("", &class.doc);
            let _ = writeln!(self.out, "{name} = TypedDict({}, {{", json_string(name));
            for field in &class.fields {
                let (ty, trailing) = self.field(field, total);
                let _ = writeln!(
                    self.out,
                    "    {}: {},{trailing}",
                    json_string(&field.name),
                    quote(&ty)
                );
            }
            self.out
                .push_str(if total { "})\n" } else { "}, total=False)\n" });
        }
        self.out.push('\n');
    }

    fn tools(&mut self, methods: &[Method<'_>]) {
        let _ = writeln!(self.out, "class Tools(Protocol):");
        let mut statements = 0;
        let mut subscripted = Vec::new();
        for m in methods {
            let args = self.text(&m.args);
            let output = self.text(&m.output);
            let description = Doc {
                text: m.description.map(str::to_owned),
                notes: Vec::new(),
            };
            if is_plain_member(m.name) {
                let default = if m.optional { " = ..." } else { "" };
                let _ = writeln!(
                    self.out,
                    "    async def {}(self, args: {args}{default}) -> {output}:",
                    m.name
                );
                // A body of `...` (after the docstring, if any) marks a
                // stub that returns what it declares, for every checker.
                if let Some(doc) = docstring(&description, "        ") {
                    self.out.push_str(&doc);
                }
                self.out.push_str("        ...\n");
                statements += 1;
            } else {
                let _ = writeln!(
                    self.out,
                    "    # {GLOBAL}[{}](args: {args}) -> {output}",
                    json_string(m.name)
                );
                for line in doc_lines(&description) {
                    let _ = writeln!(self.out, "    #   {line}");
                }
                subscripted.push((m.name, args, output));
            }
        }
        // Subscript access, typed per name, for the tools above that are
        // comments (and so reachable only as tools["name"]).
        if !subscripted.is_empty() {
            self.imports.insert("Awaitable");
            self.imports.insert("Callable");
            let overload = subscripted.len() > 1;
            if overload {
                self.imports.insert("overload");
            }
            for (name, args, output) in &subscripted {
                if overload {
                    self.out.push_str("    @overload\n");
                }
                let _ = writeln!(
                    self.out,
                    "    def __getitem__(self, name: Literal[{}]) -> Callable[[{args}], Awaitable[{output}]]: ...",
                    json_string(name)
                );
                statements += 1;
            }
        }
        if statements == 0 {
            self.out.push_str("    pass\n");
        }
        let _ = writeln!(self.out, "\n{GLOBAL}: Tools");
    }
}

/// `doc` as a docstring at `indent`, escaped so nothing in it can end the
/// string early: every backslash and double quote is escaped.
fn docstring(doc: &Doc, indent: &str) -> Option<String> {
    let lines: Vec<String> = doc_lines(doc).iter().map(|l| escape_docstring(l)).collect();
    match lines.as_slice() {
        [] => None,
        [one] => Some(format!("{indent}\"\"\"{one}\"\"\"\n")),
        many => {
            let mut out = format!("{indent}\"\"\"{}\n", many[0]);
            for line in &many[1..] {
                if line.is_empty() {
                    out.push('\n');
                } else {
                    let _ = writeln!(out, "{indent}{line}");
                }
            }
            let _ = writeln!(out, "{indent}\"\"\"");
            Some(out)
        }
    }
}

fn escape_docstring(line: &str) -> String {
    line.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `text` as a single-quoted Python string literal.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
