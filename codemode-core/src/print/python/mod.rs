//! The Python stub module: TypedDicts for nested objects and results, and
//! a `Tools` protocol with one `async def` per tool (or, for a name that
//! cannot be a method, one `__getitem__` overload). A method takes its
//! arguments as keyword parameters (`*, path: str, head: int = ...`) when
//! every key can be one, and one TypedDict otherwise.
//!
//! It is made in steps: `convert` turns the shared IR into `Py` trees and
//! classes, this module shares equal classes, `reading` gives the arguments
//! the types they read (`Sequence` for a list of numbers, `ReadOnly` fields
//! in a class only arguments use), this module names the classes (the rules
//! of what Python can spell bare are in `crate::ident::python`), and `emit`
//! prints. Python cannot say everything TypeScript
//! can, and every such decision is made in `convert`:
//! - a nested object becomes a named TypedDict (Python has no anonymous
//!   record), and equal ones are one class (`share_classes`);
//! - `allOf` becomes one merged TypedDict when every part is an object, and
//!   the escape hatch (recorded) otherwise (there is no intersection type);
//! - a tuple with optional elements or a rest becomes a union of fixed
//!   lengths or `tuple[T, ...]`;
//! - a float literal widens to `float` (`Literal` takes no floats;
//!   recorded);
//! - extra keys beside listed properties are not expressible in a TypedDict
//!   (recorded).

mod convert;
mod emit;
mod reading;

use crate::ERROR_CLASS;
use crate::canonical::python_string;
use crate::error::ErrorKind;
use crate::ident;
use crate::ident::pascal_case;
use crate::schema::{Def, Degradation, Doc, Lowered, LoweredTool, Origin, Ty};
use convert::{Args, Class, Convert, DefKind, Method, PropView, Py};
use emit::Printer;
use foldhash::HashSet;
use std::fmt::Write;

/// Prints the whole stub module for a lowered tool set, and returns the
/// degradations that only Python has. `among` is the whole tool set that
/// methods for dashed names are chosen in (as the sandbox and the check
/// choose them): the tools themselves, or the catalog a few of them are
/// declared from. Without `error_class`, the module leaves out the error
/// class (which an index declared already) and imports only what the rest
/// uses.
pub(crate) fn render(
    lowered: &Lowered,
    among: &[&str],
    error_class: bool,
) -> (String, Vec<Degradation>) {
    let mut cv = Convert::new(&lowered.defs, false);
    // Definitions first, in id order, then tools in name order: both orders
    // depend only on the tool set.
    let mut def_kinds = Vec::with_capacity(lowered.defs.len());
    // Which degradations each definition's conversion recorded.
    let mut def_records: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    for (id, def) in lowered.defs.iter().enumerate() {
        let recorded = cv.degradations.len();
        let origin = Origin {
            tool: def.tool.clone(),
            pointer: def.pointer.clone(),
            ..Origin::default()
        };
        let key = format!("d:{}", def.key);
        def_kinds.push(match &def.ty {
            // An empty key makes no class: `conv` records it and makes a dict.
            Ty::Object(obj)
                if !obj.props.is_empty() && obj.props.iter().all(|p| !p.name.is_empty()) =>
            {
                cv.other_keys(obj, &origin);
                let props = obj.props.iter().map(PropView::of);
                DefKind::Class(cv.class(props, &def.base, &key, &def.doc, &origin))
            }
            ty => DefKind::Alias(cv.conv(ty, &def.base, &key, &origin)),
        });
        def_records.push((id, recorded..cv.degradations.len()));
    }
    // The name each tool's method has: its own, or the alias the SDK, the
    // sandbox and the check agree on (`get-sum` is `get_sum`); none for a
    // tool reached only by subscript.
    let aliases = ident::python_method_aliases(among.iter().copied());
    let alias_of: foldhash::HashMap<&str, &str> =
        aliases.iter().map(|(a, n)| (*n, a.as_str())).collect();
    let method_names: Vec<Option<&str>> = lowered
        .tools
        .iter()
        .map(|t| match ident::python::is_bare_method(&t.name) {
            true => Some(t.name.as_str()),
            false => alias_of.get(t.name.as_str()).copied(),
        })
        .collect();
    let mut signatures = convert_tools(&mut cv, &lowered.defs, &lowered.tools, &method_names);
    share_classes(&mut cv.classes, &mut signatures, &mut def_kinds);
    reading::read_arguments(&mut cv.classes, &mut def_kinds, &mut signatures);
    let mut methods: Vec<Method> = lowered
        .tools
        .iter()
        .zip(signatures)
        .zip(&method_names)
        .map(|((tool, (mut args, output)), &method)| {
            if let Args::Dict { ty, optional } = &mut args {
                *optional = cv.all_optional(ty, &def_kinds);
            }
            Method {
                name: &tool.name,
                method,
                args_docs: Vec::new(),
                description: tool.description.as_deref(),
                args,
                output,
            }
        })
        .collect();

    // Only what a declaration uses is printed: a definition whose one use
    // was a tool's arguments, now keyword parameters, is left out, and its
    // doc goes to the tool's method.
    let (mut used_defs, used_classes) = used(&methods, &cv.classes, &def_kinds);
    let chains: Vec<Vec<usize>> = (methods.iter().zip(&lowered.tools))
        .map(|(m, tool)| match m.args {
            Args::Keywords { .. } => chain_of_names(&tool.input, &lowered.defs),
            Args::Dict { .. } => Vec::new(),
        })
        .collect();
    // A definition that only names another and has a doc of its own is
    // printed where that other is: it may be unreferenced only because a
    // chain of names was shortened past it (see `cycles`), and its doc is
    // still the server's words, which TypeScript prints too. Not one on a
    // chain whose docs a method takes.
    let mut to_a_method = vec![false; lowered.defs.len()];
    for &id in chains.iter().flatten() {
        to_a_method[id] = true;
    }
    let args_docs: Vec<Vec<usize>> = (chains.iter())
        .map(|chain| docs_for_method(chain, &lowered.defs, &used_defs))
        .collect();
    for (id, def) in lowered.defs.iter().enumerate() {
        if let Ty::Named(to) = def.ty
            && !def.doc.is_empty()
            && !to_a_method[id]
            && used_defs.get(to).copied().unwrap_or(false)
        {
            used_defs[id] = true;
        }
    }
    for (m, docs) in methods.iter_mut().zip(args_docs) {
        m.args_docs = docs.into_iter().map(|id| &lowered.defs[id].doc).collect();
    }
    // What the conversion recorded inside a definition that is not printed
    // is no one's: the tools that use its keys record their own.
    // The records' ranges follow one another in order, so the one holding
    // a degradation is found by halves.
    let mut at = 0;
    cv.degradations.retain(|_| {
        at += 1;
        let i = def_records.partition_point(|(_, range)| range.end < at);
        !def_records
            .get(i)
            .is_some_and(|&(id, ref range)| !used_defs[id] && range.contains(&(at - 1)))
    });
    // One namespace for classes and aliases.
    let mut requests: Vec<(String, String)> = Vec::new();
    let mut alias_slot: Vec<Option<usize>> = vec![None; lowered.defs.len()];
    for (id, def) in lowered.defs.iter().enumerate() {
        if let DefKind::Alias(_) = def_kinds[id]
            && used_defs[id]
        {
            alias_slot[id] = Some(requests.len());
            requests.push((def.base.clone(), format!("d:{}", def.key)));
        }
    }
    let mut class_slot: Vec<Option<usize>> = vec![None; cv.classes.len()];
    for (i, class) in cv.classes.iter().enumerate() {
        if used_classes[i] {
            class_slot[i] = Some(requests.len());
            requests.push((class.base.clone(), class.key.clone()));
        }
    }
    // A tool declared as a method binds its name in the `Tools` class
    // body, so no class or alias may have it.
    let methods_named: HashSet<&str> = methods.iter().filter_map(|m| m.method).collect();
    let assigned = ident::assign(&requests, |name| {
        ident::python::reserved(name) || methods_named.contains(name)
    });
    let name_in = |slot: Option<usize>| slot.map(|s| assigned[s].clone()).unwrap_or_default();
    let def_names: Vec<String> = def_kinds
        .iter()
        .enumerate()
        .map(|(id, kind)| match kind {
            DefKind::Alias(_) => name_in(alias_slot[id]),
            DefKind::Class(c) => name_in(class_slot[*c]),
        })
        .collect();
    let class_names: Vec<String> = class_slot.iter().map(|&slot| name_in(slot)).collect();
    let module_names: HashSet<&str> = assigned.iter().map(String::as_str).collect();

    // Classes and aliases in name order.
    let mut items: Vec<(&str, Item)> = Vec::new();
    for (id, kind) in def_kinds.iter().enumerate() {
        match kind {
            DefKind::Alias(py) if used_defs[id] => {
                items.push((&def_names[id], Item::Alias(py, &lowered.defs[id].doc)))
            }
            DefKind::Alias(_) | DefKind::Class(_) => {}
        }
    }
    for (i, class) in cv.classes.iter().enumerate() {
        if used_classes[i] {
            items.push((&class_names[i], Item::Class(class)));
        }
    }
    items.sort_by(|a, b| a.0.cmp(b.0));
    // pyright gives up on a module whose flow holds more than about 32,000
    // statements and annotations ("Code is too complex to analyze"). Every
    // field of a class in class syntax is one, and every method; the
    // entries of a functional TypedDict are not. Past half of that, every
    // class is functional. (Methods alone pass it past some 25,000 tools;
    // a catalog that large wants a budget, and the index, anyway.)
    let class_lines: usize = items
        .iter()
        .map(|(_, item)| match item {
            Item::Class(class) => class.fields.len() + 1,
            Item::Alias(..) => 0,
        })
        .sum();
    let functional = class_lines + methods.len() > PYRIGHT_FLOW_ROOM;
    // Printed in two halves at once when there are many.
    let emit = |items: &[(&str, Item)]| {
        let mut p = Printer::new(&def_names, &class_names);
        for (name, item) in items {
            match item {
                Item::Alias(py, doc) => p.alias(name, py, doc),
                Item::Class(class) => p.class(name, class, &module_names, functional),
            }
        }
        p
    };
    let at = crate::parallel::split_point(items.len());
    let (mut p, rest) = crate::parallel::halves(&items, at, emit, emit);
    if let Some(rest) = rest {
        p.absorb(rest);
    }
    p.imports.insert("Protocol");
    if error_class {
        p.imports.insert("Literal");
    }
    p.tools(&methods);
    let body = std::mem::take(&mut p.out);
    // No module docstring: how to call tools the `run_code` instructions say
    // once, and the stub only declares.
    let mut out = String::new();
    let imports: Vec<&str> = p.imports.into_iter().collect();
    // Annotations may name a type declared further down: postponed, they
    // are forward references for every checker.
    out.push_str("from __future__ import annotations\n");
    let _ = writeln!(out, "from typing import {}", imports.join(", "));
    if p.read_only {
        out.push_str("from typing_extensions import ReadOnly\n");
    }
    out.push('\n');
    if error_class {
        let kinds: Vec<String> = ErrorKind::ALL
            .iter()
            .map(|k| python_string(k.as_str()))
            .collect();
        let _ = write!(
            out,
            "class {ERROR_CLASS}(Exception):\n    \
             toolName: str\n    \
             kind: Literal[{}]\n\n",
            kinds.join(", ")
        );
    }
    out.push_str(&body);
    (out, cv.degradations)
}

/// Most links of a chain of names whose docs a method takes before it
/// skips to the chain's end (and half the most definitions it reads).
const CHAIN_DOCS_MAX: usize = 64;

/// The definitions the keyword parameters of `input` come from, in the
/// order the schema names them: a name, and on through what that
/// definition names, as the schema wrote it (through the links shortening
/// skipped, see [`Def::named`], for the first [`CHAIN_DOCS_MAX`]); for an
/// intersection, each named member in turn. Never one twice.
fn chain_of_names(input: &Ty, defs: &[Def]) -> Vec<usize> {
    /// The definitions `ty` names directly, last first (to be popped).
    fn named(ty: &Ty, todo: &mut Vec<usize>) {
        match ty {
            Ty::Named(id) => todo.push(*id),
            Ty::Inter(members, _) => todo.extend(members.iter().rev().filter_map(|m| match m {
                Ty::Named(id) => Some(*id),
                _ => None,
            })),
            _ => {}
        }
    }
    let mut chain = Vec::new();
    let mut todo = Vec::new();
    named(input, &mut todo);
    while let Some(id) = todo.pop()
        && chain.len() < 2 * CHAIN_DOCS_MAX
    {
        let Some(def) = defs.get(id) else { continue };
        if chain.contains(&id) {
            continue;
        }
        chain.push(id);
        match (def.named, &def.ty) {
            (Some(link), Ty::Named(_)) if chain.len() < CHAIN_DOCS_MAX => todo.push(link),
            // Past that many links, a shortened chain goes straight to its
            // end, whose keys the parameters are (its doc is theirs).
            (_, ty) => named(ty, &mut todo),
        }
    }
    chain
}

/// The definitions on `chain` whose docs go to the method that takes its
/// keyword parameters: those with a doc that are not printed, in the
/// chain's order, each doc once.
fn docs_for_method(chain: &[usize], defs: &[Def], used_defs: &[bool]) -> Vec<usize> {
    let mut docs: Vec<usize> = Vec::new();
    for &id in chain {
        let doc = &defs[id].doc;
        if !doc.is_empty() && !used_defs[id] && !docs.iter().any(|&d| defs[d].doc == *doc) {
            docs.push(id);
        }
    }
    docs
}

/// Which definitions and classes the methods' declarations use, directly
/// or through other classes and aliases.
fn used<'p>(
    methods: &'p [Method<'_>],
    classes: &'p [Class<'_>],
    def_kinds: &'p [DefKind],
) -> (Vec<bool>, Vec<bool>) {
    let mut defs = vec![false; def_kinds.len()];
    let mut used = vec![false; classes.len()];
    let mut todo: Vec<&'p Py> = Vec::new();
    for m in methods {
        match &m.args {
            Args::Keywords { params, rest } => {
                todo.extend(params.iter().map(|p| &p.ty));
                todo.extend(rest);
            }
            Args::Dict { ty, .. } => todo.push(ty),
        }
        todo.push(&m.output);
    }
    let class = |i: usize, used: &mut Vec<bool>, todo: &mut Vec<&'p Py>| {
        if let Some(false) = used.get(i).copied() {
            used[i] = true;
            todo.extend(classes[i].fields.iter().map(|f| &f.ty));
        }
    };
    while let Some(py) = todo.pop() {
        match py {
            Py::Class(i) => class(*i, &mut used, &mut todo),
            Py::Def(id) => {
                if defs.get(*id).copied() != Some(false) {
                    continue;
                }
                defs[*id] = true;
                match &def_kinds[*id] {
                    DefKind::Class(c) => class(*c, &mut used, &mut todo),
                    DefKind::Alias(py) => todo.push(py),
                }
            }
            other => todo.extend(other.parts()),
        }
    }
    (defs, used)
}

/// Each tool's argument and result types, converted after the
/// definitions. A long list is converted in two halves at once: the second
/// half on its own converter, whose classes then follow the first half's,
/// renumbered, exactly as one pass numbers them. The `allOf` merge budget is
/// shared in tool order, so if the second half spent more than the first
/// left over, it is converted again, after the first.
fn convert_tools<'a>(
    cv: &mut Convert<'a>,
    defs: &'a [Def],
    tools: &'a [LoweredTool],
    methods: &[Option<&str>],
) -> Vec<(Args<'a>, Py)> {
    let at = crate::parallel::split_point(tools.len());
    let second = &tools[at..];
    let keywords = |i: usize| methods.get(i).is_some_and(Option::is_some);
    let budget = cv.merge_budget;
    let (mut signatures, rest) = crate::parallel::halves(
        tools,
        at,
        |first| {
            first
                .iter()
                .enumerate()
                .map(|(i, tool)| signature(cv, tool, keywords(i)))
                .collect::<Vec<_>>()
        },
        |second| {
            let mut other = Convert::new(defs, false);
            other.merge_budget = budget;
            let rest: Vec<(Args<'a>, Py)> = second
                .iter()
                .enumerate()
                .map(|(i, tool)| signature(&mut other, tool, keywords(at + i)))
                .collect();
            (rest, other)
        },
    );
    let Some((rest, other)) = rest else {
        return signatures;
    };
    let spent = budget - other.merge_budget;
    if spent > cv.merge_budget {
        signatures.extend(
            second
                .iter()
                .enumerate()
                .map(|(i, tool)| signature(cv, tool, keywords(at + i))),
        );
        return signatures;
    }
    cv.merge_budget -= spent;
    let offset = cv.classes.len();
    let mut classes = other.classes;
    for class in &mut classes {
        for field in &mut class.fields {
            map_classes(&mut field.ty, |i| i + offset);
        }
    }
    cv.classes.extend(classes);
    cv.degradations.extend(other.degradations);
    signatures.extend(rest.into_iter().map(|(mut args, mut output)| {
        for ty in args.types_mut() {
            map_classes(ty, |i| i + offset);
        }
        map_classes(&mut output, |i| i + offset);
        (args, output)
    }));
    signatures
}

/// One tool's arguments (keyword parameters only for a method) and result
/// type.
fn signature<'a>(cv: &mut Convert<'a>, tool: &'a LoweredTool, method: bool) -> (Args<'a>, Py) {
    let base = pascal_case(&tool.name);
    let origin = |field: &str| Origin {
        tool: crate::schema::for_report(&tool.name),
        pointer: format!("/{field}"),
        ..Origin::default()
    };
    let key = format!("t:{}", convert::key_part(&tool.name));
    let args = cv.args(
        &tool.input,
        method,
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
    (args, output)
}

/// Renumbers every class `py` names with `to`.
fn map_classes(py: &mut Py, to: impl Fn(usize) -> usize) {
    let mut todo = vec![py];
    while let Some(py) = todo.pop() {
        match py {
            Py::Class(i) => *i = to(*i),
            other => todo.extend(other.parts_mut()),
        }
    }
}

/// Python has no anonymous record, so every object is a class of its own;
/// a class equal to an earlier one (the same keys, types and docs, its own
/// doc too) is dropped, and every use names the earlier one instead. Ten
/// tools that each return `{content: str}` declare one class, not ten.
///
/// A class is made after the classes of its nested objects, so one pass in
/// order sees each nested class already replaced by the one it equals.
fn share_classes(
    classes: &mut Vec<Class<'_>>,
    signatures: &mut [(Args<'_>, Py)],
    def_kinds: &mut [DefKind],
) {
    use std::hash::BuildHasher;
    let hasher = foldhash::fast::FixedState::default();
    let mut seen: foldhash::HashMap<u64, Vec<usize>> = foldhash::HashMap::default();
    // Each class's earliest equal, by index.
    let mut same: Vec<usize> = Vec::with_capacity(classes.len());
    for i in 0..classes.len() {
        map_classes_in(&mut classes[i], |c| same[c]);
        let class = &classes[i];
        let bucket = seen
            .entry(hasher.hash_one((&class.fields, class.doc)))
            .or_default();
        let earlier = bucket
            .iter()
            .copied()
            .find(|&c| classes[c].fields == class.fields && classes[c].doc == class.doc);
        // A definition keeps its own name, so two `$defs` of one shape stay
        // two; other classes equal to one become it.
        same.push(match earlier {
            Some(c) if !class.is_definition() => c,
            Some(_) => i,
            None => {
                bucket.push(i);
                i
            }
        });
    }
    if same.iter().enumerate().all(|(i, &c)| i == c) {
        return;
    }
    // A class that stands for several, none a definition, is named by
    // what it holds, not by the first place it occurs: `ContentOutput`,
    // not `CreateDirectoryOutput` for every tool's `{content: str}`.
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); classes.len()];
    for (i, &c) in same.iter().enumerate() {
        users[c].push(i);
    }
    let renamed: Vec<(usize, String)> = users
        .iter()
        .enumerate()
        .filter(|(c, users)| users.len() > 1 && !classes[*c].is_definition())
        .filter_map(|(c, users)| {
            shared_name(&classes[c], users.iter().map(|&u| classes[u].base.as_str()))
                .map(|name| (c, name))
        })
        .collect();
    for (c, name) in renamed {
        classes[c].base = name;
    }
    // The classes kept, numbered anew in the same order.
    let mut index = vec![0; classes.len()];
    let mut kept = 0;
    for (i, &c) in same.iter().enumerate() {
        if i == c {
            index[i] = kept;
            kept += 1;
        }
    }
    let to = |c: usize| index[same[c]];
    let mut i = 0;
    classes.retain(|_| {
        i += 1;
        same[i - 1] == i - 1
    });
    for class in classes.iter_mut() {
        map_classes_in(class, to);
    }
    for (args, output) in signatures {
        for ty in args.types_mut() {
            map_classes(ty, to);
        }
        map_classes(output, to);
    }
    for kind in def_kinds {
        match kind {
            DefKind::Class(c) => *c = to(*c),
            DefKind::Alias(py) => map_classes(py, to),
        }
    }
}

/// The name of a class that stands for several equal ones made at
/// `bases`: its one or two keys, then the last word the bases share
/// (`Args`, `Output`, `Item`), if they share one. None for a class of more
/// keys, which keeps its first name.
fn shared_name<'b>(class: &Class<'_>, mut bases: impl Iterator<Item = &'b str>) -> Option<String> {
    if !(1..=2).contains(&class.fields.len()) {
        return None;
    }
    let last_word = |base: &'b str| {
        base.rfind(|c: char| c.is_ascii_uppercase())
            .map_or(base, |at| &base[at..])
    };
    let first = last_word(bases.next()?);
    let suffix = if bases.all(|b| last_word(b) == first) {
        first
    } else {
        ""
    };
    let mut name: String = class.fields.iter().map(|f| pascal_case(f.name)).collect();
    name.push_str(suffix);
    Some(name)
}

/// Renumbers every class the fields of `class` name with `to`.
fn map_classes_in(class: &mut Class<'_>, to: impl Fn(usize) -> usize) {
    for field in &mut class.fields {
        map_classes(&mut field.ty, &to);
    }
}

/// Prints one type expression, nested objects as `dict[str, ...]` and
/// definitions inlined, for [`crate::json_schema_to_type`].
pub(crate) fn expression<'a>(ty: &'a Ty, defs: &'a [Def]) -> String {
    let mut cv = Convert::new(defs, true);
    let py = cv.conv(ty, "", "", &Origin::default());
    let mut p = Printer::new(&[], &[]);
    p.ty(&py);
    p.out
}

/// Class lines (a class and its fields) a stub may hold in class syntax;
/// see [`render`].
const PYRIGHT_FLOW_ROOM: usize = 16_000;

enum Item<'a> {
    Alias(&'a Py, &'a Doc),
    Class(&'a Class<'a>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::lower_borrowed;
    use crate::parallel::sequentially;
    use crate::tool::ToolDef;
    use serde_json::json;

    /// The stub of a tool set on its own.
    fn render_all(lowered: &Lowered) -> (String, Vec<Degradation>) {
        let names: Vec<&str> = lowered.tools.iter().map(|t| t.name.as_str()).collect();
        render(lowered, &names, true)
    }

    /// Asserts that `text` holds each of `expected`, naming the first it lacks.
    #[track_caller]
    fn assert_holds(text: &str, expected: &[&str]) {
        for expected in expected {
            assert!(text.contains(expected), "{expected:?} in\n{text}");
        }
    }

    #[test]
    fn a_union_with_a_name_for_any_value_is_any() {
        // Written `X | A` with `A: TypeAlias = 'Any'`, pyright strict reads
        // the union as partly unknown and refuses nested literals.
        let tools = vec![ToolDef::new(
            "t",
            json!({
                "type": "object",
                "$defs": {
                    "A": {"description": "anything"},
                    "B": {"$ref": "#/$defs/A"},
                    "U": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/B"}]}
                },
                "properties": {
                    "p": {"anyOf": [{"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}, {"$ref": "#/$defs/B"}]},
                    "q": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "r": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/U"}]}
                }
            }),
        )];
        let text = crate::render(crate::Language::Python, &tools);
        assert!(
            text.contains("*, p: Any = ..., q: str | int = ..."),
            "{text}"
        );
    }

    #[test]
    fn a_chain_of_names_keeps_the_docs_of_the_links_it_skips() {
        // `A` names `B`, which names `C`: both are shortened to name `C`, so
        // nothing refers to `B` any more, but its doc is still printed, as
        // TypeScript prints it.
        let tools = vec![ToolDef::new(
            "t",
            json!({
                "type": "object",
                "$defs": {
                    "A": {"$ref": "#/$defs/B", "description": "An a."},
                    "B": {"$ref": "#/$defs/C", "description": "A b."},
                    "C": {"type": "object", "properties": {"n": {"type": "string"}}},
                    "D": {"$ref": "#/$defs/C"}
                },
                "properties": {"a": {"$ref": "#/$defs/A"}, "d": {"$ref": "#/$defs/D"}},
                "required": ["a"]
            }),
        )];
        for language in [crate::Language::Python, crate::Language::TypeScript] {
            let text = crate::render(language, &tools);
            assert_holds(&text, &["An a.", "A b."]);
        }
        let text = crate::render(crate::Language::Python, &tools);
        assert_holds(&text, &["# A b.\nB: TypeAlias = 'C'"]);
        // A link without a doc of its own is not printed for nothing.
        let bare = ToolDef::new(
            "u",
            json!({
                "type": "object",
                "$defs": {
                    "A": {"$ref": "#/$defs/B"},
                    "B": {"$ref": "#/$defs/C"},
                    "C": {"type": "object", "properties": {"n": {"type": "string"}}}
                },
                "properties": {"a": {"$ref": "#/$defs/A"}}
            }),
        );
        let text = crate::render(crate::Language::Python, &[bare]);
        assert!(!text.contains("B: TypeAlias"), "{text}");
        // A link whose doc a tool's method takes (its arguments became
        // keywords) stays with the method, whatever else uses the end.
        let args = |with_other: bool| {
            let c = json!({"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"]});
            let mut tools = vec![ToolDef::new(
                "t",
                json!({"$ref": "#/$defs/A", "$defs": {
                    "A": {"$ref": "#/$defs/C", "description": "An a."},
                    "C": c
                }}),
            )];
            if with_other {
                tools.push(ToolDef::new(
                    "u",
                    json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/C"}}, "$defs": {"C": c}}),
                ));
            }
            crate::render(crate::Language::Python, &tools)
        };
        for with_other in [false, true] {
            let text = args(with_other);
            assert!(!text.contains("A: TypeAlias"), "{text}");
            assert_holds(&text, &["async def t(self, *, n: str)", "An a."]);
        }
    }

    /// A tool whose arguments are a chain of names, `A -> B -> C`, takes
    /// keyword parameters from `C`, and none of the three is printed: every
    /// link's doc goes to the method, in the chain's order, once.
    #[test]
    fn keyword_arguments_keep_the_docs_of_every_link_of_their_chain() {
        let end =
            json!({"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"]});
        let chain = |tag: &str, end_doc: Option<&str>| {
            let mut c = end.clone();
            if let Some(doc) = end_doc {
                c["description"] = json!(doc);
            }
            json!({"$ref": "#/$defs/A", "$defs": {
                "A": {"$ref": "#/$defs/B", "description": format!("{tag} a.")},
                "B": {"$ref": "#/$defs/C", "description": format!("{tag} b.")},
                "C": c
            }})
        };
        let docstring = |text: &str, method: &str| -> String {
            let at = text
                .find(&format!("async def {method}("))
                .unwrap_or_else(|| panic!("{text}"));
            let (_, rest) = text[at..]
                .split_once("\"\"\"")
                .unwrap_or_else(|| panic!("{text}"));
            rest.split_once("\"\"\"")
                .unwrap_or_else(|| panic!("{text}"))
                .0
                .to_owned()
        };
        let tools = [ToolDef::new("t", chain("T", Some("The end.")))];
        let text = crate::render(crate::Language::Python, &tools);
        assert_holds(&text, &["async def t(self, *, n: str)"]);
        assert_eq!(
            docstring(&text, "t"),
            "T a.\nT b.\nThe end.\n        ",
            "{text}"
        );
        // Two tools whose chains end at one shared `C` each keep their own
        // links' docs, whichever comes first, and `C` keeps its doc in each.
        for other in ["a", "z"] {
            let tools = [
                ToolDef::new(other, chain("Other", None)),
                ToolDef::new("t", chain("T", None)),
            ];
            let text = crate::render(crate::Language::Python, &tools);
            assert_eq!(docstring(&text, "t"), "T a.\nT b.\n        ", "{text}");
            assert_eq!(
                docstring(&text, other),
                "Other a.\nOther b.\n        ",
                "{text}"
            );
        }
        // Arguments that add keys to a chain, and an end that is an
        // intersection with a named part: every name's doc is kept.
        let mut input = chain("T", None);
        input["properties"] = json!({"y": {"type": "string"}});
        input["$defs"]["C"] =
            json!({"allOf": [{"$ref": "#/$defs/D"}, end], "description": "The end."});
        input["$defs"]["D"] = json!({"type": "object", "properties": {"p": {"type": "string"}}, "description": "A part."});
        let text = crate::render(crate::Language::Python, &[ToolDef::new("t", input)]);
        assert_eq!(
            docstring(&text, "t"),
            "T a.\nT b.\nThe end.\nA part.\n        ",
            "{text}"
        );
        // A chain longer than the links followed still ends at its end.
        let mut long = json!({"$ref": "#/$defs/L0", "$defs": {"E": end}});
        long["$defs"]["E"]["description"] = json!("The end.");
        for i in 0..100 {
            let next = if i == 99 {
                "E".to_owned()
            } else {
                format!("L{}", i + 1)
            };
            long["$defs"][format!("L{i}")] = json!({"$ref": format!("#/$defs/{next}")});
        }
        long["$defs"]["L1"]["description"] = json!("Link 1.");
        let text = crate::render(crate::Language::Python, &[ToolDef::new("t", long)]);
        assert_eq!(
            docstring(&text, "t"),
            "Link 1.\nThe end.\n        ",
            "{text}"
        );
    }

    #[test]
    fn parameters_read_lists_of_narrower_items_as_sequences() {
        let array = |items: serde_json::Value| json!({"type": "array", "items": items});
        let numbers = array(json!({"type": "number"}));
        let tool = ToolDef::new(
            "t",
            json!({
                "type": "object",
                "required": ["ns", "nested", "either", "words", "mixed", "ints", "m", "strs", "obj", "any"],
                "properties": {
                    "any": {"type": "object"},
                    "ns": numbers,
                    "nested": array(numbers.clone()),
                    "either": array(json!({"type": ["integer", "null"]})),
                    "words": array(json!({"type": "string"})),
                    "mixed": array(json!({"type": ["string", "number"]})),
                    "ints": array(json!({"type": "integer"})),
                    "m": {"type": "object", "additionalProperties": numbers},
                    "strs": {"type": "object", "additionalProperties": {"type": "string"}},
                    "obj": {"type": "object", "properties": {"inner": numbers}, "required": ["inner"]}
                }
            }),
        )
        .with_output_schema(json!({"type": "object", "required": ["out", "raw"],
            "properties": {"out": numbers, "raw": {"type": "object"}}}));
        let text = crate::render(crate::Language::Python, &[tool]);
        assert_holds(
            &text,
            &[
                "from typing import Any, Literal, Mapping, Protocol, Sequence, TypedDict\n\
                 from typing_extensions import ReadOnly\n\n",
                // Any object: a result's TypedDict is a `Mapping`, no `dict`.
                "any: Mapping[str, Any], ",
                "either: Sequence[int | None], ",
                "ints: list[int], ",
                "m: Mapping[str, Sequence[float]], ",
                "mixed: list[str | float], ",
                "nested: Sequence[Sequence[float]], ",
                "ns: Sequence[float], ",
                "strs: dict[str, str], ",
                "words: list[str]",
                // A class only the arguments use reads its field, read-only
                // (a TypedDict's fields are invariant otherwise); a result's
                // class keeps its exact type.
                "    inner: ReadOnly[Sequence[float]]\n",
                "    out: list[float]\n    raw: dict[str, Any]\n",
            ],
        );
    }

    #[test]
    fn lists_of_classes_a_tool_only_reads_are_sequences() {
        let item = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
        let list_of = |items: serde_json::Value| json!({"type": "array", "items": items});
        let tool = ToolDef::new(
            "t",
            json!({
                "type": "object",
                "required": ["items", "shared", "holder", "labels", "maybe", "sizes", "codes"],
                "properties": {
                    "items": list_of(item.clone()),
                    "shared": list_of(json!({"$ref": "#/$defs/Kept"})),
                    "holder": {"type": "object", "properties": {"rows": list_of(item.clone())}, "required": ["rows"]},
                    "labels": list_of(json!({"$ref": "#/$defs/Label"})),
                    "maybe": list_of(json!({"$ref": "#/$defs/Maybe"})),
                    "sizes": list_of(json!({"$ref": "#/$defs/Size"})),
                    "codes": list_of(json!({"$ref": "#/$defs/Code"}))
                },
                "$defs": {
                    "Kept": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
                    "Label": {"type": "string"},
                    "Maybe": {"anyOf": [item, {"type": "null"}]},
                    "Size": {"$ref": "#/$defs/Real"},
                    "Real": {"type": "number"},
                    "Code": {"type": "integer"}
                }
            }),
        )
        .with_output_schema(json!({
            "type": "object",
            "properties": {"kept": {"type": "array", "items": {"$ref": "#/$defs/Kept"}}},
            "required": ["kept"],
            "$defs": {"Kept": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}}
        }));
        let text = crate::render(crate::Language::Python, &[tool]);
        assert_holds(
            &text,
            &[
                // A parameter takes a list of any class as a `Sequence`, so a
                // list of a result's class with more keys passes: the class a
                // result reaches too, the other, and a class held in one.
                "items: Sequence[MaybeName]",
                "shared: Sequence[Kept]",
                // A class only the arguments use that holds such a list is
                // read-only, with all its fields.
                "    rows: ReadOnly[Sequence[MaybeName]]\n",
                // So is a list of an alias of a union, or of a float through
                // another alias.
                "maybe: Sequence[Maybe]",
                "sizes: Sequence[Size]",
                // A result keeps its exact list, and a list of an alias of a
                // string, or of an integer, stays a list.
                "    kept: list[Kept]\n",
                "labels: list[Label]",
                "codes: list[Code]",
            ],
        );
    }

    #[test]
    fn lists_that_stay_lists_keep_their_items_exact() {
        let may_be_text = |other: serde_json::Value| json!({"type": "array", "items": {"anyOf": [{"type": "string"}, other]}});
        let tool = ToolDef::new(
            "t",
            json!({"type": "object", "required": ["items", "nums"], "properties": {
                "items": may_be_text(json!({"type": "object"})),
                "nums": may_be_text(json!({"type": "array", "items": {"type": "number"}}))}}),
        );
        let text = crate::render(crate::Language::Python, &[tool]);
        // `list` is invariant: a `Mapping` or `Sequence` inside would refuse
        // a result's own `list[str | dict[str, Any]]`.
        assert_holds(
            &text,
            &["items: list[str | dict[str, Any]], nums: list[str | list[float]]"],
        );
    }

    #[test]
    fn argument_classes_are_read_only() {
        let object = |required: serde_json::Value, size: &str| {
            json!({"type": "object", "required": required, "properties": {
                "id": {"type": "integer"}, "name": {"type": "string"}, "size": {"type": size}}})
        };
        let tool = ToolDef::new(
            "t",
            json!({"type": "object", "required": ["loose", "whole"], "properties": {
                "loose": object(json!(["id"]), "integer"),
                "whole": object(json!(["id", "name", "size"]), "number")}}),
        )
        .with_output_schema(
            json!({"type": "object", "required": ["out"], "properties": {
            "out": object(json!(["id", "name", "size"]), "integer")}}),
        );
        let text = crate::render(crate::Language::Python, &[tool]);
        assert_holds(
            &text,
            &[
                // A result's object with `name` fits only a read-only field.
                "class TArgsLoose(TypedDict, total=False):\n    id: Required[ReadOnly[int]]\n    name: ReadOnly[str]\n",
                // Every key required, but a result's `int` size fits only a
                // read-only `float`.
                "class TArgsWhole(TypedDict):\n    id: ReadOnly[int]\n    name: ReadOnly[str]\n    size: ReadOnly[float]\n",
                // What a result reaches stays exact.
                "class TOutputOut(TypedDict):\n    id: int\n    name: str\n    size: int\n",
            ],
        );
    }

    #[test]
    fn classes_that_hold_read_only_classes_read_them_covariantly() {
        let numbers = json!({"type": "array", "items": {"type": "number"}});
        let object = |props: serde_json::Value| {
            let required: Vec<&String> = props.as_object().unwrap().keys().collect();
            json!({"type": "object", "properties": props, "required": required})
        };
        let window = object(json!({"bounds": numbers, "name": {"type": "string"}}));
        let input = object(json!({
            "defs": {"$ref": "#/$defs/Frame"},
            "pane": object(json!({"window": window.clone(), "windows": {"type": "array", "items": window}})),
            "shown": {"$ref": "#/$defs/Shown"},
            "texts": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Loose"}]}},
            "exact": {"$ref": "#/$defs/Kept"}
        }));
        let mut input = input;
        input["$defs"] = json!({
            "Frame": object(json!({"at": numbers})),
            "Shown": {"anyOf": [{"$ref": "#/$defs/Frame"}, {"type": "null"}]},
            "Loose": object(json!({"inner": object(json!({"xs": numbers}))})),
            "Kept": object(json!({"ys": numbers}))
        });
        let mut output = object(json!({"kept": {"$ref": "#/$defs/Kept"}}));
        output["$defs"] = json!({"Kept": object(json!({"ys": numbers}))});
        let tool = ToolDef::new("t", input).with_output_schema(output);
        let text = crate::render(crate::Language::Python, &[tool]);
        assert_holds(
            &text,
            &[
                // Changed by reading alone.
                "class Frame(TypedDict):\n    at: ReadOnly[Sequence[float]]\n",
                "    bounds: ReadOnly[Sequence[float]]\n    name: ReadOnly[str]\n",
                // Holding a read-only class: the field, and a list of it.
                "    window: ReadOnly[Window]\n    windows: ReadOnly[Sequence[Window]]\n",
                // An alias of a read-only class, and a parameter of it.
                "Shown: TypeAlias = 'Frame | None'",
                "shown: Shown",
                // A list whose items may be strings keeps `list`, and what it
                // holds stays exact.
                "texts: list[str | Loose]",
                "class Loose(TypedDict):\n    inner: LooseInner\n",
                "class LooseInner(TypedDict):\n    xs: list[float]\n",
                // What a result reaches stays exact.
                "class Kept(TypedDict):\n    ys: list[float]\n",
            ],
        );
    }

    #[test]
    fn a_chain_of_allof_definitions_merges_until_it_is_too_deep() {
        // D_i = allOf [D_(i-1), {p_i}]: an inheritance chain, two steps a level.
        let chain = |n: usize| {
            let mut defs = serde_json::Map::new();
            defs.insert(
                "D0".into(),
                json!({"type": "object", "properties": {"p0": {"type": "string"}}}),
            );
            for i in 1..=n {
                defs.insert(
                    format!("D{i}"),
                    json!({"allOf": [
                        {"$ref": format!("#/$defs/D{}", i - 1)},
                        {"type": "object", "properties": {format!("p{i}"): {"type": "string"}}}
                    ]}),
                );
            }
            let schema = json!({"type": "object", "properties": {"x": {"$ref": format!("#/$defs/D{n}")}}, "$defs": defs});
            render_all(&lower_borrowed(&[ToolDef::new("t", schema)]))
        };
        // Six levels merge into one class with every key.
        let (text, degradations) = chain(6);
        assert!(
            text.contains("    p0: ReadOnly[str]\n") && text.contains("    p6: ReadOnly[str]\n"),
            "{text}"
        );
        assert_eq!(degradations, []);
        // Forty levels are past the steps a merge follows, and say so.
        let (text, degradations) = chain(40);
        assert!(text.contains("D40: TypeAlias = 'Any'"), "{text}");
        let reasons: Vec<&str> = degradations.iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(
            reasons,
            ["allOf reaches its objects through more than 64 references or nested combinations"]
        );
    }

    #[test]
    fn a_stub_too_large_for_pyright_in_class_syntax_is_functional() {
        let tools = |count: usize| -> Vec<ToolDef> {
            (0..count)
                .map(|t| {
                    let props: serde_json::Map<String, serde_json::Value> = (0..100)
                        .map(|k| (format!("k{t}_{k}"), json!({"type": "string"})))
                        .collect();
                    ToolDef::new(
                        format!("tool_{t}"),
                        json!({"type": "object", "properties": {"o": {"type": "object", "properties": props}}}),
                    )
                })
                .collect()
        };
        // 100 classes of 100 fields: within what pyright analyses.
        let (small, _) = render_all(&lower_borrowed(&tools(100)));
        assert_eq!(small.matches("(TypedDict, total=False):").count(), 100);
        assert_eq!(small.matches(" = TypedDict(").count(), 0);
        // 200 of them: past half of it, so every class is functional.
        let (large, _) = render_all(&lower_borrowed(&tools(200)));
        assert_eq!(large.matches("(TypedDict, total=False):").count(), 0);
        assert_eq!(large.matches(" = TypedDict(").count(), 200);
        assert!(large.contains(
            "Tool0ArgsO = TypedDict(\"Tool0ArgsO\", {\n    \"k0_0\": 'ReadOnly[str]',\n"
        ));
    }

    #[test]
    fn a_definition_that_merges_itself_stays_finite() {
        // `R.self` is R merged with more keys: each merged class would hold
        // the next. Written with `allOf`, and with keywords beside `$ref`.
        for self_ty in [
            json!({"allOf": [{"$ref": "#/$defs/R"}, {"properties": {"extra": {"type": "boolean"}}}]}),
            json!({"$ref": "#/$defs/R", "properties": {"extra": {"type": "boolean"}}}),
        ] {
            let r = json!({"type": "object", "properties": {"self": self_ty}});
            let tools = vec![ToolDef::new(
                "t",
                json!({"type": "object", "properties": {"r": {"$ref": "#/$defs/R"}}, "$defs": {"R": r}}),
            )];
            let lowered = lower_borrowed(&tools);
            let (text, degradations) = render_all(&lowered);
            assert!(
                text.contains(
                    "class RSelf(TypedDict, total=False):\n    extra: ReadOnly[bool]\n    self: ReadOnly[Any]\n"
                ),
                "{text}"
            );
            let found: Vec<(&str, &str)> = degradations
                .iter()
                .map(|d| (d.pointer.as_str(), d.reason.as_str()))
                .collect();
            assert_eq!(
                found,
                [(
                    "/inputSchema/$defs/R/properties/self",
                    "allOf that contains itself through a reference; inside it, that copy is Any"
                )]
            );
        }
    }

    #[test]
    fn literals_and_keys_no_checker_takes_are_widened_and_recorded() {
        let tools = vec![ToolDef::new(
            "t",
            json!({"type": "object", "properties": {
                "big": {"const": 18446744073709551615u64},
                "small": {"const": -9223372036854775808i64},
                "o": {"type": "object", "properties": {"": {"type": "string"}}},
                "m": {"allOf": [
                    {"type": "object", "properties": {"": {"type": "string"}}},
                    {"type": "object", "properties": {"b": {"type": "string"}}}
                ]}
            }}),
        )];
        let lowered = lower_borrowed(&tools);
        let (text, degradations) = render_all(&lowered);
        for line in [
            "big: int = ...",
            "small: int = ...",
            "o: Mapping[str, Any] = ...",
            "m: Mapping[str, Any] = ...",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
        let reasons: Vec<&str> = degradations.iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(
            reasons,
            // In property order: big, m, o, small.
            [
                "an integer literal outside what mypy takes in Literal (-2^63+1 to 2^63-1) is widened to int",
                "an object with an empty property name has no TypedDict; it is a plain dict",
                "an object with an empty property name has no TypedDict; it is a plain dict",
                "an integer literal outside what mypy takes in Literal (-2^63+1 to 2^63-1) is widened to int",
            ]
        );
    }

    #[test]
    fn equal_classes_are_one_but_definitions_keep_their_names() {
        let path = json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]});
        let content = json!({"type": "object", "properties": {"content": {"type": "string"}}, "required": ["content"]});
        let tools = vec![
            ToolDef::new("copy", json!({
                "type": "object",
                "properties": {"from": {"$ref": "#/$defs/Source"}, "to": {"$ref": "#/$defs/Target"}},
                "required": ["from", "to"],
                "$defs": {"Source": path.clone(), "Target": path.clone()}
            }))
            .with_output_schema(content.clone()),
            ToolDef::new("read", path.clone()).with_output_schema(content.clone()),
            ToolDef::new("stat", path).with_output_schema(content),
        ];
        let (text, _) = render_all(&lower_borrowed(&tools));
        for line in [
            "class Source(TypedDict):\n",
            "class Target(TypedDict):\n",
            "class ContentOutput(TypedDict):\n",
            "async def read(self, *, path: str) -> ContentOutput:",
            "async def stat(self, *, path: str) -> ContentOutput:",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
        assert_eq!(text.matches("content: str").count(), 1, "{text}");
    }

    #[test]
    fn a_merged_key_takes_the_narrower_of_two_types_one_admits_all_of() {
        let schema = json!({
            "allOf": [
                {"type": "object", "properties": {"n": {"type": "number"}, "s": {"type": "string"}, "b": {"type": "string"}}},
                {"type": "object", "properties": {"n": {"type": "integer"}, "s": {"enum": ["a", "b"]}, "b": {"type": "boolean"}}}
            ]
        });
        // A member that types the keys it does not list types the others'.
        let values = json!({
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]},
                {"type": "object", "properties": {"c": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
            ]
        });
        let tools = vec![
            ToolDef::new("merge", schema),
            ToolDef::new("values", values),
        ];
        let (text, degradations) = render_all(&lower_borrowed(&tools));
        assert!(
            text.contains("async def values(self, *, a: int, c: str = ..., **extra: int)"),
            "{text}"
        );
        assert!(
            text.contains(r#"async def merge(self, *, b: Any = ..., n: int = ..., s: Literal["a", "b"] = ...)"#),
            "{text}"
        );
        // Only the key whose types share nothing is recorded.
        let reasons: Vec<&str> = degradations.iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [r#"allOf members give the key "b" different types; it is typed Any"#]
        );
    }

    #[test]
    fn a_member_that_is_any_object_lets_other_keys_through_the_keywords() {
        // `{"type": "object"}` beside keywords without a type, or beside an
        // object type: TypeScript declares `{ [key: string]: unknown } & {
        // p?: string }`, and the keyword parameters admit the same calls.
        let implied = json!({
            "type": "object",
            "allOf": [{"properties": {"p": {"type": "string"}}}]
        });
        let beside_object = json!({
            "type": "object",
            "properties": {"p": {"type": "string"}},
            "anyOf": [{"type": "string"}, {"type": "object"}]
        });
        let typed = json!({
            "allOf": [
                {"type": "object", "properties": {"p": {"type": "string"}}},
                {"type": "object", "additionalProperties": {"type": "integer"}},
                {"type": "object"}
            ]
        });
        let listed = json!({
            "allOf": [
                {"type": "object", "properties": {"p": {"type": "string"}}},
                {"type": "object", "properties": {"q": {"type": "string"}}}
            ]
        });
        let tools = vec![
            ToolDef::new("implied", implied),
            ToolDef::new("beside_object", beside_object),
            ToolDef::new("typed", typed),
            ToolDef::new("listed", listed),
        ];
        let (text, _) = render_all(&lower_borrowed(&tools));
        for line in [
            "async def implied(self, *, p: str = ..., **extra: Any) -> Any: ...",
            "async def beside_object(self, *, p: str = ..., **extra: Any) -> Any: ...",
            // `p` is not among the keys the second member lists, so it must be
            // an integer too: nothing is both, and it is Any (recorded).
            "async def typed(self, *, p: Any = ..., **extra: int) -> Any: ...",
            "async def listed(self, *, p: str = ..., q: str = ...) -> Any: ...",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
    }

    #[test]
    fn other_keys_are_keyword_arguments_at_the_root_and_recorded_below() {
        let labelled = json!({
            "type": "object",
            "properties": {"id": {"type": "integer"}},
            "additionalProperties": {"type": "string"}
        });
        let tools = vec![
            ToolDef::new("label", labelled.clone()),
            ToolDef::new(
                "nested",
                json!({"type": "object", "properties": {"item": labelled}}),
            ),
        ];
        let (text, degradations) = render_all(&lower_borrowed(&tools));
        assert!(
            text.contains("async def label(self, *, id: int = ..., **extra: str) -> Any: ..."),
            "{text}"
        );
        let reasons: Vec<&str> = degradations.iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "keys beside the listed properties cannot be declared in a TypedDict; a checker refuses them"
            ]
        );
    }

    #[test]
    fn arguments_are_keywords_where_every_key_can_be_a_parameter() {
        let string = json!({"type": "string"});
        let tools = vec![
            // A key that is a keyword, `self` or mangled keeps one dict.
            ToolDef::new(
                "a_from",
                json!({"type": "object", "properties": {"from": string}}),
            ),
            ToolDef::new(
                "b_self",
                json!({"type": "object", "properties": {"self": string}}),
            ),
            ToolDef::new(
                "c_dunder",
                json!({"type": "object", "properties": {"__x": string}}),
            ),
            // Other keys take a `**` parameter named apart from the keys.
            ToolDef::new(
                "d_extra",
                json!({
                    "type": "object",
                    "properties": {"extra": string},
                    "required": ["extra"],
                    "additionalProperties": {"type": "integer"}
                }),
            ),
            ToolDef::new("e_open", json!({"type": "object"})),
            ToolDef::new(
                "f_closed",
                json!({"type": "object", "additionalProperties": false}),
            ),
            // A tool reached by subscript takes one dict.
            ToolDef::new(
                "g#dash",
                json!({"type": "object", "properties": {"q": string}}),
            ),
            // A dashed name is the method with `_` for each dash.
            ToolDef::new(
                "h-dash",
                json!({"type": "object", "properties": {"q": string}}),
            ),
        ];
        let (text, _) = render_all(&lower_borrowed(&tools));
        for line in [
            "async def a_from(self, args: AFromArgs = ...) -> Any: ...",
            "async def b_self(self, args: BSelfArgs = ...) -> Any: ...",
            "async def c_dunder(self, args: CDunderArgs = ...) -> Any: ...",
            "async def d_extra(self, *, extra: str, **extra_: int) -> Any: ...",
            "async def e_open(self, **kwargs: Any) -> Any: ...",
            "async def f_closed(self) -> Any: ...",
            "Callable[[GDashArgs], Awaitable[Any]]",
            "async def h_dash(self, *, q: str = ...) -> Any: ...",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
    }

    #[test]
    fn a_shared_argument_shape_is_still_keywords_and_no_unused_class() {
        // Equal argument objects become one definition; each tool still
        // lists its keys, and the definition, used by nothing else, is not
        // printed. Used as a result too, it is.
        let point = json!({
            "type": "object",
            "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
            "required": ["x", "y"]
        });
        let tools = vec![
            ToolDef::new("move_to", point.clone()),
            ToolDef::new("line_to", point.clone()),
        ];
        let (text, _) = render_all(&lower_borrowed(&tools));
        assert!(
            text.contains("async def move_to(self, *, x: float, y: float) -> Any: ..."),
            "{text}"
        );
        assert!(!text.contains("TypedDict)"), "{text}");
        let tools = vec![
            ToolDef::new("move_to", point.clone()),
            ToolDef::new("get_position", json!({"type": "object"})).with_output_schema(point),
        ];
        let (text, _) = render_all(&lower_borrowed(&tools));
        assert!(
            text.contains("async def move_to(self, *, x: float, y: float) -> Any: ..."),
            "{text}"
        );
        assert_eq!(text.matches("(TypedDict):").count(), 1, "{text}");
    }

    #[test]
    fn keywords_from_a_definition_keep_its_doc_and_report_once() {
        let tools = vec![
            // A reference to a reference to an object, with a doc.
            ToolDef::new(
                "move_to",
                json!({
                    "$ref": "#/$defs/Q",
                    "$defs": {
                        "Q": {"$ref": "#/$defs/P"},
                        "P": {
                            "type": "object",
                            "description": "Point in pixels.",
                            "properties": {"x": {"type": "number"}},
                            "required": ["x"],
                            "additionalProperties": {"type": "integer"}
                        }
                    }
                }),
            ),
            // `Catalog` is an index's class: a definition takes another name.
            ToolDef::new(
                "pick",
                json!({"type": "object", "properties": {"c": {"$ref": "#/$defs/Catalog"}},
                       "$defs": {"Catalog": {"type": "object", "properties": {"id": {"type": "string"}}}}}),
            ),
        ];
        let (text, degradations) = render_all(&lower_borrowed(&tools));
        assert!(
            text.contains("async def move_to(self, *, x: float, **extra: int) -> Any:\n        \"\"\"Point in pixels.\"\"\""),
            "{text}"
        );
        // The definition is not printed, so its TypedDict's limit on other
        // keys is no one's.
        assert!(!text.contains("class P("), "{text}");
        assert!(degradations.is_empty(), "{degradations:?}");
        assert!(text.contains("class CatalogType(TypedDict"), "{text}");
    }

    #[test]
    fn no_class_takes_the_name_of_a_method() {
        // The tool `Point` binds that name in the class body; the class
        // for the `$defs` entry `Point` is named around it.
        let tools = vec![ToolDef::new(
            "Point",
            json!({
                "type": "object",
                "properties": {"at": {"$ref": "#/$defs/Point"}},
                "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}}}
            }),
        )];
        let (text, _) = render_all(&lower_borrowed(&tools));
        assert!(text.contains("class PointType(TypedDict"), "{text}");
        assert!(
            text.contains("async def Point(self, *, at: PointType = ...) -> Any: ..."),
            "{text}"
        );
    }

    #[test]
    fn halves_share_the_merge_budget_as_one_pass_does() {
        crate::parallel::two_threads();
        // Each tool's arguments are an `allOf` merge that copies three
        // properties, and makes a class for a nested object.
        let tools: Vec<ToolDef> = (0..100)
            .map(|i| {
                ToolDef::new(
                    format!("tool{i:03}"),
                    json!({"allOf": [
                        {"type": "object", "properties": {"a": {"type": "string"}}},
                        {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "integer"}}}, "d": {"type": "null"}}}
                    ]}),
                )
            })
            .collect();
        let lowered = lower_borrowed(&tools);
        let run = |budget: usize| {
            let mut cv = Convert::new(&lowered.defs, false);
            cv.merge_budget = budget;
            let methods: Vec<Option<&str>> = lowered
                .tools
                .iter()
                .map(|t| Some(t.name.as_str()))
                .collect();
            let signatures = convert_tools(&mut cv, &lowered.defs, &lowered.tools, &methods);
            (signatures, cv.classes, cv.degradations, cv.merge_budget)
        };
        // None, some, half, most and all of the merges fit the budget.
        for budget in [0, 40, 150, 290, 1000] {
            let halves = run(budget);
            let one_pass = sequentially(|| run(budget));
            assert_eq!(halves, one_pass, "budget {budget}");
        }
    }
}
