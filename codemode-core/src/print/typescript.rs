//! The TypeScript declaration, which JavaScript programs read as documentation.

use super::comment::{clean_lines, defuse_typescript, doc_lines};
use super::inline::Inlining;
use crate::canonical::json_string;

/// The members of TypeScript's `Object` interface, which every object type
/// has: an optional property named like one needs [`Printer::inherited`].
/// The key that an object literal cannot write plainly: `{ __proto__: x }`
/// sets the object's prototype (or nothing, for a value that is no object)
/// and sends no key, yet TypeScript types it as the key. The SDK says how
/// to write it ([`PROTO_NOTE`]).
const PROTO: &str = "__proto__";

/// Heaviest property type (in `weight_within` units) an index signature
/// spells again beside the values' type.
const INDEX_COPY_MAX: usize = 8;

/// What a `__proto__` property's doc adds.
const PROTO_NOTE: &str =
    r#"Write this key as ["__proto__"]: a plain __proto__ sets the prototype and sends no key."#;

const OBJECT_MEMBERS: [&str; 7] = [
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// The one tool name that cannot be a member of `tools` in JavaScript.
const THEN: &str = "then";
/// Tool names printed quoted although they are plain identifiers: words
/// that can begin a type member other than a method of that name.
const METHOD_WORDS: [&str; 4] = ["get", "new", "readonly", "set"];
use crate::error::ErrorKind;
use crate::ident;
use crate::schema::{
    Def, Degradation, Doc, Extra, Lent, Lit, Lowered, LoweredTool, Object, Prop, Ty, each_child,
    lending_defs, lent_through_names, reached_defs, reaches_lender, weight_within,
};
use crate::{ERROR_CLASS, GLOBAL};
use std::borrow::Cow;
use std::fmt::Write;

/// Why an intersection was printed without the keys a named member lends
/// or lists (see [`lent_through_names`]).
const LENT_TOO_LARGE: &str = "the literal values one member of this allOf may give every key \
     were not repeated for the keys another member lists (too many members, keys or literals to \
     read or write at one place), so TypeScript may refuse such a literal in those keys, which \
     the schema admits";

/// Why an intersection was printed without the keys a lender in one of
/// its unions would lend (see [`lent_through_names`]).
const LENT_IN_UNION: &str = "one choice of an anyOf or oneOf in this allOf gives every key \
     literal values, which were not repeated for the keys the other members list (that would \
     narrow the other choices), so TypeScript may refuse such a literal in those keys, which \
     the schema admits";

/// Prints the whole SDK for a lowered tool set; without `error_class`,
/// less the error class (which an index declared already). Gives too what
/// the printing left out, beside what the lowering recorded.
pub(crate) fn render(lowered: &Lowered, error_class: bool) -> (String, Vec<Degradation>) {
    // The tools are printed in two halves at once when the list is long.
    render_split(
        lowered,
        error_class,
        crate::parallel::split_point(lowered.tools.len()),
    )
}

/// [`render`], with the tools before `at` printed on this thread.
///
/// A definition that no declaration names (as the links of an alias chain
/// that the tools now skip) is not printed, unless it carries words of the
/// schema's: a description is never lost. Which those are shows once all is
/// printed; the rare SDK that has any is printed again without them, so
/// that the names they took are free for the definitions printed.
fn render_split(lowered: &Lowered, error_class: bool, at: usize) -> (String, Vec<Degradation>) {
    let results = reached_by_results(lowered);
    let names = def_names(lowered, None);
    let (text, used, records) = print_split(lowered, &names, &results, at, error_class, None);
    if used.iter().all(|&used| used) {
        return (text, records);
    }
    let names = def_names(lowered, Some(&used));
    let (text, _, records) = print_split(lowered, &names, &results, at, error_class, Some(&used));
    (text, records)
}

/// Each definition's name: of those `keep` marks (all without it), the
/// others left unnamed.
fn def_names(lowered: &Lowered, keep: Option<&[bool]>) -> Vec<String> {
    let kept: Vec<usize> = (0..lowered.defs.len())
        .filter(|&id| keep.is_none_or(|keep| keep[id]))
        .collect();
    let requests: Vec<(String, String)> = (kept.iter())
        .map(|&id| (lowered.defs[id].base.clone(), lowered.defs[id].key.clone()))
        .collect();
    let mut names = vec![String::new(); lowered.defs.len()];
    for (id, name) in kept
        .into_iter()
        .zip(ident::assign(&requests, ident::typescript::reserved))
    {
        names[id] = name;
    }
    names
}

/// Which named types a tool's result reaches, directly or through other
/// named types. The rest are read only by the tools, so their arrays are
/// `readonly`: a program may pass a read-only array (an `as const` list,
/// say) where a tool only reads one, while an array a result holds stays
/// one the program may change.
fn reached_by_results(lowered: &Lowered) -> Vec<bool> {
    let outputs = lowered.tools.iter().filter_map(|t| t.output.as_ref());
    reached_defs(outputs, &lowered.defs)
}

/// The SDK with the tools before `at` printed on this thread and the rest
/// on a second one, with the definitions `keep` marks (all without it).
/// `results` marks the named types a result reaches.
///
/// Gives too which definitions a declaration uses: those the tools name,
/// those that carry words of the schema's (a doc, or a property's), and
/// those these name, as each printer noted the names it wrote; and what
/// the printers left out.
fn print_split(
    lowered: &Lowered,
    names: &[String],
    results: &[bool],
    at: usize,
    error_class: bool,
    keep: Option<&[bool]>,
) -> (String, Vec<bool>, Vec<Degradation>) {
    let head = |first| {
        let mut p = Printer::new(&lowered.defs, names, false);
        if error_class {
            p.header();
        }
        // Definitions in name order, so the text does not depend on which
        // tool reached a definition first.
        let mut order: Vec<usize> = (0..lowered.defs.len())
            .filter(|&id| keep.is_none_or(|keep| keep[id]))
            .collect();
        order.sort_by(|&a, &b| names[a].cmp(&names[b]));
        // The names each definition's body writes, and whether it wrote
        // words.
        let mut bodies = vec![0..0; lowered.defs.len()];
        let mut worded = Vec::new();
        // Read only where a definition is a union that would close keys.
        let mut viewed = None;
        p.noting = true;
        for id in order {
            let (named, words) = (p.named.len(), p.words);
            let def = &lowered.defs[id];
            p.doc(&def.doc);
            let _ = write!(p.out, "type {} = ", names[id]);
            p.read_only = !results[id];
            p.viewed = matches!(&def.ty, Ty::Union(members) if absent_keys(members).is_some())
                && viewed.get_or_insert_with(|| viewed_in_intersections(lowered))[id];
            p.ty(&def.ty, Ctx::Top);
            p.out.push_str(";\n\n");
            bodies[id] = named..p.named.len();
            if p.words > words {
                worded.push(id);
            }
        }
        p.noting = false;
        let _ = writeln!(p.out, "declare const {GLOBAL}: {{");
        p.tools(first);
        (p, bodies, worded)
    };
    let ((p, bodies, worded), rest) = crate::parallel::halves(&lowered.tools, at, head, |second| {
        let mut p = Printer::new(&lowered.defs, names, false);
        p.tools(second);
        (p.out, p.named_by_tools, p.records)
    });
    let (rest, rest_named, rest_records) = rest.unwrap_or_default();
    // Whatever a used definition names is used too.
    let mut used = vec![false; lowered.defs.len()];
    let by_tools = (0..used.len())
        .filter(|&id| p.named_by_tools[id] || rest_named.get(id).copied().unwrap_or(false));
    let mut todo: Vec<usize> = by_tools.chain(worded).collect();
    while let Some(id) = todo.pop() {
        if !std::mem::replace(&mut used[id], true) {
            todo.extend(&p.named[bodies[id].clone()]);
        }
    }
    let mut out = p.out;
    out.push_str(&rest);
    out.push_str("};\n");
    let mut records = p.records;
    records.extend(rest_records);
    (out, used, records)
}

/// Which definitions an intersection reads as a view of its value: those
/// named among an intersection's members, and, through further names,
/// among the choices of a union or the parts of an intersection that is
/// one. Each type is visited once, and each definition entered once.
fn viewed_in_intersections(lowered: &Lowered) -> Vec<bool> {
    let defs = &lowered.defs;
    let tools = (lowered.tools.iter()).flat_map(|t| std::iter::once(&t.input).chain(&t.output));
    let mut todo: Vec<&Ty> = tools.chain(defs.iter().map(|d| &d.ty)).collect();
    let mut views: Vec<&Ty> = Vec::new();
    while let Some(ty) = todo.pop() {
        if let Ty::Inter(members, _) = ty {
            views.extend(members);
        }
        each_child(ty, &mut |child, _| todo.push(child));
    }
    let mut viewed = vec![false; defs.len()];
    while let Some(ty) = views.pop() {
        match ty {
            Ty::Named(id) => {
                if let Some(seen) = viewed.get_mut(*id)
                    && !std::mem::replace(seen, true)
                {
                    views.push(&defs[*id].ty);
                }
            }
            Ty::Union(parts) | Ty::Inter(parts, _) => views.extend(parts),
            _ => {}
        }
    }
    viewed
}

/// Prints one type expression with definitions inlined (recursion and deep
/// chains become `unknown`), for [`crate::json_schema_to_type`].
pub(crate) fn expression(ty: &Ty, defs: &[Def]) -> String {
    let mut p = Printer::new(defs, &[], true);
    p.ty(ty, Ctx::Top);
    p.out
}

/// Where a type expression stands, which decides whether it needs parentheses.
#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    Top,
    /// A member of an intersection: a union needs parentheses.
    InterMember,
    /// Before `[]` or `?`: any union or intersection needs parentheses.
    Postfix,
}

struct Printer<'a> {
    defs: &'a [Def],
    names: &'a [String],
    out: String,
    indent: usize,
    /// `Some` when definitions are spelled out in place.
    inlining: Option<Inlining>,
    /// Whether arrays and tuples print as `readonly`: in what only a tool
    /// reads (its arguments, and named types no result reaches).
    read_only: bool,
    /// Whether names written now are noted in [`named`](Self::named)
    /// (in definitions' bodies), or marked in
    /// [`named_by_tools`](Self::named_by_tools).
    noting: bool,
    /// Each definition a body wrote by its name, in the order written.
    named: Vec<usize>,
    /// Which definitions the tools wrote by their names.
    named_by_tools: Vec<bool>,
    /// How many lines of the schema's words (docs) were written.
    words: usize,
    /// What the printing itself left out (see [`LENT_TOO_LARGE`]).
    records: Vec<Degradation>,
    /// Which definitions reach a lender ([`lending_defs`]), read when an
    /// intersection is first cut short ([`Lent::Cut`]).
    lending: Option<Vec<bool>>,
    /// Whether the next union written, reached through names and nothing
    /// else, is a view of an intersection's value: a definition that an
    /// intersection reads ([`viewed_in_intersections`]), or, where names
    /// are spelled out in place, a name among an intersection's members or
    /// among the choices of a union that is one. Then, as a union written
    /// in an intersection, it closes no keys.
    viewed: bool,
}

impl<'a> Printer<'a> {
    fn new(defs: &'a [Def], names: &'a [String], inline: bool) -> Self {
        Printer {
            defs,
            names,
            out: String::new(),
            indent: 0,
            inlining: inline.then(|| Inlining::new(defs)),
            records: Vec::new(),
            lending: None,
            viewed: false,
            read_only: false,
            noting: false,
            named: Vec::new(),
            named_by_tools: vec![false; if inline { 0 } else { defs.len() }],
            words: 0,
        }
    }

    /// The error class, on one line. How to call tools, and what a failure
    /// carries, the `run_code` instructions say once; the SDK only declares.
    fn header(&mut self) {
        let kinds: Vec<String> = ErrorKind::ALL
            .iter()
            .map(|k| json_string(k.as_str()))
            .collect();
        let _ = write!(
            self.out,
            "declare class {ERROR_CLASS} extends Error {{ readonly toolName: string; readonly kind: {} }}\n\n",
            kinds.join(" | ")
        );
    }

    fn pad(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    /// Writes `doc` as a JSDoc comment on its own lines, at the current indent.
    fn doc(&mut self, doc: &Doc) {
        let lines = doc_lines(doc);
        self.words += lines.len();
        self.doc_block(lines);
    }

    /// Writes already-split doc lines as a JSDoc comment.
    fn doc_block(&mut self, lines: Vec<Cow<'_, str>>) {
        match lines.as_slice() {
            [] => {}
            // One line is a line comment: two tokens fewer than `/** */`.
            [one] => {
                self.pad();
                self.out.push_str("// ");
                self.comment_text(one);
                self.out.push('\n');
            }
            many => {
                self.pad();
                self.out.push_str("/**\n");
                // The lines start at the margin, with no ` * ` before
                // them: JSDoc does not need it, and it costs tokens per line.
                for line in many {
                    self.comment_text(line);
                    self.out.push('\n');
                }
                self.pad();
                self.out.push_str(" */\n");
            }
        }
    }

    /// A line inside a JSDoc block, with any `*/` that would end it early
    /// written as `*\/`, and no `@ts-` directive left whole.
    fn comment_text(&mut self, line: &str) {
        let line = defuse_typescript(line);
        if memchr::memmem::find(line.as_bytes(), b"*/").is_none() {
            self.out.push_str(&line);
            return;
        }
        let mut parts = line.split("*/");
        if let Some(first) = parts.next() {
            self.out.push_str(first);
        }
        for part in parts {
            self.out.push_str("*\\/");
            self.out.push_str(part);
        }
    }

    /// The members of `tools` for these tools, one level in.
    fn tools(&mut self, tools: &[LoweredTool]) {
        self.indent += 1;
        for tool in tools {
            self.doc_block(
                tool.description
                    .as_deref()
                    .map(clean_lines)
                    .unwrap_or_default(),
            );
            self.pad();
            // A member named `then` would make `tools` a thenable, so the
            // runtime never binds one: that tool is reached by calling
            // `tools` itself.
            let optional = self.all_optional(&tool.input);
            if tool.name == THEN {
                self.out.push_str("(name: \"then\", ");
            } else {
                // Bare where that still names the member: `new(` would
                // start a construct signature, and `get`, `set` and
                // `readonly` are quoted too, as they can start other members.
                if METHOD_WORDS.contains(&tool.name.as_str()) {
                    self.out.push_str(&json_string(&tool.name));
                } else {
                    self.key(&tool.name);
                }
                self.out.push('(');
            }
            self.out
                .push_str(if optional { "args?: " } else { "args: " });
            self.read_only = true;
            self.ty(&tool.input, Ctx::Top);
            self.read_only = false;
            self.out.push_str("): Promise<");
            self.ty(tool.output.as_ref().unwrap_or(&Ty::Unknown), Ctx::Top);
            self.out.push_str(">;\n");
        }
        self.indent -= 1;
    }

    /// Whether a call may leave out the argument: an object with no required key.
    fn all_optional(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Object(obj) => obj.props.iter().all(|p| !p.required),
            Ty::Named(id) if self.inlining.is_none() => {
                matches!(&self.defs[*id].ty, Ty::Object(obj) if obj.props.iter().all(|p| !p.required))
            }
            _ => false,
        }
    }

    fn ty(&mut self, ty: &Ty, ctx: Ctx) {
        // A view reaches the union it was set for, through names, and no
        // further.
        if self.viewed && !matches!(ty, Ty::Union(_) | Ty::Named(_)) {
            self.viewed = false;
        }
        match ty {
            Ty::Unknown => self.out.push_str("unknown"),
            Ty::Never => self.out.push_str("never"),
            Ty::Null => self.out.push_str("null"),
            Ty::Bool => self.out.push_str("boolean"),
            Ty::Int | Ty::Num => self.out.push_str("number"),
            Ty::Str => self.out.push_str("string"),
            Ty::Lit(Lit::Str(s)) => self.out.push_str(&json_string(s)),
            Ty::Lit(Lit::Bool(b)) => self.out.push_str(if *b { "true" } else { "false" }),
            Ty::Lit(Lit::Num(n)) => {
                let text = n.to_string();
                if ctx == Ctx::Postfix && text.starts_with('-') {
                    let _ = write!(self.out, "({text})");
                } else {
                    self.out.push_str(&text);
                }
            }
            Ty::Array(item) => self.read_only_prefix(ctx, |p| {
                p.ty(item, Ctx::Postfix);
                p.out.push_str("[]");
            }),
            // A union of lengths, not `[A, B?]`: an optional element's type
            // takes `undefined`, which no JSON array holds, so `[A, B?]`
            // would not pass for `(A | B)[]`.
            Ty::Tuple(tuple) => match tuple.lengths(false) {
                Some(lengths) => {
                    let parens = ctx != Ctx::Top;
                    if parens {
                        self.out.push('(');
                    }
                    for len in lengths {
                        if len > tuple.required {
                            self.out.push_str(" | ");
                        }
                        let items = &tuple.items[..len];
                        self.read_only_prefix(Ctx::Top, |p| p.tuple(items, len, None));
                    }
                    if parens {
                        self.out.push(')');
                    }
                }
                None => self.read_only_prefix(ctx, |p| {
                    p.tuple(&tuple.items, tuple.required, tuple.rest.as_deref())
                }),
            },
            Ty::Object(obj) => self.object(obj, &[], ctx),
            // `integer` and `number` are both `number` here: written once.
            Ty::Union(members) if members.contains(&Ty::Int) && members.contains(&Ty::Num) => {
                // In the place of the first of them.
                let mut written = false;
                let numbers: Vec<Ty> = (members.iter())
                    .filter_map(|m| match m {
                        Ty::Int | Ty::Num => {
                            (!std::mem::replace(&mut written, true)).then_some(Ty::Num)
                        }
                        other => Some(other.clone()),
                    })
                    .collect();
                match numbers.as_slice() {
                    [one] => self.ty(one, ctx),
                    _ => self.ty(&Ty::Union(numbers), ctx),
                }
            }
            // In an intersection, a union's objects are views of one value
            // (the keys `anyOf` requires, say), not whole values.
            Ty::Union(members) if ctx == Ctx::InterMember => {
                self.viewed = false;
                // A union its choices name, spelled out here, is a view too.
                let inline = self.inlining.is_some();
                self.list_with(members, " | ", true, |p, _, member| {
                    p.viewed = inline && matches!(member, Ty::Named(_));
                    p.ty(member, Ctx::Top);
                });
            }
            Ty::Union(members) => self.union(members, ctx != Ctx::Top),
            Ty::Inter(members, origin) => {
                let parens = ctx == Ctx::Postfix;
                let (lent, unlent) = match lent_through_names(members, self.defs) {
                    Lent::Objects(objects) => (objects, None),
                    Lent::Nothing => (Vec::new(), None),
                    Lent::TooLarge => (Vec::new(), Some(LENT_TOO_LARGE)),
                    Lent::Partly(objects) => (objects, Some(LENT_TOO_LARGE)),
                    Lent::Cut => {
                        let defs = self.defs;
                        let lending = self.lending.get_or_insert_with(|| lending_defs(defs));
                        let lends = reaches_lender(members, lending);
                        (Vec::new(), lends.then_some(LENT_TOO_LARGE))
                    }
                    Lent::InUnion(objects) => (objects, Some(LENT_IN_UNION)),
                };
                if let Some(reason) = unlent {
                    self.records.push(Degradation {
                        tool: origin.tool.clone(),
                        pointer: origin.pointer.clone(),
                        reason: reason.to_owned(),
                    });
                }
                if lent.is_empty() {
                    return self.list(members, " & ", parens, Ctx::InterMember);
                }
                // Keys a named member lists, or a named lender's literals
                // (see `lent_through_names`), in an object of their own.
                if parens {
                    self.out.push('(');
                }
                self.list(members, " & ", false, Ctx::InterMember);
                for object in &lent {
                    self.out.push_str(" & ");
                    self.object(object, &[], Ctx::InterMember);
                }
                if parens {
                    self.out.push(')');
                }
            }
            Ty::Named(id) => self.named(*id, ctx),
        }
    }

    /// An array or tuple type printed by `each`, after `readonly` where
    /// only a tool reads it (in parentheses before `[]` or `?`).
    fn read_only_prefix(&mut self, ctx: Ctx, each: impl FnOnce(&mut Self)) {
        if !self.read_only {
            return each(self);
        }
        let parens = ctx == Ctx::Postfix;
        self.out
            .push_str(if parens { "(readonly " } else { "readonly " });
        each(self);
        if parens {
            self.out.push(')');
        }
    }

    fn list(&mut self, members: &[Ty], sep: &str, parens: bool, inner: Ctx) {
        self.list_with(members, sep, parens, |p, _, member| p.ty(member, inner));
    }

    /// `members` between `sep`s, each printed by `each` (given its index).
    fn list_with(
        &mut self,
        members: &[Ty],
        sep: &str,
        parens: bool,
        mut each: impl FnMut(&mut Self, usize, &Ty),
    ) {
        if parens {
            self.out.push('(');
        }
        for (i, member) in members.iter().enumerate() {
            if i > 0 {
                self.out.push_str(sep);
            }
            each(self, i, member);
        }
        if parens {
            self.out.push(')');
        }
    }

    /// A union. TypeScript checks an object literal's extra keys against a
    /// union as a whole, so `{ path, position, line }` passes for
    /// `{ path, position } | { path, line }`, though the schema (or, for an
    /// object that says nothing of other keys, the SDK's rule that unlisted
    /// keys are refused) allows neither. So each object member written out
    /// here also lists the other object members' keys it lacks, as
    /// `key?: never`. Not where a shared key with a literal type in every
    /// member tells them apart (TypeScript then checks the member it names),
    /// nor where more than [`MAX_ABSENT_KEYS`] such keys would be written,
    /// nor in a definition an intersection reads as a view of its value
    /// (see [`viewed`](Self::viewed)): there, as in a union written in an
    /// intersection, another member may list the keys, and closing them
    /// would refuse what that member admits.
    fn union(&mut self, members: &[Ty], parens: bool) {
        if std::mem::take(&mut self.viewed) {
            return self.list(members, " | ", parens, Ctx::Top);
        }
        match absent_keys(members) {
            None => self.list(members, " | ", parens, Ctx::Top),
            Some(absent) => self.list_with(members, " | ", parens, |p, i, member| match member {
                Ty::Object(obj) => p.object(obj, &absent[i], Ctx::Top),
                _ => p.ty(member, Ctx::Top),
            }),
        }
    }

    fn named(&mut self, id: usize, ctx: Ctx) {
        // Spelled out as a member of an intersection, a union is a view.
        let viewed = std::mem::take(&mut self.viewed) || ctx == Ctx::InterMember;
        let Some(inlining) = &mut self.inlining else {
            self.out.push_str(&self.names[id]);
            if self.noting {
                self.named.push(id);
            } else if let Some(named) = self.named_by_tools.get_mut(id) {
                *named = true;
            }
            return;
        };
        if !inlining.enter(id) {
            self.out.push_str("unknown");
            return;
        }
        let defs = self.defs;
        self.viewed = viewed;
        self.ty(
            &defs[id].ty,
            if ctx == Ctx::Top {
                Ctx::Top
            } else {
                Ctx::Postfix
            },
        );
        if let Some(inlining) = &mut self.inlining {
            inlining.leave();
        }
    }

    /// `[A, B?, ...R[]]`: `items`, the first `required` of them present,
    /// then any number of `rest`.
    fn tuple(&mut self, items: &[Ty], required: usize, rest: Option<&Ty>) {
        self.out.push('[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if i < required {
                self.ty(item, Ctx::Top);
            } else {
                self.ty(item, Ctx::Postfix);
                self.out.push('?');
            }
        }
        if let Some(rest) = rest {
            if !items.is_empty() {
                self.out.push_str(", ");
            }
            self.out.push_str("...");
            self.ty(rest, Ctx::Postfix);
            self.out.push_str("[]");
        }
        self.out.push(']');
    }

    /// An object type; `absent` are keys it must not have, written as
    /// optional properties of type `never` (see [`Printer::union`]).
    ///
    /// A number, a string or a boolean has every member of
    /// `Object.prototype`, so it passes for an object type whose keys are
    /// such members, where optional (the key's type takes the inherited
    /// method, see [`Printer::inherited`]) or of any type, and whose other
    /// keys are all optional (TypeScript then only asks that a value share
    /// one key). Such a type is intersected with `object`, which no
    /// primitive is. The cost: TypeScript no longer asks a value that is
    /// not a literal to share a key with it.
    fn object(&mut self, obj: &Object, absent: &[&str], ctx: Ctx) {
        let inherits = |name: &str| OBJECT_MEMBERS.contains(&name);
        let primitives_fit = !obj.props.is_empty()
            && matches!(obj.extra, Extra::Unspecified | Extra::Closed)
            && (obj.props.iter())
                .all(|p| !p.required || (inherits(&p.name) && matches!(p.ty, Ty::Unknown)))
            && (obj.props.iter().any(|p| inherits(&p.name)) || absent.iter().any(|k| inherits(k)));
        if !primitives_fit {
            return self.object_type(obj, absent);
        }
        let parens = ctx == Ctx::Postfix;
        if parens {
            self.out.push('(');
        }
        self.object_type(obj, absent);
        self.out.push_str(" & object");
        if parens {
            self.out.push(')');
        }
    }

    /// The object type itself (see [`Printer::object`]).
    fn object_type(&mut self, obj: &Object, absent: &[&str]) {
        if obj.props.is_empty() {
            // An index signature rather than `Record<...>`: a recursive type
            // alias may refer to itself through the former but not the latter.
            self.out.push_str("{ [key: string]: ");
            match &obj.extra {
                Extra::Unspecified => self.out.push_str("unknown"),
                Extra::Closed => self.out.push_str("never"),
                Extra::Values(ty) => self.ty(ty, Ctx::Top),
            }
            self.out.push_str(" }");
            return;
        }
        let multiline = obj
            .props
            .iter()
            .any(|p| !p.doc.is_empty() || p.name == PROTO);
        self.out.push('{');
        if multiline {
            self.out.push('\n');
            self.indent += 1;
        }
        for (i, prop) in obj.props.iter().enumerate() {
            // A one-line doc trails its property as a `//` comment (fewer
            // tokens than a JSDoc block); a longer one goes above it.
            let mut lines = doc_lines(&prop.doc);
            // The schema's words (not the note added below).
            self.words += lines.len();
            if prop.name == PROTO {
                lines.push(PROTO_NOTE.into());
            }
            if multiline {
                if lines.len() > 1 {
                    self.doc_block(std::mem::take(&mut lines));
                }
                self.pad();
            } else {
                self.out.push_str(if i == 0 { " " } else { "; " });
            }
            self.key(&prop.name);
            self.out.push_str(if prop.required { ": " } else { "?: " });
            self.ty(&prop.ty, Ctx::Top);
            if !prop.required && !matches!(prop.ty, Ty::Unknown) {
                self.inherited(&prop.name);
            }
            if multiline {
                self.out.push(';');
                if let [one] = lines.as_slice() {
                    self.out.push_str(" // ");
                    self.out.push_str(&defuse_typescript(one));
                }
                self.out.push('\n');
            }
        }
        for key in absent {
            if multiline {
                self.pad();
            } else {
                self.out.push_str("; ");
            }
            self.key(key);
            self.out.push_str("?: never");
            self.inherited(key);
            if multiline {
                self.out.push_str(";\n");
            }
        }
        if let Extra::Values(values) = &obj.extra {
            // An index signature must admit every listed property's type too.
            // Spelled again there, a property's type would be printed twice
            // at every level of objects nested so, doubling the text with
            // each: only small ones are, and beside a larger one the
            // signature takes any value.
            let small = |p: &Prop| weight_within(&p.ty, INDEX_COPY_MAX).is_some();
            let all = if obj.props.iter().all(small) {
                let mut members = vec![(**values).clone()];
                members.extend(obj.props.iter().map(|p| p.ty.clone()));
                crate::schema::union(members)
            } else {
                Ty::Unknown
            };
            if multiline {
                self.pad();
            } else {
                self.out.push_str("; ");
            }
            self.out.push_str("[key: string]: ");
            self.ty(&all, Ctx::Top);
            if obj.props.iter().any(|p| !p.required) && !matches!(all, Ty::Unknown) {
                for prop in obj.props.iter().filter(|p| !p.required) {
                    self.inherited(&prop.name);
                }
                self.out.push_str(" | undefined");
            }
            if multiline {
                self.out.push_str(";\n");
            }
        }
        if multiline {
            self.indent -= 1;
            self.pad();
            self.out.push('}');
        } else {
            self.out.push_str(" }");
        }
    }

    /// ` | Object["name"]` after the type of an optional property named like
    /// a member of `Object.prototype`. TypeScript compares an object
    /// literal that leaves the key out by the member it inherits (a method),
    /// so without this no such literal would type-check. The method is no
    /// JSON value (`JSON.stringify` drops it), so the key's value is still
    /// checked for every value that reaches the tool.
    fn inherited(&mut self, name: &str) {
        if OBJECT_MEMBERS.contains(&name) {
            self.out.push_str(" | Object[");
            self.out.push_str(&json_string(name));
            self.out.push(']');
        }
    }

    /// An object key: bare when it is a plain identifier, else a string literal.
    fn key(&mut self, name: &str) {
        if ident::typescript::is_plain_key(name) {
            self.out.push_str(name);
        } else {
            self.out.push_str(&json_string(name));
        }
    }
}

/// At most this many `key?: never` properties are written for one union
/// (see `Printer::union`), so a long union costs no more than its members.
const MAX_ABSENT_KEYS: usize = 16;

/// Whether `ty` is a literal, or a union of literals only.
fn is_literal(ty: &Ty) -> bool {
    match ty {
        Ty::Lit(_) => true,
        Ty::Union(members) => members.iter().all(|m| matches!(m, Ty::Lit(_))),
        _ => false,
    }
}

/// For each member of a union, the keys of its other object members that
/// it lacks, if the union should list them (see `Printer::union`).
fn absent_keys(members: &[Ty]) -> Option<Vec<Vec<&str>>> {
    // Objects with listed keys and no index signature.
    fn plain(member: &Ty) -> Option<&Object> {
        match member {
            Ty::Object(obj) if !obj.props.is_empty() && !matches!(obj.extra, Extra::Values(_)) => {
                Some(obj)
            }
            _ => None,
        }
    }
    let objects: Vec<&Object> = members.iter().filter_map(plain).collect();
    if objects.len() < 2 {
        return None;
    }
    let mut keys: Vec<&str> = (objects.iter())
        .flat_map(|obj| obj.props.iter().map(|p| p.name.as_str()))
        .filter(|name| *name != PROTO)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    // How many would be written, counted before any is looked for: each
    // object lacks the keys it does not list (so the search below is
    // bounded by the members' own size).
    let listed: usize = (objects.iter())
        .map(|obj| obj.props.iter().filter(|p| p.name != PROTO).count())
        .sum();
    let total = (objects.len().saturating_mul(keys.len())).saturating_sub(listed);
    if total == 0 || total > MAX_ABSENT_KEYS {
        return None;
    }
    // (After the count: each member is searched for each key of the first,
    // which the count has bounded.)
    let tagged = objects[0].props.iter().any(|prop| {
        objects.iter().all(|obj| {
            (obj.props.binary_search_by(|p| p.name.cmp(&prop.name)).ok())
                .is_some_and(|at| obj.props[at].required && is_literal(&obj.props[at].ty))
        })
    });
    if tagged {
        return None;
    }
    let absent = (members.iter())
        .map(|member| match plain(member) {
            Some(obj) => (keys.iter().copied())
                .filter(|key| {
                    obj.props
                        .binary_search_by(|p| p.name.as_str().cmp(key))
                        .is_err()
                })
                .collect(),
            None => Vec::new(),
        })
        .collect();
    Some(absent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::lower_borrowed;
    use crate::tool::ToolDef;
    use serde_json::json;

    /// `integer` and `number` are one type in TypeScript: a union of both
    /// writes it once (Python keeps `int | float`).
    #[test]
    fn integer_or_number_is_written_once() {
        let tools = vec![ToolDef::new(
            "t",
            json!({"type": "object", "properties": {
                "a": {"type": ["integer", "number"]},
                "b": {"anyOf": [{"type": "integer"}, {"type": "null"}, {"type": "number"}]},
                "c": {"type": "array", "items": {"type": ["number", "integer"]}}}}),
        )];
        let sdk = render(&lower_borrowed(&tools), true).0;
        assert!(
            sdk.contains("a?: number; b?: number | null; c?: readonly number[]"),
            "{sdk}"
        );
        let python = crate::render(crate::Language::Python, &tools);
        assert!(python.contains("a: int | float = ..."), "{python}");
    }

    /// The TypeScript SDK of `tools` and its records, rendered on two
    /// threads and on one, which must agree.
    fn typescript_on_both_threads(tools: &[ToolDef]) -> crate::Rendered {
        crate::parallel::two_threads();
        let split = crate::render_report(crate::Language::TypeScript, tools);
        let whole = crate::parallel::sequentially(|| {
            crate::render_report(crate::Language::TypeScript, tools)
        });
        assert_eq!(split.text, whole.text);
        assert_eq!(split.degradations, whole.degradations);
        whole
    }

    /// A named member's keys are lent at each place the intersection is
    /// written, so past what one place may write nothing is lent, and that
    /// is recorded for TypeScript only, whichever thread printed it.
    #[test]
    fn keys_too_many_to_lend_at_one_place_are_recorded() {
        let keys = crate::schema::LENT_PER_PLACE;
        let props: serde_json::Map<String, serde_json::Value> = (0..keys)
            .map(|i| (format!("k{i}"), json!({"type": "string"})))
            .collect();
        let defs = json!({
            "S": {"type": "object", "additionalProperties": {"enum": ["on", "off"]}},
            "L": {"type": "object", "properties": props},
            "Few": {"type": "object", "properties": {"label": {"type": "string"}}}
        });
        let place = |defs: &serde_json::Value, fellow: &str| {
            json!({"type": "object", "$defs": defs, "properties": {"p": {"allOf": [
                {"$ref": "#/$defs/S"}, {"$ref": format!("#/$defs/{fellow}")}]}}})
        };
        let tools: Vec<ToolDef> = (0..80)
            .map(|i| {
                let fellow = if i % 2 == 0 { "L" } else { "Few" };
                ToolDef::new(format!("t{i:02}"), place(&defs, fellow))
            })
            .collect();
        let whole = typescript_on_both_threads(&tools);
        let lent: Vec<(&str, &str)> = (whole.degradations.iter())
            .filter(|d| d.reason == LENT_TOO_LARGE)
            .map(|d| (d.tool.as_str(), d.pointer.as_str()))
            .collect();
        assert_eq!(lent.len(), 40, "{lent:?}");
        assert_eq!(lent[0], ("t00", "/inputSchema/properties/p"));
        assert!(
            whole
                .text
                .contains("p?: S & Few & { label?: \"on\" | \"off\" }")
        );
        assert!(!whole.text.contains("k0?: \"on\""));
        let python = crate::render_report(crate::Language::Python, &tools);
        assert!(
            python
                .degradations
                .iter()
                .all(|d| d.reason != LENT_TOO_LARGE)
        );
    }

    /// A lender that is one choice of a union in an intersection lends
    /// nothing, and that is recorded, on either thread; one inside a named
    /// intersection lends at the place.
    #[test]
    fn lenders_in_unions_are_recorded_and_in_named_intersections_lend() {
        let defs = json!({
            "S": {"type": "object", "additionalProperties": {"enum": ["on", "off"]}},
            "Preset": {"type": "object", "properties": {"preset": {"type": "string"}}},
            "Zoned": {"type": "object", "properties": {"zone": {"type": "string"}}},
            "Lights": {"allOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/Zoned"}]},
            "Labelled": {"type": "object", "properties": {"label": {"type": "string"}}}
        });
        let place = |first: serde_json::Value| {
            json!({"type": "object", "$defs": defs, "properties": {"p": {"allOf": [
                first, {"$ref": "#/$defs/Labelled"}]}}})
        };
        let union = json!({"anyOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/Preset"}]});
        let tools: Vec<ToolDef> = (0..80)
            .map(|i| match i % 2 {
                0 => ToolDef::new(format!("t{i:02}"), place(union.clone())),
                _ => ToolDef::new(format!("t{i:02}"), place(json!({"$ref": "#/$defs/Lights"}))),
            })
            .collect();
        let whole = typescript_on_both_threads(&tools);
        let told: Vec<&str> = (whole.degradations.iter())
            .filter(|d| d.reason == LENT_IN_UNION)
            .map(|d| d.tool.as_str())
            .collect();
        assert_eq!(told.len(), 40, "{told:?}");
        assert_eq!(told[0], "t00");
        assert!(
            whole.text.contains("p?: (S | Preset) & Labelled }"),
            "{}",
            whole.text
        );
        let lent = "p?: Lights & Labelled & { label?: \"on\" | \"off\"; zone?: \"on\" | \"off\" }";
        assert!(whole.text.contains(lent), "{}", whole.text);
    }

    /// A place whose members run past what one place reads through names
    /// is recorded where a member reaches a lender, and only there.
    #[test]
    fn a_place_cut_short_is_recorded_where_a_member_reaches_a_lender() {
        let links = 20;
        let tool = |name: &str, first: serde_json::Value| {
            let mut defs = serde_json::Map::new();
            defs.insert("N0".into(), first);
            for i in 1..=links {
                let link = json!({"allOf": [{"$ref": format!("#/$defs/N{}", i - 1)},
                    {"type": "object", "properties": {format!("z{i}"): {"type": "string"}}}]});
                defs.insert(format!("N{i}"), link);
            }
            defs.insert(
                "Labelled".into(),
                json!({"type": "object", "properties": {"label": {"type": "string"}}}),
            );
            let place = json!({"allOf": [{"$ref": format!("#/$defs/N{links}")}, {"$ref": "#/$defs/Labelled"}]});
            ToolDef::new(
                name,
                json!({"type": "object", "$defs": defs, "properties": {"p": place}}),
            )
        };
        let switches = json!({"type": "object", "additionalProperties": {"enum": ["on", "off"]}});
        let plain = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let tools = [tool("lends", switches), tool("plain", plain)];
        let rendered = crate::render_report(crate::Language::TypeScript, &tools);
        let told: Vec<(&str, &str)> = (rendered.degradations.iter())
            .filter(|d| d.reason == LENT_TOO_LARGE)
            .map(|d| (d.tool.as_str(), d.pointer.as_str()))
            .collect();
        assert!(
            told.contains(&("lends", "/inputSchema/properties/p")),
            "{told:?}"
        );
        assert!(told.iter().all(|(tool, _)| *tool == "lends"), "{told:?}");
    }

    #[test]
    fn a_definition_nothing_names_is_left_out_unless_it_has_words() {
        // `Skipped` and `Noted` are links of chains that the tools skip once
        // the chains are shortened; `Noted` has a doc, and so has the one
        // property of `Held`, which only `Noted` names.
        let defs = json!({
            "Start": {"$ref": "#/$defs/Skipped"},
            "Skipped": {"$ref": "#/$defs/End"},
            "End": {"type": "string"},
            "Other": {"$ref": "#/$defs/Noted"},
            "Noted": {"$ref": "#/$defs/Held", "description": "Kept for its words."},
            "Held": {"type": "object", "properties": {
                "a": {"type": "string", "description": "The a."}, "b": {"type": "integer"}}},
        });
        let tools: Vec<ToolDef> = (0..4)
            .map(|i| {
                ToolDef::new(
                    format!("tool{i}"),
                    json!({"$defs": defs, "properties": {
                        "x": {"$ref": "#/$defs/Start"}, "y": {"$ref": "#/$defs/Other"}}}),
                )
            })
            .collect();
        let lowered = lower_borrowed(&tools);
        let whole = render_split(&lowered, true, lowered.tools.len()).0;
        assert!(!whole.contains("type Skipped"), "{whole}");
        for kept in [
            "type Start = End;",
            "type End = string;",
            "type Noted = Held;",
            "type Held",
        ] {
            assert!(whole.contains(kept), "{kept} in {whole}");
        }
        assert!(whole.contains("Kept for its words.") && whole.contains("The a."));
        // The note on a `__proto__` key is the SDK's, not the schema's: a
        // definition that nothing names goes, note and all (here, one that
        // an open union's member names, whose keys become any value).
        let open = ToolDef::new(
            "open",
            json!({"$defs": {"Proto": {"type": "object", "properties": {"__proto__": {"type": "string"}}}},
                   "properties": {"o": {"type": "object", "anyOf": [true, {"$ref": "#/$defs/Proto"}]}}}),
        );
        let lowered_open = lower_borrowed(std::slice::from_ref(&open));
        let text = render_split(&lowered_open, true, 1).0;
        assert!(
            !text.contains("type Proto") && text.contains("__proto__"),
            "{text}"
        );
        // Whichever thread printed a tool, the same definitions are left out.
        for at in 0..lowered.tools.len() {
            assert_eq!(render_split(&lowered, true, at).0, whole);
        }
    }

    #[test]
    fn halves_printed_apart_join_into_one_text() {
        let tools: Vec<ToolDef> = (0..5)
            .map(|i| {
                ToolDef::new(
                    format!("tool{i}"),
                    json!({"$defs": {"P": {"type": "object", "properties": {"x": {"type": "string"}}}},
                           "properties": {"p": {"$ref": "#/$defs/P"}, "n": {"type": "integer", "description": "count */ here"}}}),
                )
                .with_description(format!("Tool {i}.\nSecond line."))
            })
            .chain([ToolDef::new("then", json!({}))])
            .collect();
        let lowered = lower_borrowed(&tools);
        let whole = render_split(&lowered, true, lowered.tools.len()).0;
        assert!(
            whole.contains("  tool4(") && whole.contains("(name: \"then\", "),
            "{whole}"
        );
        for at in 0..lowered.tools.len() {
            assert_eq!(render_split(&lowered, true, at).0, whole, "split at {at}");
        }
    }

    #[test]
    fn arrays_only_a_tool_reads_are_readonly() {
        let item = json!({"type": "array", "items": {"type": "string"}});
        let tools = [
            // `Kept` is reached by a result, through `Held`; `Read` by none.
            ToolDef::new(
                "find",
                json!({"$defs": {"Read": {"type": "object", "properties": {"tags": item}}},
                       "properties": {"filter": {"$ref": "#/$defs/Read"}, "pairs": {"type": "array",
                           "items": {"type": "array", "prefixItems": [{"type": "number"}], "minItems": 1, "items": false}}}}),
            )
            .with_output_schema(json!({"$defs": {
                    "Held": {"type": "object", "properties": {"kept": {"$ref": "#/$defs/Kept"}}},
                    "Kept": {"type": "object", "properties": {"tags": item, "more": item}}},
                "properties": {"held": {"$ref": "#/$defs/Held"}, "list": item}})),
            ToolDef::new(
                "put",
                json!({"$defs": {"Kept": {"type": "object", "properties": {"tags": item, "more": item}}},
                       "properties": {"kept": {"$ref": "#/$defs/Kept"}, "ids": item}}),
            ),
        ];
        let sdk = render(&lower_borrowed(&tools), true).0;
        let line = |start: &str| {
            sdk.lines()
                .find(|l| l.trim_start().starts_with(start))
                .unwrap_or_default()
                .to_owned()
        };
        // What only a tool reads, inline or named; a tuple in an array
        // needs its parentheses.
        assert!(
            line("find(").contains("pairs?: readonly (readonly [number])[]"),
            "{sdk}"
        );
        assert!(line("put(").contains("ids?: readonly string[]"), "{sdk}");
        assert!(
            line("type Read =").contains("tags?: readonly string[]"),
            "{sdk}"
        );
        // What a result holds, even when an argument takes it too.
        assert!(line("find(").contains("list?: string[]"), "{sdk}");
        assert!(line("type Kept =").contains("tags?: string[]"), "{sdk}");
        assert!(!line("type Kept =").contains("readonly"), "{sdk}");
    }

    /// The type of the property `x` of a one-tool SDK whose `x` is `schema`.
    fn type_of_x(schema: serde_json::Value) -> String {
        let tools = [ToolDef::new(
            "t",
            json!({"type": "object", "properties": {"x": schema}, "required": ["x"]}),
        )];
        let sdk = render(&lower_borrowed(&tools), true).0;
        let line = sdk
            .lines()
            .find(|l| l.contains("t(args"))
            .unwrap_or_default();
        line.trim_start().to_owned()
    }

    #[test]
    fn a_union_of_objects_names_the_keys_each_member_lacks() {
        let object = |keys: &[&str]| {
            let props: serde_json::Map<String, serde_json::Value> = (keys.iter())
                .map(|k| ((*k).to_owned(), json!({"type": "string"})))
                .collect();
            json!({"type": "object", "properties": props, "required": keys, "additionalProperties": false})
        };
        assert_eq!(
            type_of_x(json!({"anyOf": [object(&["path", "position"]), object(&["line", "path"])]})),
            "t(args: { x: { path: string; position: string; line?: never } | { line: string; path: string; position?: never } }): Promise<unknown>;"
        );
        // A key with a literal type in each member tells them apart.
        let tagged = |tag: &str, key: &str| {
            json!({"type": "object", "properties": {"kind": {"const": tag}, key: {"type": "string"}},
                   "required": ["kind", key]})
        };
        assert_eq!(
            type_of_x(json!({"oneOf": [tagged("a", "p"), tagged("b", "q")]})),
            "t(args: { x: { kind: \"a\"; p: string } | { kind: \"b\"; q: string } }): Promise<unknown>;"
        );
        // Past 16 keys, the union is written as it is: 17 members of one
        // key each would need 16 keys apiece.
        let many: Vec<_> = (0..17).map(|i| object(&[&format!("k{i:02}")])).collect();
        assert!(!type_of_x(json!({"anyOf": many})).contains("never"));
        // In an intersection, the union's objects are views of one value.
        let either = type_of_x(json!({"type": "object",
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            "anyOf": [{"required": ["id"]}, {"required": ["name"]}]}));
        assert!(
            either.contains(" & (") && !either.contains("never"),
            "{either}"
        );
    }

    /// The definitions the tests of views read: `U`, a union of two
    /// objects, each listing a key the other lacks; `V`, a name of it; and
    /// `SW`, switches that admit any key as `"on"` or `"off"`.
    fn union_beside_switches() -> serde_json::Value {
        json!({
            "U": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "string"}, "label": {"type": "string"}}, "required": ["a"]},
                {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}
            ]},
            "V": {"$ref": "#/$defs/U"},
            "SW": {"type": "object", "additionalProperties": {"enum": ["on", "off"]}}
        })
    }

    #[test]
    fn a_named_union_an_intersection_reads_closes_no_keys() {
        let defs = union_beside_switches();
        let sdk = |x: serde_json::Value| {
            let schema = json!({"type": "object", "properties": {"x": x}, "required": ["x"],
                "$defs": defs.clone()});
            render(&lower_borrowed(&[ToolDef::new("t", schema)]), true).0
        };
        let union_line = |sdk: &str| {
            (sdk.lines())
                .find(|l| l.starts_with("type U ="))
                .unwrap_or_default()
                .to_owned()
        };
        // Alone, each choice closes the keys only the other lists.
        let alone = sdk(json!({"$ref": "#/$defs/U"}));
        assert_eq!(
            union_line(&alone),
            "type U = { a: string; label?: string; b?: never } | { b: string; a?: never; label?: never };"
        );
        // Beside the switches, directly or through another name, or as a
        // choice of a union the intersection holds, it is a view of one
        // value: the switches admit a label in a value with `b`.
        for x in [
            json!({"allOf": [{"$ref": "#/$defs/SW"}, {"$ref": "#/$defs/U"}]}),
            json!({"allOf": [{"$ref": "#/$defs/SW"}, {"$ref": "#/$defs/V"}]}),
            json!({"allOf": [{"$ref": "#/$defs/SW"}, {"anyOf": [{"$ref": "#/$defs/U"}, {"type": "object", "properties": {"c": {"type": "string"}}}]}]}),
        ] {
            let viewed = sdk(x);
            assert_eq!(
                union_line(&viewed),
                "type U = { a: string; label?: string } | { b: string };",
                "{viewed}"
            );
        }
    }

    #[test]
    fn an_inlined_union_an_intersection_reads_closes_no_keys() {
        let defs = union_beside_switches();
        let expression = |schema: serde_json::Value| {
            let mut schema = schema;
            schema["$defs"] = defs.clone();
            crate::json_schema_to_type(crate::Language::TypeScript, &schema)
        };
        let closed =
            "{ a: string; label?: string; b?: never } | { b: string; a?: never; label?: never }";
        assert_eq!(expression(json!({"$ref": "#/$defs/U"})), closed);
        for schema in [
            json!({"allOf": [{"$ref": "#/$defs/SW"}, {"$ref": "#/$defs/U"}]}),
            json!({"allOf": [{"$ref": "#/$defs/SW"}, {"$ref": "#/$defs/V"}]}),
            json!({"allOf": [{"$ref": "#/$defs/SW"}, {"anyOf": [{"$ref": "#/$defs/U"}, {"type": "string"}]}]}),
        ] {
            let text = expression(schema);
            assert!(
                text.contains("{ a: string; label?: string } | { b: string }")
                    && !text.contains("never"),
                "{text}"
            );
        }
        // A union inside a property of a member is no view: it closes keys.
        let inside = expression(json!({"allOf": [{"$ref": "#/$defs/SW"},
            {"type": "object", "properties": {"p": {"$ref": "#/$defs/U"}}}]}));
        assert!(inside.contains(closed), "{inside}");
    }

    #[test]
    fn a_proto_key_says_how_to_write_it() {
        let tools = [ToolDef::new(
            "t",
            json!({"type": "object", "properties": {
                "__proto__": {"type": "string"},
                "id": {"type": "integer"}
            }, "required": ["__proto__"]}),
        )];
        let text = render(&lower_borrowed(&tools), true).0;
        let want = format!("\n    __proto__: string; // {PROTO_NOTE}\n    id?: number;\n");
        assert!(text.contains(&want), "{text}");
        // Beside a description of its own, the note is a line of the block.
        let tools = [ToolDef::new(
            "t",
            json!({"type": "object", "properties": {
                "__proto__": {"type": "string", "description": "The parent."}
            }}),
        )];
        let text = render(&lower_borrowed(&tools), true).0;
        let want = format!("/**\nThe parent.\n{PROTO_NOTE}\n     */\n    __proto__?: string;");
        assert!(text.contains(&want), "{text}");
    }

    #[test]
    fn optional_keys_named_like_object_members_admit_the_inherited_member() {
        let tools = [ToolDef::new(
            "t",
            json!({"type": "object", "properties": {
                "toString": {"type": "string"},
                "valueOf": {},
                "id": {"type": "integer"},
                "constructor": {"type": "integer"}
            }, "required": ["constructor"], "additionalProperties": {"type": "integer"}}),
        )];
        let text = render(&lower_borrowed(&tools), true).0;
        // Required, or of any type already: nothing to add.
        let want = "args: { constructor: number; id?: number; toString?: string | Object[\"toString\"]; \
                    valueOf?: unknown; [key: string]: unknown }";
        assert!(text.contains(want), "{text}");
        let tools = [ToolDef::new(
            "t",
            json!({"type": "object", "properties": {"toString": {"type": "string"}},
                   "additionalProperties": {"type": "integer"}}),
        )];
        let text = render(&lower_borrowed(&tools), true).0;
        let want = "args?: { toString?: string | Object[\"toString\"]; \
                    [key: string]: number | string | Object[\"toString\"] | undefined }";
        assert!(text.contains(want), "{text}");
    }

    #[test]
    fn weak_objects_with_object_member_keys_take_no_primitive() {
        let weak = json!({"type": "object", "properties": {"toString": {"type": "string"}}});
        let tools = [ToolDef::new(
            "t",
            json!({"type": "object", "properties": {
                "one": weak,
                "many": {"type": "array", "items": weak},
                "kept": {"type": "object", "properties": {"toString": {"type": "string"}, "id": {"type": "integer"}},
                         "required": ["id"]},
                "any": {"type": "object", "properties": {"valueOf": {}}, "required": ["valueOf"]},
                "plain": {"type": "object", "properties": {"name": {"type": "string"}}}
            }}),
        )];
        let text = render(&lower_borrowed(&tools), true).0;
        for want in [
            // Every key optional: a number has `toString` too.
            "one?: { toString?: string | Object[\"toString\"] } & object",
            "many?: readonly ({ toString?: string | Object[\"toString\"] } & object)[]",
            // A required key a primitive lacks already refuses one; nor does
            // a key that no primitive has need the intersection.
            "kept?: { id: number; toString?: string | Object[\"toString\"] };",
            // A primitive has `valueOf`, of any type.
            "any?: { valueOf: unknown } & object;",
            "plain?: { name?: string } }",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
    }

    #[test]
    fn required_keys_without_a_schema_hold_what_other_keys_hold() {
        let tools = [
            ToolDef::new(
                "a",
                json!({"type": "object", "required": ["x"],
                       "additionalProperties": {"type": "integer"}}),
            ),
            ToolDef::new(
                "b",
                json!({"type": "object", "required": ["x"], "additionalProperties": false,
                       "patternProperties": {"^x": {"type": "boolean"}}}),
            ),
            ToolDef::new("c", json!({"type": "object", "required": ["x"]})),
        ];
        let text = render(&lower_borrowed(&tools), true).0;
        for want in [
            "a(args: { x: number; [key: string]: number })",
            "b(args: { x: boolean; [key: string]: boolean })",
            "c(args: { x: unknown })",
        ] {
            assert!(text.contains(want), "{want} in {text}");
        }
    }
}
