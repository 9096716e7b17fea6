//! Object types that a tool set spells more than once get one name.
//!
//! Servers repeat themselves: the same entity comes back from every tool
//! that returns one, and a result is often the very type a `$ref` already
//! names. Printed inline, each copy costs its full text again in every
//! prompt. After lowering, every object type with at least two properties
//! that occurs more than once (or that equals a definition's body) becomes
//! one definition, and each occurrence a reference to it.
//!
//! Then a property type that comes with the same description in several
//! places (`target: string` described as "Exact target element reference
//! ..." in twenty tools) becomes a described alias (`type Target = string`
//! under that description), and each such property refers to it: every
//! word is still printed, once.
//!
//! The cost stays linear: objects are found top-down, and a copy of an
//! object seen before is counted without being entered, so the nodes inside
//! each distinct object are visited once. Comparing an object hashes and
//! compares its subtree, whose depth the lowering bounds.

use super::ir::{Doc, Extra, Prop, Ty};
use super::lower::{Def, Lowered, LoweredTool, Renumber};
use super::pointer::for_report;
use crate::ident::pascal_case;
use foldhash::{HashMap, HashMapExt};
use hashes::{Keyed, TreeHashes};
use std::collections::hash_map::Entry;

mod hashes;

/// Fewest properties an object needs before a name saves more than it
/// costs (a name is one or two tokens, a property several).
const MIN_PROPS: usize = 2;

/// What the count knows about one object type.
struct Seen<'t> {
    /// Occurrences, a copy inside a repeated object counted once.
    count: usize,
    /// The definition whose body it is, if one is.
    def: Option<usize>,
    /// Where it was first met (`None` for a definition's body), which
    /// gives the name it asks for and the place of the schema holding it;
    /// spelt out only for the shapes that are shared.
    ctx: Option<Ctx<'t>>,
    /// When it was first met, which orders the new definitions.
    order: usize,
}

/// A shared object type, as [`count`] gives it.
struct Shape {
    ty: Ty,
    /// Its hash, as [`TreeHashes`] gives it.
    hash: u64,
    /// The definition whose body it is, if one is.
    def: Option<usize>,
    /// The name it asks for, and the tool and pointer of the schema
    /// holding it (empty for a definition's body).
    base: String,
    tool: String,
    pointer: String,
    order: usize,
}

/// Where the walk stands: the name an object here would ask for, and the
/// schema holding it.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    /// The name the object would start from: given (a root's), or a
    /// property's, to spell in PascalCase. Built only when an object is
    /// first met, since most never need one.
    stem: Stem<'a>,
    /// Whether the walk went through an index signature's values here.
    value: bool,
    /// How many array levels it went through since.
    items: u8,
    tool: &'a str,
    pointer: &'a str,
}

#[derive(Clone, Copy)]
enum Stem<'a> {
    Given(&'a str),
    /// A tool's schema: the tool's name in PascalCase, then a suffix.
    Tool(&'a str, &'static str),
    Property(&'a str),
}

impl Ctx<'_> {
    fn base(&self) -> String {
        let mut base = match self.stem {
            Stem::Given(base) => base.to_owned(),
            Stem::Tool(name, suffix) => pascal_case(name) + suffix,
            Stem::Property(name) => pascal_case(name),
        };
        if self.value {
            base.push_str("Value");
        }
        for _ in 0..self.items {
            base.push_str("Item");
        }
        base
    }

    fn root<'a>(stem: Stem<'a>, tool: &'a str, pointer: &'a str) -> Ctx<'a> {
        Ctx {
            stem,
            value: false,
            items: 0,
            tool,
            pointer,
        }
    }
}

/// Names the repeated object types of `lowered`, then the property types
/// shared with their descriptions ([`share_repeated`], [`share_described`]).
/// Each tool's types are hashed for the counts on the threads that change
/// them ([`each_tool_type`]), and each part of the tools is counted there
/// too, one part after the other ([`each_tool_type_counting`]).
///
/// The tools from `renumber`'s first on may still use their part's numbers
/// for definitions (see [`lower_walks`](super::lower)): the first pass over
/// the tools points them at the joined ones.
pub(crate) fn share(lowered: &mut Lowered, renumber: Option<&Renumber>) {
    let (hashed, described) = share_repeated(lowered, renumber);
    share_described(lowered, hashed, described);
}

/// Gives every repeated object type of `lowered` one definition, and gives
/// the tools' types hashed as they are after, with their described property
/// types counted ([`DescribedCount`]).
///
/// Each count takes the first part of the tools as soon as the pass before
/// it has changed and hashed that part, while the helper may still be at the
/// second, and then goes on with the second part on the thread that changed
/// it ([`each_tool_type_counting`]). It meets the types in the same order as a
/// count after the whole pass.
fn share_repeated(
    lowered: &mut Lowered,
    renumber: Option<&Renumber>,
) -> (ToolHashes, (Vec<Alias>, Vec<TreeHashes>)) {
    // An object with properties prints the same whether or not it admits
    // other keys (`additionalProperties: false` or absent), and input
    // schemas tend to say it where output schemas do not: forgotten first,
    // so the two compare equal.
    for def in &mut lowered.defs {
        visit_mut(&mut def.ty, &mut open_objects);
    }
    let (hashed, (shapes, def_hashes)) = each_tool_type_counting::<Count>(
        &mut lowered.tools,
        &lowered.defs,
        ToolHashes::default(),
        Rehash::Types,
        &|tool, ty, _| match renumber {
            Some(renumber) if tool >= renumber.from => visit_mut(ty, &mut |ty| {
                renumber.one(ty);
                open_objects(ty);
            }),
            _ => visit_mut(ty, &mut open_objects),
        },
    );
    if shapes.is_empty() {
        return rehash_counting_described(lowered, hashed, &|_, _, _| {});
    }
    // Existing definitions keep their ids; new ones follow in the order
    // their shapes were first met, which depends only on the tool set.
    let mut ids: HashMap<Keyed<Ty>, usize> = HashMap::with_capacity(shapes.len());
    for shape in shapes {
        let id = match shape.def {
            Some(id) => id,
            None => {
                lowered.defs.push(Def {
                    key: format!("shared:{:08}", shape.order),
                    base: shape.base,
                    ty: shape.ty.clone(),
                    doc: Doc::default(),
                    tool: shape.tool,
                    pointer: shape.pointer,
                    named: None,
                });
                lowered.defs.len() - 1
            }
        };
        ids.insert(
            Keyed {
                hash: shape.hash,
                key: shape.ty,
            },
            id,
        );
    }
    each_def_hashed(
        &mut lowered.defs,
        &def_hashes,
        TreeHashes::default(),
        &mut |ty, hashes| {
            hashes.each_child_mut(ty, 0, &mut |child, here, _| {
                replace(child, hashes, here, &ids);
            });
        },
    );
    rehash_counting_described(lowered, hashed, &|_, ty, at| {
        if let Some((hashes, at)) = at {
            replace(ty, hashes, at, &ids);
        }
    })
}

/// Calls `f` on each tool's types ([`each_tool_type`]), hashes them with
/// their descriptions, and counts their described property types.
fn rehash_counting_described(
    lowered: &mut Lowered,
    hashed: ToolHashes,
    f: &(impl Fn(usize, &mut Ty, Option<(&TreeHashes, usize)>) + Sync),
) -> (ToolHashes, (Vec<Alias>, Vec<TreeHashes>)) {
    each_tool_type_counting::<DescribedCount>(
        &mut lowered.tools,
        &lowered.defs,
        hashed,
        Rehash::Descriptions,
        f,
    )
}

/// A count over a list's types: the definitions' bodies first, then the
/// tools, one part after the other in order.
trait Counting<'t>: Send {
    /// What the count finds.
    type Found: Send;
    /// Whether it counts anything: a pass without a count (`()`) need not
    /// hand one from thread to thread.
    const COUNTS: bool = true;
    /// Counts in the definitions' bodies.
    fn new(defs: &'t [Def]) -> Self;
    /// Counts in `tools`, whose types `part` holds hashed.
    fn tools(&mut self, tools: &'t [LoweredTool], part: Option<&Part>);
    /// What was found.
    fn finish(self) -> Self::Found;
}

/// The count of nothing, for a pass that only changes and hashes
/// ([`each_tool_type`]).
impl Counting<'_> for () {
    type Found = ();
    const COUNTS: bool = false;
    fn new(_: &[Def]) {}
    fn tools(&mut self, _: &[LoweredTool], _: Option<&Part>) {}
    fn finish(self) {}
}

/// Each tool's input and output types hashed, as [`each_tool_type`] gives
/// them: for each part of the list, the hashes of its tools' trees, and
/// where each tool's input and output start among them.
#[derive(Default)]
struct ToolHashes {
    parts: Vec<Part>,
}

#[cfg(test)]
impl ToolHashes {
    /// Each tool's hashes, and where its input and output start, in order.
    fn roots(&self) -> impl Iterator<Item = (&TreeHashes, usize, Option<usize>)> {
        self.parts.iter().flat_map(|(hashes, roots)| {
            roots
                .iter()
                .map(move |&(input, output)| (hashes, input, output))
        })
    }
}

/// What [`each_tool_type`] hashes after changing the tools' types.
#[derive(Clone, Copy)]
enum Rehash {
    /// Nothing: the hashes given are given back.
    No,
    /// Each type ([`TreeHashes::hash`]).
    Types,
    /// Each property's type with its doc ([`TreeHashes::described`]).
    Descriptions,
}

/// Hashes `tool`'s input and output after those `hashes` holds, and
/// gives where each starts.
fn hash_tool(hashes: &mut TreeHashes, tool: &LoweredTool) -> (usize, Option<usize>) {
    let input = hashes.append(&tool.input);
    let output = tool.output.as_ref().map(|ty| hashes.append(ty));
    (input, output)
}

/// One part of [`ToolHashes`]: the hashes of its tools' trees, and where
/// each tool's input and output start among them.
type Part = (TreeHashes, Vec<(usize, Option<usize>)>);

/// Calls `f` on each tool's input and output type, with the tool's index
/// and where that type starts in `before`'s hashes (if any), then hashes
/// the types as `rehash` says. The tools of a long list are split between
/// two threads ([`crate::parallel`]): `f` changes only the type it is
/// given, so the result is the same, and each part's types are hashed on
/// the thread that just changed them, in the room their hashes took
/// before.
fn each_tool_type(
    tools: &mut [LoweredTool],
    before: ToolHashes,
    rehash: Rehash,
    f: &(impl Fn(usize, &mut Ty, Option<(&TreeHashes, usize)>) + Sync),
) -> ToolHashes {
    each_tool_type_counting::<()>(tools, &[], before, rehash, f).0
}

/// [`each_tool_type`], with a count of `C` over `defs` and then over the
/// tools as the pass leaves them: the first part of the tools is counted
/// as soon as it is done (while the helper may still be at the second),
/// then the second part, so the count sees every tool in order, as one
/// walk after the pass would.
///
/// The second part is counted on the thread that changed it, the count
/// handed over to it: reading those types on the other thread would move
/// them into its cache, and the next pass, which changes them on the
/// helper again, would have to take them back (at 1,000 tools the helper
/// ran its half of a pass 1.5 to 2.6 times slower than this thread would).
fn each_tool_type_counting<'t, C: Counting<'t>>(
    tools: &'t mut [LoweredTool],
    defs: &'t [Def],
    before: ToolHashes,
    rehash: Rehash,
    f: &(impl Fn(usize, &mut Ty, Option<(&TreeHashes, usize)>) + Sync),
) -> (ToolHashes, C::Found) {
    let run = |first: usize, tools: &mut [LoweredTool], part: Option<Part>| -> Option<Part> {
        let fresh = || match rehash {
            Rehash::Descriptions => TreeHashes::for_descriptions(),
            Rehash::No | Rehash::Types => TreeHashes::default(),
        };
        let Some((old, mut roots)) = part else {
            // Each tool hashed right after it changed, while its types are
            // still in the cache.
            let mut hashes = fresh();
            let mut roots = Vec::with_capacity(tools.len());
            for (i, tool) in tools.iter_mut().enumerate() {
                f(first + i, &mut tool.input, None);
                if let Some(ty) = &mut tool.output {
                    f(first + i, ty, None);
                }
                if !matches!(rehash, Rehash::No) {
                    roots.push(hash_tool(&mut hashes, tool));
                }
            }
            return (!matches!(rehash, Rehash::No)).then_some((hashes, roots));
        };
        if matches!(rehash, Rehash::No) {
            for (i, (tool, &(input, output))) in tools.iter_mut().zip(&roots).enumerate() {
                f(first + i, &mut tool.input, Some((&old, input)));
                if let (Some(ty), Some(at)) = (&mut tool.output, output) {
                    f(first + i, ty, Some((&old, at)));
                }
            }
            return Some((old, roots));
        }
        // Each tool is changed, then hashed again at once, in the room its
        // old hashes took: `f` only puts names in place of types, so a
        // tool's new hashes are never more than its old ones, and those of
        // the tools after it are still there to read.
        let mut old = old;
        let mut one = fresh();
        let mut new: Option<TreeHashes> = None;
        let mut written = 0;
        for i in 0..tools.len() {
            let (input, output) = roots[i];
            let tool = &mut tools[i];
            f(first + i, &mut tool.input, Some((&old, input)));
            if let (Some(ty), Some(at)) = (&mut tool.output, output) {
                f(first + i, ty, Some((&old, at)));
            }
            one.clear_keeping_kind();
            let (input, output) = hash_tool(&mut one, tool);
            let old_end = roots.get(i + 1).map_or(old.len(), |&(next, _)| next);
            match &mut new {
                None if old.write_at(written, old_end, &one) => {}
                // Never so far; should a change ever add types, the rest
                // is hashed apart from the old hashes it still reads.
                None => new = Some(old.first_of(written, &one).with(&one)),
                Some(new) => new.append_all(&one),
            }
            roots[i] = (written + input, output.map(|at| written + at));
            written += one.len();
        }
        Some(match new {
            Some(new) => (new, roots),
            None => {
                old.truncate_like(written, &one);
                (old, roots)
            }
        })
    };
    debug_assert!(
        before.parts.is_empty()
            || before
                .parts
                .iter()
                .map(|(_, roots)| roots.len())
                .sum::<usize>()
                == tools.len(),
        "the hashes are of these tools"
    );
    let mut parts = before.parts.into_iter();
    let (first, second) = (parts.next(), parts.next());
    // The parts the hashes were made in, or halves.
    let at = first.as_ref().map_or_else(
        || crate::parallel::split_point(tools.len()),
        |(_, roots)| roots.len(),
    );
    let (first_tools, second_tools) = tools.split_at_mut(at.min(tools.len()));
    let split = first_tools.len();
    let run = &run;
    if second_tools.is_empty() {
        let a = run(0, first_tools, first);
        let mut count = C::new(defs);
        count.tools(first_tools, a.as_ref());
        return (
            ToolHashes {
                parts: a.into_iter().collect(),
            },
            count.finish(),
        );
    }
    if !C::COUNTS {
        let (a, b) = crate::parallel::join(
            || run(0, first_tools, first),
            || run(split, second_tools, second),
        );
        let parts = a.into_iter().chain(b).collect();
        return (ToolHashes { parts }, C::new(defs).finish());
    }
    // Should the first part unwind, `give` goes with it, and the second
    // part hears that no count will come (`join` then passes the panic on).
    let (give, handed) = std::sync::mpsc::sync_channel(1);
    let (a, (b, found)) = crate::parallel::join(
        move || {
            let a = run(0, first_tools, first);
            let mut count = C::new(defs);
            count.tools(first_tools, a.as_ref());
            // Its one slot is free, so this does not wait.
            let _ = give.send(count);
            a
        },
        move || {
            let b = run(split, second_tools, second);
            let found = handed.recv().ok().map(|mut count: C| {
                count.tools(second_tools, b.as_ref());
                count.finish()
            });
            (b, found)
        },
    );
    let Some(found) = found else {
        unreachable!("the first part ended without its count, so it unwound")
    };
    let parts = a.into_iter().chain(b).collect();
    (ToolHashes { parts }, found)
}

/// Fewest characters of description that, repeated, pay for an alias: the
/// alias costs its name, `type`, `=` and punctuation (about eight tokens),
/// and a token is about four characters of prose.
const MIN_SAVED_CHARS: usize = 32;

/// A described property type, as the alias pass counts it: where it was
/// first met (the property, and the tool and pointer of the schema holding
/// it), spelt out only for the types that are shared.
struct Described<'t> {
    count: usize,
    name: &'t str,
    tool: &'t str,
    pointer: &'t str,
    order: usize,
    chars: usize,
}

/// A described property type worth an alias, as [`count_described`] gives it.
struct Alias {
    ty: Ty,
    doc: Doc,
    /// The hash of the type with the description ([`TreeHashes::described`]).
    hash: u64,
    base: String,
    tool: String,
    pointer: String,
    order: usize,
}

/// Gives every property type that several properties share together with
/// their description one described alias. `hashed` holds the tools' types
/// hashed as they are, and `counted` what [`DescribedCount`] found in them.
fn share_described(
    lowered: &mut Lowered,
    hashed: ToolHashes,
    (shared, def_hashes): (Vec<Alias>, Vec<TreeHashes>),
) {
    if shared.is_empty() {
        return;
    }
    let mut ids: HashMap<Keyed<(Ty, Doc)>, usize> = HashMap::with_capacity(shared.len());
    for alias in shared {
        lowered.defs.push(Def {
            key: format!("described:{:08}", alias.order),
            base: alias.base,
            ty: alias.ty.clone(),
            doc: alias.doc.clone(),
            tool: alias.tool,
            pointer: alias.pointer,
            named: None,
        });
        ids.insert(
            Keyed {
                hash: alias.hash,
                key: (alias.ty, alias.doc),
            },
            lowered.defs.len() - 1,
        );
    }
    // An alias's body is a property's type, never a property, so no alias
    // comes to refer to itself.
    each_def_hashed(
        &mut lowered.defs,
        &def_hashes,
        TreeHashes::for_descriptions(),
        &mut |ty, hashes| refer(ty, hashes, 0, &ids),
    );
    each_tool_type(&mut lowered.tools, hashed, Rehash::No, &|_, ty, at| {
        if let Some((hashes, at)) = at {
            refer(ty, hashes, at, &ids);
        }
    });
}

/// Points every property in `ty` (the type at `at` in `hashes`) whose type
/// and description have an alias at the alias.
fn refer(ty: &mut Ty, hashes: &TreeHashes, at: usize, ids: &HashMap<Keyed<(Ty, Doc)>, usize>) {
    hashes.each_child_mut(ty, at, &mut |child, here, doc| {
        if let Some(doc) = doc
            && !doc.is_empty()
        {
            // Moved out to be looked up, and back unless it is shared.
            let key = Keyed {
                hash: hashes.described(here),
                key: (std::mem::take(child), std::mem::take(doc)),
            };
            match ids.get(&key) {
                Some(&id) => {
                    *child = Ty::Named(id);
                    return;
                }
                None => (*child, *doc) = key.key,
            }
        }
        refer(child, hashes, here, ids);
    });
}

/// The count of described property types: the definitions' bodies first
/// ([`DescribedCount::new`]), then the tools, part by part in order
/// ([`DescribedCount::tools`]). A repeat is counted without being entered,
/// as [`Count`] does.
struct DescribedCount<'t> {
    seen: HashMap<Keyed<(&'t Ty, &'t Doc)>, Described<'t>>,
    order: usize,
    todo: Vec<(&'t Ty, usize)>,
    inside: Vec<(&'t Ty, usize)>,
    def_hashes: Vec<TreeHashes>,
}

impl<'t> Counting<'t> for DescribedCount<'t> {
    type Found = (Vec<Alias>, Vec<TreeHashes>);

    /// Counts the described property types in the definitions' bodies.
    fn new(defs: &'t [Def]) -> DescribedCount<'t> {
        let def_hashes = hash_defs(defs, TreeHashes::for_descriptions);
        let mut count = DescribedCount {
            seen: HashMap::new(),
            order: 0,
            todo: Vec::new(),
            inside: Vec::new(),
            def_hashes: Vec::new(),
        };
        for (def, hashes) in defs.iter().zip(&def_hashes) {
            count.root(hashes, 0, &def.ty, &def.tool, &def.pointer);
        }
        count.def_hashes = def_hashes;
        count
    }

    /// Counts the described property types of `tools`, hashed in `part`.
    fn tools(&mut self, tools: &'t [LoweredTool], part: Option<&Part>) {
        let Some((hashes, roots)) = part else { return };
        for (tool, &(input, output)) in tools.iter().zip(roots) {
            self.root(hashes, input, &tool.input, &tool.name, "/inputSchema");
            if let (Some(ty), Some(at)) = (&tool.output, output) {
                self.root(hashes, at, ty, &tool.name, "/outputSchema");
            }
        }
    }

    /// The described property types worth an alias, in the order first
    /// met, and the definitions' bodies hashed.
    fn finish(self) -> (Vec<Alias>, Vec<TreeHashes>) {
        let mut shared: Vec<Alias> = (self.seen.into_iter())
            .filter(|(_, d)| d.count >= 2 && (d.count - 1) * d.chars >= MIN_SAVED_CHARS)
            .map(|(key, d)| Alias {
                ty: key.key.0.clone(),
                doc: key.key.1.clone(),
                hash: key.hash,
                base: pascal_case(d.name),
                tool: for_report(d.tool),
                pointer: for_report(d.pointer),
                order: d.order,
            })
            .collect();
        shared.sort_by_key(|alias| alias.order);
        (shared, self.def_hashes)
    }
}

impl<'t> DescribedCount<'t> {
    /// Counts those in `root`, the type at `start` in `hashes`, of the
    /// schema at `pointer` in `tool`.
    fn root(
        &mut self,
        hashes: &TreeHashes,
        start: usize,
        root: &'t Ty,
        tool: &'t str,
        pointer: &'t str,
    ) {
        let DescribedCount {
            seen,
            order,
            todo,
            inside,
            ..
        } = self;
        todo.push((root, start));
        while let Some((ty, at)) = todo.pop() {
            hashes.each_child(ty, at, &mut |child, here, step| {
                if let Step::Property(prop) = step
                    && !prop.doc.is_empty()
                {
                    let key = Keyed {
                        hash: hashes.described(here),
                        key: (&prop.ty, &prop.doc),
                    };
                    match seen.entry(key) {
                        Entry::Occupied(mut d) => {
                            d.get_mut().count += 1;
                            return;
                        }
                        Entry::Vacant(entry) => {
                            let notes: usize = prop
                                .doc
                                .notes
                                .iter()
                                .map(|(k, v)| k.len() + v.len() + 2)
                                .sum();
                            let chars = prop.doc.text.as_deref().map_or(0, str::len) + notes;
                            entry.insert(Described {
                                count: 1,
                                name: &prop.name,
                                tool,
                                pointer,
                                order: *order,
                                chars,
                            });
                            *order += 1;
                        }
                    }
                }
                inside.push((child, here));
            });
            // In order: the first child is met first.
            todo.extend(inside.drain(..).rev());
        }
    }
}

/// How a type stands inside the one around it.
#[derive(Clone, Copy)]
pub(crate) enum Step<'t> {
    /// The type of this property.
    Property(&'t Prop),
    /// The type of an index signature's values.
    Value,
    /// An array's or a tuple's items.
    Item,
    /// A member of a union or an intersection.
    Member,
}

/// Which definitions `roots` reach, directly or through other definitions
/// (by [`each_child`]), each entered once.
pub(crate) fn reached_defs<'t>(
    roots: impl IntoIterator<Item = &'t Ty>,
    defs: &'t [Def],
) -> Vec<bool> {
    let mut reached = vec![false; defs.len()];
    let mut todo: Vec<&Ty> = roots.into_iter().collect();
    while let Some(ty) = todo.pop() {
        if let Ty::Named(id) = ty {
            if let Some(seen) = reached.get_mut(*id)
                && !std::mem::replace(seen, true)
            {
                todo.push(&defs[*id].ty);
            }
            continue;
        }
        each_child(ty, &mut |child, _| todo.push(child));
    }
    reached
}

/// Calls `f` on each type directly inside `ty`, with how it stands there.
pub(crate) fn each_child<'t>(ty: &'t Ty, f: &mut impl FnMut(&'t Ty, Step<'t>)) {
    match ty {
        Ty::Object(obj) => {
            for prop in &obj.props {
                f(&prop.ty, Step::Property(prop));
            }
            if let Extra::Values(values) = &obj.extra {
                f(values, Step::Value);
            }
        }
        Ty::Array(item) => f(item, Step::Item),
        Ty::Tuple(tuple) => {
            for item in tuple.items.iter().chain(tuple.rest.as_deref()) {
                f(item, Step::Item);
            }
        }
        Ty::Union(members) | Ty::Inter(members, _) => {
            for member in members {
                f(member, Step::Member);
            }
        }
        Ty::Unknown
        | Ty::Never
        | Ty::Null
        | Ty::Bool
        | Ty::Int
        | Ty::Num
        | Ty::Str
        | Ty::Lit(_)
        | Ty::Named(_) => {}
    }
}

/// Calls `f` on each definition's body with its hashes: those in `known`,
/// made for the definitions there before, and for each added since, `fresh`
/// filled with its own.
fn each_def_hashed(
    defs: &mut [Def],
    known: &[TreeHashes],
    mut fresh: TreeHashes,
    f: &mut impl FnMut(&mut Ty, &TreeHashes),
) {
    for (id, def) in defs.iter_mut().enumerate() {
        match known.get(id) {
            Some(hashes) => f(&mut def.ty, hashes),
            None => {
                fresh.of(&def.ty);
                f(&mut def.ty, &fresh);
            }
        }
    }
}

/// Each definition's body hashed, into hashes that `new` makes.
fn hash_defs(defs: &[Def], new: fn() -> TreeHashes) -> Vec<TreeHashes> {
    (defs.iter())
        .map(|def| {
            let mut hashes = new();
            hashes.of(&def.ty);
            hashes
        })
        .collect()
}

/// The count of repeated object types: the definitions' bodies first
/// ([`Count::new`]), then the tools, part by part in order
/// ([`Count::tools`]).
struct Count<'t> {
    counter: Counter<'t>,
    /// Each definition's body hashed once, for both passes over them.
    def_hashes: Vec<TreeHashes>,
}

impl<'t> Counting<'t> for Count<'t> {
    type Found = (Vec<Shape>, Vec<TreeHashes>);

    /// Counts the definitions' bodies, and what is inside them.
    fn new(defs: &'t [Def]) -> Count<'t> {
        let mut seen: HashMap<Keyed<&Ty>, Seen> = HashMap::new();
        let mut order = 0;
        let def_hashes = hash_defs(defs, TreeHashes::default);
        // Definitions' bodies first: an object equal to one becomes a
        // reference to it rather than a second name.
        for (id, (def, hashes)) in defs.iter().zip(&def_hashes).enumerate() {
            if let Ty::Object(obj) = &def.ty
                && obj.props.len() >= MIN_PROPS
                && let Entry::Vacant(entry) = seen.entry(Keyed {
                    hash: hashes.hash(0),
                    key: &def.ty,
                })
            {
                entry.insert(Seen {
                    count: 1,
                    def: Some(id),
                    ctx: None,
                    order,
                });
                order += 1;
            }
        }
        let mut counter = Counter { seen, order };
        for (def, hashes) in defs.iter().zip(&def_hashes) {
            let ctx = Ctx::root(Stem::Given(&def.base), &def.tool, &def.pointer);
            counter.walk_within(hashes, &def.ty, 0, ctx);
        }
        Count {
            counter,
            def_hashes,
        }
    }

    /// Counts the types of `tools`, hashed in `part`.
    fn tools(&mut self, tools: &'t [LoweredTool], part: Option<&Part>) {
        let Some((hashes, roots)) = part else { return };
        for (tool, &(input, output)) in tools.iter().zip(roots) {
            let ctx = Ctx::root(Stem::Tool(&tool.name, "Args"), &tool.name, "/inputSchema");
            self.counter.walk(hashes, &tool.input, input, ctx);
            if let (Some(ty), Some(at)) = (&tool.output, output) {
                let ctx = Ctx::root(
                    Stem::Tool(&tool.name, "Output"),
                    &tool.name,
                    "/outputSchema",
                );
                self.counter.walk(hashes, ty, at, ctx);
            }
        }
    }

    /// The object types worth a name, each with what the count found, in
    /// the order they were first met, and the definitions' bodies hashed.
    fn finish(self) -> (Vec<Shape>, Vec<TreeHashes>) {
        let mut shapes: Vec<Shape> = (self.counter.seen.into_iter())
            .filter(|(_, s)| s.count >= 2)
            .map(|(key, s)| Shape {
                ty: key.key.clone(),
                hash: key.hash,
                def: s.def,
                base: s.ctx.as_ref().map(Ctx::base).unwrap_or_default(),
                tool: s.ctx.map(|c| for_report(c.tool)).unwrap_or_default(),
                pointer: s.ctx.map(|c| for_report(c.pointer)).unwrap_or_default(),
                order: s.order,
            })
            .collect();
        shapes.sort_by_key(|shape| shape.order);
        (shapes, self.def_hashes)
    }
}

/// The count of object types, as it walks one tree after another.
struct Counter<'t> {
    seen: HashMap<Keyed<&'t Ty>, Seen<'t>>,
    order: usize,
}

impl<'t> Counter<'t> {
    /// Counts `ty` (the type at `at` in the tree's `hashes`) and, the first
    /// time it is met, what is inside it.
    fn walk(&mut self, hashes: &TreeHashes, ty: &'t Ty, at: usize, ctx: Ctx<'t>) {
        if let Ty::Object(obj) = ty
            && obj.props.len() >= MIN_PROPS
        {
            let key = Keyed {
                hash: hashes.hash(at),
                key: ty,
            };
            match self.seen.entry(key) {
                Entry::Occupied(mut seen) => {
                    seen.get_mut().count += 1;
                    return;
                }
                Entry::Vacant(entry) => {
                    entry.insert(Seen {
                        count: 1,
                        def: None,
                        ctx: Some(ctx),
                        order: self.order,
                    });
                    self.order += 1;
                }
            }
        }
        self.walk_within(hashes, ty, at, ctx);
    }

    /// Walks the types directly inside `ty`, the type at `at`.
    fn walk_within(&mut self, hashes: &TreeHashes, ty: &'t Ty, at: usize, ctx: Ctx<'t>) {
        hashes.each_child(ty, at, &mut |child, here, step| {
            let ctx = match step {
                Step::Property(prop) => Ctx {
                    stem: Stem::Property(&prop.name),
                    value: false,
                    items: 0,
                    ..ctx
                },
                Step::Value => Ctx {
                    value: true,
                    items: 0,
                    ..ctx
                },
                Step::Item => Ctx {
                    items: ctx.items.saturating_add(1),
                    ..ctx
                },
                Step::Member => ctx,
            };
            self.walk(hashes, child, here, ctx);
        });
    }
}

/// An object with properties and no other keys allowed, as one that says
/// nothing of other keys.
fn open_objects(ty: &mut Ty) {
    if let Ty::Object(obj) = ty
        && !obj.props.is_empty()
        && obj.extra == Extra::Closed
    {
        obj.extra = Extra::Unspecified;
    }
}

/// Calls `f` on `ty` and on every type inside it, outermost first.
pub(super) fn visit_mut(ty: &mut Ty, f: &mut impl FnMut(&mut Ty)) {
    f(ty);
    each_child_mut(ty, &mut |child| visit_mut(child, f));
}

/// Calls `f` on each type directly inside `ty`.
pub(super) fn each_child_mut(ty: &mut Ty, f: &mut impl FnMut(&mut Ty)) {
    each_child_doc_mut(ty, &mut |child, _| f(child));
}

/// Calls `f` on each type directly inside `ty`, with the property's doc
/// where the type is a property's.
fn each_child_doc_mut(ty: &mut Ty, f: &mut impl FnMut(&mut Ty, Option<&mut Doc>)) {
    match ty {
        Ty::Object(obj) => {
            for prop in &mut obj.props {
                f(&mut prop.ty, Some(&mut prop.doc));
            }
            if let Extra::Values(values) = &mut obj.extra {
                f(values, None);
            }
        }
        Ty::Array(item) => f(item, None),
        Ty::Tuple(tuple) => {
            for item in tuple.items.iter_mut().chain(tuple.rest.as_deref_mut()) {
                f(item, None);
            }
        }
        Ty::Union(members) | Ty::Inter(members, _) => {
            for member in members {
                f(member, None);
            }
        }
        Ty::Unknown
        | Ty::Never
        | Ty::Null
        | Ty::Bool
        | Ty::Int
        | Ty::Num
        | Ty::Str
        | Ty::Lit(_)
        | Ty::Named(_) => {}
    }
}

/// `ty` (the type at `at` in `hashes`) as a reference if it is a shared
/// shape, else with the shared shapes inside it replaced.
fn replace(ty: &mut Ty, hashes: &TreeHashes, at: usize, ids: &HashMap<Keyed<Ty>, usize>) {
    if let Ty::Object(obj) = ty
        && obj.props.len() >= MIN_PROPS
    {
        // Moved out to be looked up, and back unless it is shared.
        let key = Keyed {
            hash: hashes.hash(at),
            key: std::mem::take(ty),
        };
        match ids.get(&key) {
            Some(&id) => {
                *ty = Ty::Named(id);
                return;
            }
            None => *ty = key.key,
        }
    }
    hashes.each_child_mut(ty, at, &mut |child, here, _| {
        replace(child, hashes, here, ids)
    });
}

#[cfg(test)]
mod tests {
    use crate::catalog::lower_borrowed;
    use crate::schema::Ty;
    use crate::tool::ToolDef;
    use serde_json::json;

    #[test]
    fn repeated_objects_get_one_name_and_single_keys_stay_inline() {
        let entity = json!({"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}});
        let closed = json!({"type": "object", "additionalProperties": false,
                            "properties": {"id": {"type": "string"}, "name": {"type": "string"}}});
        let small = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
        let tools = vec![
            ToolDef::new("get", json!({"type": "object", "properties": {"e": closed}}))
                .with_output_schema(json!({"type": "object", "properties": {"e": entity, "s": small}})),
            ToolDef::new("list", json!({"type": "object"})).with_output_schema(
                json!({"type": "object", "properties": {"items": {"type": "array", "items": entity}, "s": small}}),
            ),
        ];
        let lowered = lower_borrowed(&tools);
        // One definition: the entity (met first as `get`'s argument `e`),
        // closed or not; the one-key object stays inline.
        assert_eq!(lowered.defs.len(), 1, "{:?}", lowered.defs);
        assert_eq!(lowered.defs[0].base, "E");
        let Ty::Object(get) = &lowered.tools[0].input else {
            panic!()
        };
        assert_eq!(get.props[0].ty, Ty::Named(0));
        let Some(Ty::Object(list)) = &lowered.tools[1].output else {
            panic!()
        };
        assert_eq!(list.props[0].ty, Ty::Array(Box::new(Ty::Named(0))));
        assert!(matches!(list.props[1].ty, Ty::Object(_)));
    }

    /// Every type in `ty`, outermost first, as the hashes hold them.
    fn preorder<'t>(ty: &'t Ty, out: &mut Vec<&'t Ty>) {
        out.push(ty);
        super::each_child(ty, &mut |child, _| preorder(child, out));
    }

    #[test]
    fn each_type_is_hashed_as_it_would_be_alone() {
        // One property, so that sharing leaves the copies in place.
        let item = json!({"type": "object", "properties": {
            "tags": {"type": "array", "description": "Tags.", "items": {"enum": ["a", 1]}}}});
        let schema = json!({"type": "object", "properties": {
            "one": item, "many": {"type": "array", "items": item},
            "pair": {"type": "array", "prefixItems": [item, {"type": "string"}]},
            "map": {"type": "object", "additionalProperties": item}}});
        let tools = vec![ToolDef::new("t", schema)];
        let lowered = lower_borrowed(&tools);
        let root = &lowered.tools[0].input;
        let mut types = Vec::new();
        preorder(root, &mut types);
        let mut whole = super::TreeHashes::default();
        whole.of(root);
        assert_eq!(whole.size(0), types.len());
        let mut alone = super::TreeHashes::default();
        for (at, ty) in types.iter().enumerate() {
            alone.of(ty);
            assert_eq!(whole.hash(at), alone.hash(0), "{ty:?}");
            assert_eq!(whole.size(at), alone.size(0), "{ty:?}");
            for (other_at, other) in types.iter().enumerate() {
                if ty == other {
                    assert_eq!(whole.hash(at), whole.hash(other_at));
                }
            }
        }
        // The four copies of the item are one type, hashed alike; a doc
        // deep inside one makes it another.
        let Ty::Object(obj) = root else { panic!() };
        let mut changed = obj.clone();
        let Ty::Object(one) = &mut changed.props[2].ty else {
            panic!()
        };
        assert_eq!(one.props[0].doc.text.as_deref(), Some("Tags."));
        one.props[0].doc.text = Some("Labels.".into());
        alone.of(&Ty::Object(changed));
        assert_ne!(alone.hash(0), whole.hash(0));
    }

    /// Whether every tool's types sit in `hashed` as hashing each alone
    /// places them.
    fn hashed_as_alone(tools: &[super::LoweredTool], hashed: &super::ToolHashes) -> bool {
        let mut alone = super::TreeHashes::default();
        let mut same = |hashes: &super::TreeHashes, at: usize, ty: &Ty| {
            alone.of(ty);
            (0..alone.len()).all(|i| {
                hashes.hash(at + i) == alone.hash(i) && hashes.size(at + i) == alone.size(i)
            })
        };
        let roots: Vec<_> = hashed.roots().collect();
        roots.len() == tools.len()
            && tools
                .iter()
                .zip(roots)
                .all(|(tool, (hashes, input, output))| {
                    same(hashes, input, &tool.input)
                        && match (&tool.output, output) {
                            (Some(ty), Some(at)) => same(hashes, at, ty),
                            (None, None) => true,
                            _ => false,
                        }
                })
    }

    /// Types changed and hashed again in the room their old hashes took,
    /// whether the change makes them smaller (as sharing does) or, which
    /// sharing never does, larger.
    #[test]
    fn types_changed_are_hashed_again_as_if_alone() {
        use super::{Rehash, ToolHashes, each_tool_type, visit_mut};
        let pair = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
        let tools: Vec<ToolDef> = (0..6)
            .map(|i| {
                ToolDef::new(
                    format!("t{i}"),
                    json!({"type": "object", "properties": {
                    "p": pair, "q": {"type": "array", "items": pair}, "s": {"type": "string"}}}),
                )
                .with_output_schema(json!({"type": "array", "items": {"type": "string"}}))
            })
            .collect();
        let mut lowered = lower_borrowed(&tools).tools;
        let hashed = each_tool_type(
            &mut lowered,
            ToolHashes::default(),
            Rehash::Types,
            &|_, _, _| {},
        );
        assert!(hashed_as_alone(&lowered, &hashed));
        // Smaller: each object of two keys becomes a name, in every tool.
        // Each change reads the old hashes of its type first, which must
        // still be there, unharmed by the hashes written before them.
        let unharmed = |ty: &Ty, old: Option<(&super::TreeHashes, usize)>| {
            let (hashes, at) = old.expect("hashes given");
            let mut alone = super::TreeHashes::default();
            alone.of(ty);
            assert_eq!(
                (hashes.hash(at), hashes.size(at)),
                (alone.hash(0), alone.size(0))
            );
        };
        let smaller = |_: usize, ty: &mut Ty, old: Option<(&super::TreeHashes, usize)>| {
            unharmed(ty, old);
            visit_mut(ty, &mut |ty| {
                if matches!(ty, Ty::Object(o) if o.props.len() == 2) {
                    *ty = Ty::Named(0);
                }
            })
        };
        let hashed = each_tool_type(&mut lowered, hashed, Rehash::Types, &smaller);
        assert!(hashed_as_alone(&lowered, &hashed));
        // Larger, from the third tool on: each string an array of numbers.
        let larger = |tool: usize, ty: &mut Ty, old: Option<(&super::TreeHashes, usize)>| {
            unharmed(ty, old);
            if tool >= 2 {
                visit_mut(ty, &mut |ty| {
                    if *ty == Ty::Str {
                        *ty = Ty::Array(Box::new(Ty::Num));
                    }
                })
            }
        };
        let hashed = each_tool_type(&mut lowered, hashed, Rehash::Types, &larger);
        assert!(hashed_as_alone(&lowered, &hashed));
    }

    #[test]
    fn an_object_equal_to_a_definition_refers_to_it() {
        let point = json!({"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}});
        let tools = vec![
            ToolDef::new(
                "a",
                json!({"$defs": {"Point": point}, "type": "object", "properties": {"p": {"$ref": "#/$defs/Point"}}}),
            )
            .with_output_schema(point.clone()),
            ToolDef::new("b", point.clone()),
        ];
        let lowered = lower_borrowed(&tools);
        assert_eq!(lowered.defs.len(), 1);
        assert_eq!(lowered.defs[0].base, "Point");
        assert_eq!(lowered.tools[0].output, Some(Ty::Named(0)));
        assert_eq!(lowered.tools[1].input, Ty::Named(0));
    }
}
