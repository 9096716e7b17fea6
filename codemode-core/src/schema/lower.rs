//! The one walk from JSON Schema to the type IR.
//!
//! It is total: every input produces a type. A node it cannot express becomes
//! [`Ty::Unknown`] and a [`Degradation`] names it by JSON pointer; its siblings
//! keep their types. Nesting is bounded by [`MAX_DEPTH`] and `$ref` targets are
//! lowered from a work queue, so neither deep input nor recursive definitions
//! can exhaust the stack.

use super::doc::{Place, doc_of};
use super::identity::Identities;
use super::ir::{
    BareKind, Doc, Extra, Lit, Object, Origin, Prop, Tuple, Ty, intersection, is_integer, union,
    weight_within,
};
use super::keywords::{Branch, Dialect, Keywords, Kw};
use super::pointer::{
    REPORT_MAX, cut_for_report, for_report, holds_a_map, local_pointer, map_names_a_base,
    names_a_base, on_the_way_to, push_segment, unescape_segment,
};
use crate::canonical::json_string;
use crate::ident::pascal_case;
use crate::json::{Fields, Json, from_value};
use bumpalo::Bump;
use foldhash::{HashMap, HashSet};
use serde::Serialize;
use serde_json::Value;
use std::rc::Rc;

mod cycles;
mod implied;
mod intersections;

use cycles::{break_alias_cycles, shorten_alias_chains};
use implied::{
    IMPLIED_PER_NODE, Implied, ImpliedMemo, NEST, OTHER_KINDS_DEPTH, Own, REF_HOPS,
    described_kinds, either, implied_kind, members_mention_other_kinds, with_every_other_kind,
};

use intersections::{Cover, bound_kinds, settle};

/// How many schema levels one type expression may nest before the rest of
/// that branch becomes the escape hatch. Each named definition starts again.
pub const MAX_DEPTH: usize = 12;

/// How many arrays may nest inside one another in one type expression.
/// Python's tokenizer refuses a line with 200 open brackets; this cap (with
/// [`MAX_DEPTH`]) keeps every line of the Python SDK far below that, and both
/// languages share it so they degrade the same nodes.
pub const MAX_LIST_NESTING: usize = 8;

/// Why a `$dynamicRef` (or `$recursiveRef`) adds nothing to the type.
const DYNAMIC_REF: &str = "`$dynamicRef` and `$recursiveRef` are not followed, so the SDK \
     does not constrain the value by the schema they name";

/// Why a member was taken to admit every kind (see [`Implied`]).
const TOO_DEEP_TO_JUDGE: &str = "a member nests references or combinators past what the SDK \
     follows to tell whether its keywords bind only objects or arrays, so the SDK admits \
     every other kind there";

/// Why `unevaluatedProperties` was read as any value (see
/// [`Walk::lower_object`]).
const UNEVALUATED_BESIDE_APPLICATORS: &str = "`unevaluatedProperties` applies to the keys that \
     no other keyword evaluates, which depends on the value beside `$ref`, `allOf`, `anyOf`, \
     `oneOf`, `if` or `dependentSchemas`, so the SDK admits any value for keys it does not list";

/// Why the keys an object does not list hold any of several types (see
/// [`Walk::lower_object`]).
const PATTERN_KEYS: &str = "patterns of `patternProperties` (or a pattern and \
     `additionalProperties`) give keys different types, and which keys a pattern matches is \
     not something the SDK can say, so every key the object does not list may hold any of \
     those types";

/// Why a schema in draft 3 became any value (see [`Dialect::Draft3`]).
const DRAFT_3: &str = "the schema names draft 3 in `$schema`, whose keywords the SDK does not \
     read (`required` on each property, `extends`, `disallow`), so it admits any value here";

/// Why keys of conditional branches became optional keys (see
/// [`Walk::branch_keys`]).
const BRANCH_KEYS: &str = "keys that `then`, `else`, `dependentSchemas` or `dependencies` \
     describe are valid only where their branch applies, which the SDK cannot say, so it \
     declares them optional keys of the object whatever the condition";

/// What a search for conditions found (see [`Walk::conditions_within`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Search {
    /// None, everything read.
    NotFound,
    /// None, but a reference led back into a schema still being read,
    /// whose search goes on: the answer is that search's, so it is not
    /// kept for the schema the reference names.
    NotFoundYet,
    /// Cut short before it could tell: there may be conditions.
    Cut,
    Found,
}

impl Search {
    /// What two searches together found: conditions found anywhere, else
    /// a cut anywhere, else nothing.
    fn or(self, other: Search) -> Search {
        self.max(other)
    }

    /// Whether there are, or may be, conditions.
    fn may_hide_keys(self) -> bool {
        self >= Search::Cut
    }
}

/// How many steps (members of combinators, references) below a member
/// [`Walk::conditions_within`] looks for conditions.
const CONDITIONS_DEPTH: usize = 4;

/// How many schemas [`Walk::conditions_within`] reads for one member.
const CONDITIONS_READ: usize = 32;

/// How many keywords the searches for conditions read for one tool, in
/// all: what they read behind a reference into a loop is read again for
/// each member that names it, so this bounds a hostile schema's work. Past
/// it a search is cut short, and the object admits other keys (recorded).
const CONDITIONS_WORK: usize = 1 << 20;

/// Why an object with conditional branches admits any other key (see
/// [`Walk::branch_keys`]).
const BRANCH_KEYS_UNREAD: &str = "conditions (`then`, `else`, `dependentSchemas` or \
     `dependencies`) may name keys that the SDK does not read (behind a `$ref` or `$dynamicRef`, \
     in `allOf`, `anyOf` or `oneOf`, under `patternProperties`, or in further conditions), so \
     it declares that the object admits any other key";

/// The keys every object `schema` admits lacks, when it is only a `not`
/// of them (annotations aside): `{"not": {"required": [key]}}`, or, for
/// several keys, `{"not": {"anyOf": [{"required": [a]}, {"required": [b]}]}}`.
/// `{"not": {"required": [a, b]}}` refuses only objects that hold both, so
/// an object it admits may hold either with any value: it leaves out no
/// key, and neither does any other `not`.
fn only_not_required<'v>(schema: &Json<'v>) -> Option<Vec<&'v str>> {
    let Json::Object(fields) = schema else {
        return None;
    };
    let annotation = |key: &str| matches!(key, "description" | "title" | "$comment");
    if !fields
        .iter()
        .all(|(key, _)| key == "not" || annotation(key))
    {
        return None;
    }
    let Some(Json::Object(not)) = fields.get("not") else {
        return None;
    };
    // The key a schema requires when it is only `{"required": [key]}`.
    let one_key = |fields: Fields<'v>| -> Option<&'v str> {
        if fields.len() != 1 {
            return None;
        }
        let names = fields.get("required")?.as_array()?;
        let key = names.first()?.as_str()?;
        names
            .iter()
            .all(|name| name.as_str() == Some(key))
            .then_some(key)
    };
    if let Some(key) = one_key(*not) {
        return Some(vec![key]);
    }
    if not.len() != 1 {
        return None;
    }
    let Some(Json::Array(members)) = not.get("anyOf") else {
        return None;
    };
    (members.iter())
        .map(|member| match member {
            Json::Object(fields) => one_key(*fields),
            _ => None,
        })
        .collect()
}

/// Why keys an object's `anyOf` or `oneOf` lists became optional keys of
/// any type (see [`Walk::lower_combined`]).
const KEYS_OF_AN_OPEN_UNION: &str = "a member of `anyOf` or `oneOf` admits any value, so \
     the keys the other members list may hold anything; the SDK declares them optional keys \
     of the object, of any type";

/// Why keys of schemas an open union's members refer to were left out
/// (see [`Walk::referenced_keys`]).
const REFERENCED_KEYS_UNREAD: &str = "a member of `anyOf` or `oneOf` admits any value, and \
     the SDK did not read every key that the schemas the other members refer to list (too \
     many, or behind a reference that resolves against an embedded `$id`), so the object \
     may refuse some of those keys";

/// How much one open union reads of the schemas its members refer to, for
/// their keys (see [`Walk::referenced_keys`]): a key costs one, and a
/// reference one more for every 32 bytes of its text. A bound per union
/// keeps many unions that name one large object linear, and depends on
/// nothing but the union, so lowering a list in parts decides alike.
const REFERENCED_PER_UNION: usize = 64;

/// What a text costs from an open union's allowance: one, and one more for
/// every 32 bytes, whether it is a reference followed for keys
/// ([`Walk::referenced_keys`]) or a value of a key typed
/// ([`Walk::referenced_key_type`]).
fn text_cost(text: &str) -> usize {
    1 + text.len() / 32
}

/// Why a `oneOf` was left out (see [`Walk::lower_combined`]).
const ONE_OF_KINDS: &str = "a oneOf whose members without `type` bind objects and arrays \
     admits a value of each kind only where it fails the members of its own kind, which the \
     SDK cannot say, so it leaves the oneOf out";

/// Why required keys that no property describes were left as any value
/// (see [`Walk::lower_object`]).
const UNDESCRIBED_TOO_LARGE: &str = "required keys that no property describes hold what the \
     object's other keys hold, whose type is too large to spell out for each of them, so the \
     SDK admits any value there";

/// A type small enough that each required key the properties leave out
/// may take a copy of it, however many there are (in [`weight_within`] units).
const UNDESCRIBED_SMALL: usize = 16;

/// How much one object's required keys may copy of a larger type, in all.
const UNDESCRIBED_COPIES: usize = 1 << 14;

/// Why implied members were left out of an intersection.
const IMPLIED_LEFT_OUT: &str = "keywords without `type` apply only to objects or arrays, and the \
     rest of the schema admits other values too, so the SDK leaves them out";

/// A schema node the renderer could not express, so it was given the
/// language's escape hatch type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Degradation {
    /// The tool whose schema holds the node (for a definition shared by several
    /// tools, the first of them by name).
    pub tool: String,
    /// JSON pointer to the node, from the tool object: `/inputSchema/properties/x`.
    pub pointer: String,
    /// Why the node could not be expressed.
    pub reason: String,
}

/// A named type, from a `$ref` target.
#[derive(Debug, Clone)]
pub struct Def {
    /// The name it asks for, before collisions and reserved words are resolved.
    pub base: String,
    /// A text that is equal for two definitions exactly when they are the same
    /// type; it orders name assignment independently of input order.
    pub key: String,
    /// The type.
    pub ty: Ty,
    /// Documentation from the definition's schema.
    pub doc: Doc,
    /// The first tool (by name) that reaches the definition.
    pub tool: String,
    /// JSON pointer to the definition, from that tool object.
    pub pointer: String,
    /// The definition this one named before its chain of names was
    /// shortened past it (see `cycles`): what a printer follows to find
    /// the links the chain skips, and their docs.
    pub named: Option<super::ir::DefId>,
}

/// One tool after lowering.
#[derive(Debug, Clone)]
pub struct LoweredTool {
    /// The tool's name.
    pub name: String,
    /// What the tool does.
    pub description: Option<String>,
    /// The type of its argument.
    pub input: Ty,
    /// The type of its result (`None` when it declares no output schema).
    pub output: Option<Ty>,
}

/// A lowered tool set: tools, the named types they share, and degradations.
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The tools, in the order given (normally sorted and deduplicated).
    pub tools: Vec<LoweredTool>,
    /// Named types, indexed by [`DefId`](super::ir::DefId).
    pub defs: Vec<Def>,
    /// Every node that fell to the escape hatch.
    pub degradations: Vec<Degradation>,
    /// Nodes only the TypeScript SDK widens (where Python has an exact
    /// type).
    pub typescript_degradations: Vec<Degradation>,
}

/// A tool as the lowering reads it: its schemas as trees in an arena.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ToolSource<'v> {
    pub(crate) name: &'v str,
    pub(crate) description: Option<&'v str>,
    pub(crate) input: &'v Json<'v>,
    pub(crate) output: Option<&'v Json<'v>>,
    /// Where the tool's tree and text lie, when read from a list.
    pub(crate) footprint: crate::prefetch::Footprint,
}

/// Lowers every tool's input and output schema. Definitions reached from
/// several tools are shared when they are the same type, and repeated
/// shapes are named once, by [`Unshared::share`] afterwards.
///
/// A long list is lowered as two halves on two threads and joined
/// ([`join`]); the result is exactly that of one walk over the whole list.
///
/// The trees the sources point into are no longer needed once this
/// returns; drop them before [`Unshared::share`], so that its memory can
/// be reused there instead of fresh pages taken.
pub(crate) fn lower_tools<'v>(tools: impl ExactSizeIterator<Item = ToolSource<'v>>) -> Unshared {
    let (lowered, renumber) = lower_walks(tools, false);
    Unshared { lowered, renumber }
}

/// Tools lowered, their repeated shapes not yet shared: what
/// [`lower_tools`] gives, which owns nothing of its sources.
pub(crate) struct Unshared {
    lowered: Lowered,
    renumber: Option<Renumber>,
}

impl Unshared {
    /// The tools with their repeated shapes named once.
    pub(crate) fn share(self) -> Lowered {
        let Unshared {
            mut lowered,
            renumber,
        } = self;
        super::share::share(&mut lowered, renumber.as_ref());
        // Again, on the types as printed: a shape named by sharing makes a
        // tuple lighter, which can let TypeScript print it as one tuple per
        // length, whose members it defers differently (see `cycles`).
        let before = lowered.degradations.len();
        break_alias_cycles(&mut lowered.defs, &mut lowered.degradations);
        shorten_alias_chains(&mut lowered.defs);
        if lowered.degradations.len() > before {
            lowered.degradations.sort();
            lowered.degradations.dedup();
        }
        lowered
    }
}

/// Lowers every tool's schemas for a check of arguments, which must judge
/// only what the schema certainly forbids. Unlike [`lower_tools`]:
/// - repeated shapes are not shared, so every object keeps whether it
///   admits other keys (the printed SDK need not say);
/// - a schema without `type` whose keywords describe an object or an array
///   admits any other kind of value too, as JSON Schema has it (the SDK
///   declares the object or array, which is what such schemas mean);
/// - `patternProperties` without `additionalProperties` leave other keys
///   free, since the check cannot tell which keys a pattern matches (the
///   SDK declares them as holding any value).
#[cfg(feature = "check")]
pub(crate) fn lower_for_check<'v>(tools: impl ExactSizeIterator<Item = ToolSource<'v>>) -> Lowered {
    let (mut lowered, renumber) = lower_walks(tools, true);
    if let Some(renumber) = renumber {
        renumber.apply(&mut lowered.tools);
    }
    lowered
}

/// The definitions' numbers that the tools from `from` on still use (the
/// second part's, before [`join`]), and the number each has after.
pub(crate) struct Renumber {
    pub(crate) from: usize,
    ids: Vec<usize>,
}

impl Renumber {
    /// Points every named type in the types of `tools` (the whole list),
    /// from [`from`](Self::from) on, at its number after the join.
    fn apply(&self, tools: &mut [LoweredTool]) {
        for tool in &mut tools[self.from..] {
            renumber_refs(&mut tool.input, &self.ids);
            if let Some(output) = &mut tool.output {
                renumber_refs(output, &self.ids);
            }
        }
    }

    /// Renumbers `ty` itself, a type of a tool from [`from`](Self::from)
    /// on, for a walk that visits every type of the tool but not what an
    /// intersection recorded as implied (which this also renumbers).
    pub(crate) fn one(&self, ty: &mut Ty) {
        match ty {
            Ty::Named(id) => *id = self.ids[*id],
            Ty::Inter(_, origin) => {
                for implied in &mut origin.implied {
                    renumber_refs(implied, &self.ids);
                }
            }
            _ => {}
        }
    }
}

/// The lowering itself: one walk, or two halves joined. The tools of the
/// second half may still use its own numbers for definitions when there
/// are no intersections to settle: the [`Renumber`] given then points them
/// at the joined ones, for a later pass over every tool to apply on two
/// threads.
fn lower_walks<'v>(
    tools: impl ExactSizeIterator<Item = ToolSource<'v>>,
    checking: bool,
) -> (Lowered, Option<Renumber>) {
    if !crate::parallel::worth_halving(tools.len()) {
        // One walk, taking each tool only when its turn comes, so a tree
        // read for it just before is still in the cache.
        return (finish(lower_part(tools, checking)), None);
    }
    let tools: Vec<ToolSource<'v>> = tools.collect();
    let (a, b) = crate::parallel::halves(
        &tools,
        tools.len() / 2,
        |first| lower_part(first.iter().copied(), checking),
        |second| lower_part(second.iter().copied(), checking),
    );
    match b {
        Some(b) => {
            let (mut joined, renumber) = join(a, b);
            // Settling intersections reads the tools' references.
            if joined.intersections {
                renumber.apply(&mut joined.tools);
                return (finish(joined), None);
            }
            (finish(joined), Some(renumber))
        }
        None => (finish(a), None),
    }
}

/// A key that a schema an open union's member refers to lists: its name,
/// its schema, and the pointer of the schema that lists it.
struct ReferencedKey<'v> {
    name: &'v str,
    schema: &'v Json<'v>,
    holder: Rc<str>,
}

/// The keys of the schema an open union's member refers to, as
/// [`Walk::referenced_keys`] reads them.
struct ReferencedKeys<'v> {
    keys: Vec<ReferencedKey<'v>>,
    /// Whether the member lets no key through that `keys` does not list:
    /// a schema on the chain admits only keys it lists itself
    /// (`additionalProperties: false` without `patternProperties`, its keys
    /// all read before it), or no object at all.
    bounded: bool,
}

/// Whether the `type` keyword `ty` names `object`, as a string or in an
/// array; `None` when it is neither, which each caller reads its own way.
fn names_object(ty: &Json<'_>) -> Option<bool> {
    match ty {
        Json::String(ty) => Some(*ty == "object"),
        Json::Array(types) => Some(types.iter().any(|ty| ty.as_str() == Some("object"))),
        _ => None,
    }
}

/// The types a value of `member` must all be: the parts of an
/// intersection, or the member itself.
fn parts_of(member: &Ty) -> &[Ty] {
    match member {
        Ty::Inter(parts, _) => parts,
        member => std::slice::from_ref(member),
    }
}

/// Which keys an object that a member of an open union admits may hold
/// with a value the member does not type ([`passes`]).
enum Passes<'a> {
    /// None: the member types or refuses every key, or admits no object.
    None,
    /// Any key but these, which it types (any key at all, when empty).
    AllBut(Vec<&'a str>),
}

/// Whether `schema` has conditional branches (as [`Keywords`] reads them
/// in `dialect`), itself or in an `allOf` member: the keys they describe
/// are among its type's keys, though they are typed only where their
/// branch applies.
fn branched(schema: &Json<'_>, dialect: Dialect) -> bool {
    let conditional = |fields: Fields<'_>| Keywords::of(fields, dialect).has_branches();
    let Json::Object(fields) = schema else {
        return false;
    };
    conditional(*fields)
        || matches!(fields.get("allOf"), Some(Json::Array(members))
            if members.iter().any(|m| matches!(m, Json::Object(f) if conditional(*f))))
}

/// Which keys an object that `member` (a member of an open union, lowered)
/// admits may hold with a value the member does not type: those it neither
/// lists nor refuses. `referenced` is what the member's own reference was
/// read to list, if it was read. Any doubt answers "any key", which leaves
/// a key of any type.
fn passes<'a>(member: &'a Ty, referenced: Option<&'a ReferencedKeys<'a>>) -> Passes<'a> {
    match member {
        Ty::Object(object) => match object.extra {
            Extra::Closed => Passes::None,
            _ => Passes::AllBut(object.props.iter().map(|p| p.name.as_str()).collect()),
        },
        Ty::Named(_) => match referenced {
            Some(read) if read.bounded => Passes::None,
            Some(read) => Passes::AllBut(read.keys.iter().map(|k| k.name).collect()),
            None => Passes::AllBut(Vec::new()),
        },
        // A value passes every part: one part that types a key or refuses
        // it does for the whole.
        Ty::Inter(parts, _) => {
            let mut typed = Vec::new();
            for part in parts {
                match passes(part, referenced) {
                    Passes::None => return Passes::None,
                    Passes::AllBut(names) => typed.extend(names),
                }
            }
            Passes::AllBut(typed)
        }
        // The keys of a nested union's members are not among the union's
        // own: one that admits objects may type a key otherwise.
        Ty::Union(members) if members.iter().any(Ty::may_be_object) => Passes::AllBut(Vec::new()),
        Ty::Unknown => Passes::AllBut(Vec::new()),
        // The other kinds admit no object.
        _ => Passes::None,
    }
}

/// Most degradations the report keeps of one body (a tool's schema, or a
/// definition's): the first by place.
const KEPT_PER_BODY: usize = 100;

/// Keeps, of degradations recorded after the walk (by the Python
/// conversion, or the TypeScript printer, of `language`'s SDK), the first
/// [`KEPT_PER_BODY`] of each tool by place, and where a tool had more, one
/// more that says so at the first it leaves out: a schema of a million keys
/// that Python cannot merge does not hold a million records, as the walk's
/// own do not.
pub(crate) fn keep_first_of_each_tool(
    mut records: Vec<Degradation>,
    language: crate::Language,
) -> Vec<Degradation> {
    records.sort_unstable();
    records.dedup();
    let mut kept = Vec::with_capacity(records.len().min(KEPT_PER_BODY + 1));
    let mut of_tool = 0;
    for record in records {
        match kept.last() {
            Some(Degradation { tool, .. }) if *tool == record.tool => of_tool += 1,
            _ => of_tool = 1,
        }
        if of_tool <= KEPT_PER_BODY {
            kept.push(record);
        } else if of_tool == KEPT_PER_BODY + 1 {
            kept.push(Degradation {
                reason: format!(
                    "more nodes of this tool's schemas could not be expressed in {} than \
                     the report lists: it keeps the first {KEPT_PER_BODY} by place",
                    match language {
                        crate::Language::Python => "Python",
                        // JavaScript reads the TypeScript declaration.
                        _ => "TypeScript",
                    }
                ),
                ..record
            });
        }
    }
    kept
}

/// A degradation recorded by a walk.
struct Recorded {
    /// The definition whose body holds it (`None` for a tool's own schema).
    def: Option<usize>,
    degradation: Degradation,
    /// Whether only the TypeScript SDK degrades there.
    typescript_only: bool,
}

/// What one walk over a run of tools gives, before the alias cycles are cut.
struct Part {
    tools: Vec<LoweredTool>,
    defs: Vec<Def>,
    /// Each definition's id, by its identity (see [`Identities`]).
    by_key: HashMap<String, usize>,
    /// Each degradation, with where it is held.
    degradations: Vec<Recorded>,
    /// Whether any intersection was made (most lists have none).
    intersections: bool,
}

fn lower_part<'v>(tools: impl IntoIterator<Item = ToolSource<'v>>, checking: bool) -> Part {
    let mut walk = Walk {
        checking,
        ..Walk::default()
    };
    let mut tools = tools.into_iter().peekable();
    let mut lowered = Vec::with_capacity(tools.size_hint().0);
    while let Some(tool) = tools.next() {
        // The next tool's tree lies elsewhere in the arena (the list is
        // lowered in the order of names, not read in it): asked for now, it
        // is in the cache when its turn comes.
        if let Some(next) = tools.peek() {
            next.footprint.fetch();
        }
        // What is known by a document's address serves only that tool's
        // schemas: no other tool reaches them. Forgotten between tools, the
        // maps stay the size of one tool's, instead of growing with the
        // list into fresh memory.
        walk.ids.forget_documents();
        walk.by_target.clear();
        walk.conditions.clear();
        walk.conditions_read = 0;
        walk.embedded_refs = None;
        let base = pascal_case(tool.name);
        let input = walk.lower_root(Site {
            root: tool.input,
            dialect: Dialect::of(tool.input),
            tool: tool.name,
            field: "inputSchema",
            root_name: format!("{base}Args"),
        });
        let output = tool.output.map(|schema| {
            walk.lower_root(Site {
                root: schema,
                dialect: Dialect::of(schema),
                tool: tool.name,
                field: "outputSchema",
                root_name: format!("{base}Output"),
            })
        });
        lowered.push(LoweredTool {
            name: tool.name.to_owned(),
            description: tool.description.map(str::to_owned),
            input,
            output,
        });
    }
    Part {
        tools: lowered,
        defs: walk.defs,
        by_key: walk.by_key,
        degradations: walk.degradations,
        intersections: walk.intersections,
    }
}

/// Joins the parts of a sorted tool list, `a` lowered from the tools before
/// `b`'s, into what one walk over both gives. One walk numbers definitions
/// in the order it first reaches them and lowers each once, at the first
/// tool that reaches it. So a definition both parts have keeps `a`'s
/// number, body and degradations, and `b`'s copy goes. The rest of `b`'s
/// definitions follow `a`'s in `b`'s order: nothing `b` shares with `a` can
/// reach them, because a definition's identity covers everything it
/// reaches. `b`'s tools keep `b`'s numbers: the [`Renumber`] given says
/// which they become.
fn join(mut a: Part, b: Part) -> (Part, Renumber) {
    // Every definition has one identity, so this is `b.by_key` inverted.
    let mut idents = vec![String::new(); b.defs.len()];
    for (ident, id) in b.by_key {
        idents[id] = ident;
    }
    let first_new = a.defs.len();
    let mut renumber = Vec::with_capacity(b.defs.len());
    let mut fresh = Vec::with_capacity(b.defs.len());
    for (def, ident) in b.defs.into_iter().zip(idents) {
        match a.by_key.get(&ident) {
            Some(&id) => {
                renumber.push(id);
                fresh.push(false);
            }
            None => {
                let id = a.defs.len();
                a.by_key.insert(ident, id);
                a.defs.push(def);
                renumber.push(id);
                fresh.push(true);
            }
        }
    }
    for def in &mut a.defs[first_new..] {
        renumber_refs(&mut def.ty, &renumber);
    }
    let from = a.tools.len();
    a.tools.extend(b.tools);
    a.degradations.extend(
        b.degradations
            .into_iter()
            .filter(|r| r.def.is_none_or(|d| fresh[d]))
            .map(|r| Recorded {
                def: r.def.map(|d| renumber[d]),
                ..r
            }),
    );
    a.intersections |= b.intersections;
    (
        a,
        Renumber {
            from,
            ids: renumber,
        },
    )
}

/// Points every named type in `ty` at its number after a join.
fn renumber_refs(ty: &mut Ty, renumber: &[usize]) {
    let mut todo = vec![ty];
    while let Some(ty) = todo.pop() {
        match ty {
            Ty::Named(id) => *id = renumber[*id],
            Ty::Array(item) => todo.push(item),
            Ty::Tuple(tuple) => {
                todo.extend(&mut tuple.items);
                todo.extend(tuple.rest.as_deref_mut());
            }
            Ty::Object(obj) => {
                todo.extend(obj.props.iter_mut().map(|p| &mut p.ty));
                if let Extra::Values(values) = &mut obj.extra {
                    todo.push(values);
                }
            }
            Ty::Union(members) => todo.extend(members),
            Ty::Inter(members, origin) => {
                todo.extend(members);
                todo.extend(&mut origin.implied);
            }
            Ty::Unknown | Ty::Never | Ty::Null | Ty::Bool | Ty::Int | Ty::Num | Ty::Str => {}
            Ty::Lit(_) => {}
        }
    }
}

/// The lowered tool set, once every root is lowered.
fn finish(part: Part) -> Lowered {
    let Part {
        mut tools,
        mut defs,
        degradations,
        intersections,
        ..
    } = part;
    let (typescript, degradations): (Vec<Recorded>, Vec<Recorded>) =
        degradations.into_iter().partition(|r| r.typescript_only);
    let mut degradations: Vec<Degradation> =
        degradations.into_iter().map(|r| r.degradation).collect();
    let mut typescript: Vec<Degradation> = typescript.into_iter().map(|r| r.degradation).collect();
    typescript.sort();
    typescript.dedup();
    if intersections {
        settle(&mut tools, &mut defs, &mut degradations);
    }
    // Last before sharing (which runs it again): the steps above can take
    // away the member that let TypeScript defer a tuple.
    break_alias_cycles(&mut defs, &mut degradations);
    shorten_alias_chains(&mut defs);
    degradations.sort();
    degradations.dedup();
    Lowered {
        tools,
        defs,
        degradations,
        typescript_degradations: typescript,
    }
}

/// Lowers one free-standing schema (no tool around it).
pub fn lower_schema(schema: &Value) -> (Ty, Vec<Def>, Vec<Degradation>) {
    let bump = Bump::new();
    let root = from_value(schema, &bump);
    let mut walk = Walk::default();
    let ty = walk.lower_root(Site {
        root: &root,
        dialect: Dialect::of(&root),
        tool: "",
        field: "",
        root_name: "Root".to_owned(),
    });
    // The root goes through the steps after the walk as a tool's input
    // would.
    let root = LoweredTool {
        name: String::new(),
        description: None,
        input: ty,
        output: None,
    };
    let mut lowered = finish(Part {
        tools: vec![root],
        defs: walk.defs,
        by_key: walk.by_key,
        degradations: walk.degradations,
        intersections: walk.intersections,
    });
    let ty = lowered.tools.pop().map_or(Ty::Unknown, |root| root.input);
    (ty, lowered.defs, lowered.degradations)
}

/// Where a node lives: its document (for `$ref`), and how to report it.
#[derive(Clone)]
struct Site<'v> {
    root: &'v Json<'v>,
    /// The dialect `root` names.
    dialect: Dialect,
    tool: &'v str,
    field: &'static str,
    root_name: String,
}

struct Pending<'v> {
    id: usize,
    site: Site<'v>,
    node: &'v Json<'v>,
    pointer: String,
}

/// Whether a type read beside the `$ref` `reference` (in `root`) says more
/// than the reference does. A bare `"type": "object"` (or `"array"`) beside
/// a reference to that kind alone is common, and an intersection with it
/// would only lengthen the SDK; beside one that admits other kinds too, it
/// picks its kind.
fn adds_to_a_reference<'v>(beside: &Ty, root: &'v Json<'v>, reference: &'v Json<'v>) -> bool {
    match beside.bare_kind() {
        Some(BareKind::Object) => !only_of_kind(root, reference, "object"),
        Some(BareKind::Array) => !only_of_kind(root, reference, "array"),
        None => *beside != Ty::Unknown,
    }
}

/// Whether the schema `reference` names (in `root`, through references
/// alone) has `kind` as its only `type`, so that a bare `type: kind` beside
/// the reference adds nothing. Anything else may admit other kinds too
/// (`"type": ["null", "object"]`, an `anyOf`), and the two are intersected.
fn only_of_kind<'v>(root: &'v Json<'v>, mut reference: &'v Json<'v>, kind: &str) -> bool {
    for _ in 0..REF_HOPS {
        let Some(Json::Object(fields)) = (reference.as_str())
            .and_then(local_pointer)
            .and_then(|pointer| root.pointer(&pointer))
        else {
            return false;
        };
        if fields.get("nullable").is_some_and(Json::is_true) {
            return false;
        }
        match (fields.get("type"), fields.get("$ref")) {
            (Some(Json::String(ty)), _) => return *ty == kind,
            (Some(Json::Array(types)), _) => {
                return matches!(&types[..], [Json::String(ty)] if *ty == kind);
            }
            (Some(_), _) => return false,
            (None, Some(next)) => reference = next,
            (None, None) => return false,
        }
    }
    false
}

#[derive(Default)]
struct Walk<'v> {
    defs: Vec<Def>,
    by_key: HashMap<String, usize>,
    ids: Identities<'v>,
    by_target: HashMap<(usize, String), usize>,
    /// What [`Walk::conditions_named`] found behind each local `$ref`, by
    /// the reference's document and pointer (`None` while it is read).
    conditions: HashMap<(usize, String), Option<Search>>,
    /// What searches for conditions have read for the tool being lowered,
    /// in keywords (at most [`CONDITIONS_WORK`]).
    conditions_read: usize,
    queue: Vec<Pending<'v>>,
    degradations: Vec<Recorded>,
    /// How many degradations were recorded, kept or not (see
    /// [`Walk::record`]): what tells whether lowering a node recorded one.
    recorded: usize,
    /// Where the body being lowered starts among `degradations`.
    body_start: usize,
    /// Whether the body being lowered recorded degradations past
    /// [`KEPT_PER_BODY`]: of both SDKs, and of the TypeScript SDK only.
    body_past_kept: [bool; 2],
    /// The definition whose body is being lowered (`None`: a tool's schema).
    current: Option<usize>,
    /// Arrays open around the node being lowered.
    lists: usize,
    /// Lowering for a check of arguments ([`lower_for_check`]).
    checking: bool,
    /// Whether any intersection was made.
    intersections: bool,
    /// What [`Implied`] found of schemas references reached (see there),
    /// in the body being lowered (see [`Walk::start_body`]).
    implied_memo: ImpliedMemo,
    /// The work [`Implied`] has done in the body being lowered; it may do
    /// [`IMPLIED_PER_NODE`] for each schema lowered, so that judging members
    /// stays linear in the schemas however they refer to each other.
    implied_work: usize,
    /// Schemas lowered so far in the body being lowered.
    nodes: usize,
    /// The members of unions that let other kinds through which their
    /// keywords imply, from the node being lowered down, for an `allOf`
    /// around it to record (see `distribute` in the `intersections` steps).
    implied_choices: Vec<Ty>,
    /// The keys that the members of an `anyOf` or `oneOf` list when another
    /// member admits any value (so the union is the escape hatch), with the
    /// pointer of the schema that has them: for the object around it (an
    /// `allOf` whose member it is) to declare (see `lower_combined`).
    open_union_keys: Option<(String, Vec<Prop>)>,
    /// The pointer buffer a root's walk starts from, kept between roots so
    /// that each tool does not grow one of its own.
    root_pointer: String,
    /// The last root (by address) a `$ref` was met in, with its `$ref`s
    /// that a base of their own governs ([`embedded_refs`]).
    embedded_refs: Option<(usize, HashSet<usize>)>,
}

impl<'v> Walk<'v> {
    fn lower_root(&mut self, site: Site<'v>) -> Ty {
        let mut ptr = std::mem::take(&mut self.root_pointer);
        ptr.clear();
        self.start_body();
        let mut ty = match site.dialect {
            Dialect::Draft3 => self.degrade(&site, &ptr, DRAFT_3),
            _ => self.lower(&site, site.root, &mut ptr, 0),
        };
        self.finish_body(&site, &ptr);
        self.root_pointer = ptr;
        self.implied_choices.clear();
        // A root that refers to itself (`"$ref": "#"`) is a named type; use
        // the name rather than spelling the same type out twice.
        if let Some(&id) = self
            .by_target
            .get(&(site.root as *const Json as usize, String::new()))
        {
            ty = Ty::Named(id);
        }
        // Definitions are lowered from a queue, never by recursion, so a
        // recursive type costs one entry and a name.
        while let Some(pending) = self.queue.pop() {
            self.start_body();
            self.lists = 0;
            self.current = Some(pending.id);
            let mut ptr = pending.pointer;
            let ty = self.lower(&pending.site, pending.node, &mut ptr, 0);
            self.finish_body(&pending.site, &ptr);
            self.implied_choices.clear();
            let name = &self.defs[pending.id].base;
            let doc = doc_of(
                pending.node,
                Place::Definition { name },
                pending.site.dialect,
            );
            let def = &mut self.defs[pending.id];
            def.ty = ty;
            def.doc = doc;
        }
        self.current = None;
        ty
    }

    /// Before a body (a root's schema, a definition's) is lowered: it
    /// judges its members with an allowance and a memo of its own, so what
    /// it becomes depends on its schema alone, not on what was lowered
    /// before it. Which definitions a tool lowers depends on the tools
    /// before it (one that an earlier tool lowered is not lowered again),
    /// so shared state would make a tool's types depend on the rest of the
    /// list, and on whether it was lowered in halves (see `parallel`).
    fn start_body(&mut self) {
        self.body_start = self.degradations.len();
        self.body_past_kept = [false; 2];
        self.nodes = 0;
        self.implied_work = 0;
        if !self.implied_memo.is_empty() {
            // Cleared in place, a map that one large body grew would be
            // swept whole for every small body after it.
            if self.implied_memo.capacity() > 256 {
                self.implied_memo = ImpliedMemo::default();
            } else {
                self.implied_memo.clear();
            }
        }
    }

    fn degrade(&mut self, site: &Site<'_>, ptr: &str, reason: impl Into<String>) -> Ty {
        self.record(site, ptr, reason.into(), false);
        Ty::Unknown
    }

    /// Records that the TypeScript SDK declares the node at `ptr` wider
    /// than its schema, where the Python SDK need not.
    fn widen_in_typescript(&mut self, site: &Site<'_>, ptr: &str, reason: String) {
        self.record(site, ptr, reason, true);
    }

    fn record(&mut self, site: &Site<'_>, ptr: &str, reason: String, typescript_only: bool) {
        let degradation = Degradation {
            tool: for_report(site.tool),
            pointer: report_pointer(site, ptr),
            reason,
        };
        self.degradations.push(Recorded {
            def: self.current,
            degradation,
            typescript_only,
        });
        self.recorded += 1;
        // Each kind keeps its hundred, so four hundred are past them.
        if self.degradations.len() - self.body_start >= 4 * KEPT_PER_BODY {
            self.keep_first_of_body();
        }
    }

    /// Keeps the body's first [`KEPT_PER_BODY`] degradations in the order
    /// of their places, of each kind (of both SDKs, of the TypeScript SDK
    /// only: one kind does not push the other out of the Python report),
    /// and notes which kinds had more.
    fn keep_first_of_body(&mut self) {
        let body = &mut self.degradations[self.body_start..];
        body.sort_unstable_by(|a, b| {
            (a.typescript_only.cmp(&b.typescript_only))
                .then_with(|| a.degradation.cmp(&b.degradation))
        });
        let mut kept: Vec<Recorded> = Vec::with_capacity(2 * KEPT_PER_BODY);
        let mut of_kind = 0;
        for recorded in self.degradations.drain(self.body_start..) {
            match kept.last() {
                Some(last) if last.typescript_only == recorded.typescript_only => {
                    if last.degradation == recorded.degradation {
                        continue;
                    }
                }
                _ => of_kind = 0,
            }
            if of_kind == KEPT_PER_BODY {
                self.body_past_kept[usize::from(recorded.typescript_only)] = true;
                continue;
            }
            of_kind += 1;
            kept.push(recorded);
        }
        self.degradations.extend(kept);
    }

    /// After a body (whose schema is at `ptr`) is lowered: past
    /// [`KEPT_PER_BODY`] degradations, the report keeps the first by place
    /// and says that there are more, so that a schema of a million nodes
    /// the SDK cannot express does not hold a million records.
    fn finish_body(&mut self, site: &Site<'_>, ptr: &str) {
        if self.degradations.len() - self.body_start > KEPT_PER_BODY {
            self.keep_first_of_body();
        }
        let past = std::mem::take(&mut self.body_past_kept);
        for typescript_only in [false, true] {
            if past[usize::from(typescript_only)] {
                self.degradations.push(Recorded {
                    def: self.current,
                    degradation: Degradation {
                        tool: for_report(site.tool),
                        pointer: report_pointer(site, ptr),
                        reason: format!(
                            "more nodes of this schema could not be expressed than the report \
                             lists: it keeps the first {KEPT_PER_BODY} by place"
                        ),
                    },
                    typescript_only,
                });
            }
        }
    }

    fn lower(&mut self, site: &Site<'v>, node: &'v Json<'v>, ptr: &mut String, depth: usize) -> Ty {
        self.nodes += 1;
        if depth > MAX_DEPTH {
            return self.degrade(site, ptr, format!("nested deeper than {MAX_DEPTH} levels"));
        }
        match node {
            Json::Bool(true) => Ty::Unknown,
            Json::Bool(false) => Ty::Never,
            Json::Object(map) => {
                self.lower_map(site, &Keywords::of(*map, site.dialect), ptr, depth)
            }
            other => {
                let kind = other.kind();
                // A type's name in a schema's place is the likeliest slip
                // (`"properties": {"id": "string"}`): say what was meant.
                let hint = match other {
                    Json::String(name) if TYPE_NAMES.contains(name) => {
                        format!(" (write {{\"type\": \"{name}\"}} for a schema of that type)")
                    }
                    _ => String::new(),
                };
                self.degrade(
                    site,
                    ptr,
                    format!("a schema must be an object or a boolean, not {kind}{hint}"),
                )
            }
        }
    }

    /// Lowers `map[key]` as a child schema, with the pointer extended.
    fn child(
        &mut self,
        site: &Site<'v>,
        node: &'v Json<'v>,
        ptr: &mut String,
        segs: &[&str],
        depth: usize,
    ) -> Ty {
        let len = ptr.len();
        for seg in segs {
            push_segment(ptr, seg);
        }
        let ty = self.lower(site, node, ptr, depth + 1);
        ptr.truncate(len);
        ty
    }

    /// Lowers member `index` of `keyword` (an `allOf`, `anyOf` or `oneOf`)
    /// as [`child`](Self::child) does. When the member is an open union
    /// that leaves its keys for the object around it (see
    /// `open_union_keys`), those keys come back too.
    fn member(
        &mut self,
        site: &Site<'v>,
        item: &'v Json<'v>,
        ptr: &mut String,
        keyword: Kw,
        index: usize,
        depth: usize,
    ) -> (Ty, Vec<Prop>) {
        self.open_union_keys = None;
        let len = ptr.len();
        push_segment(ptr, keyword.name());
        push_segment(ptr, &index.to_string());
        let ty = self.lower(site, item, ptr, depth + 1);
        let keys = match self.open_union_keys.take() {
            Some((at, keys)) if ty == Ty::Unknown && at == *ptr => keys,
            _ => Vec::new(),
        };
        ptr.truncate(len);
        (ty, keys)
    }

    fn lower_map(
        &mut self,
        site: &Site<'v>,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
    ) -> Ty {
        if map.dynamic_ref() && !self.checking {
            self.record(site, ptr, DYNAMIC_REF.to_owned(), false);
        }
        let mut ty = match map.get(Kw::Ref) {
            Some(reference) => {
                let target = self.lower_ref(site, reference, ptr);
                // Since draft 2019-09 the keywords beside a `$ref` apply
                // too, as if both were members of an `allOf`; before it they
                // are not read. A malformed one is recorded and left out.
                let siblings_apply = site.dialect.reads_ref_siblings();
                let beside = if siblings_apply {
                    self.lower_own(site, map, ptr, depth).ok().flatten()
                } else {
                    None
                };
                let adds = (beside.as_ref())
                    .is_some_and(|beside| adds_to_a_reference(beside, site.root, reference));
                // What the target binds, when it lets other kinds through.
                let target_kinds = if siblings_apply && (adds || map.about_other_kinds()) {
                    self.implied_kinds(site, ptr, |p| p.target(reference, REF_HOPS, NEST))
                } else {
                    None
                };
                // Whether a `type`, `enum` or `const` beside says which kinds
                // are meant (one that could not be said does not).
                let bounded = map.has_any(&[Kw::Type, Kw::Enum, Kw::Const])
                    && beside.as_ref().is_some_and(|b| *b != Ty::Unknown);
                match (beside, target_kinds) {
                    // Keywords of other kinds beside a reference to keywords
                    // that bind one kind: the schema means the other kinds
                    // too (`minLength` beside a reference to `required`),
                    // unless what is beside says which.
                    (_, Some(kinds)) if map.about_other_kinds() && !bounded => {
                        with_every_other_kind(vec![target], kinds)
                    }
                    (Some(beside), target_kinds) if adds => {
                        // Either part may be one that lets other kinds
                        // through.
                        let mut implied = Vec::new();
                        if target_kinds.is_some() {
                            implied.push(target.clone());
                        }
                        let own = |p: &mut Implied<'_, '_>| match p.own(map, REF_HOPS, NEST) {
                            Own::Binds(kinds) => Some(kinds),
                            _ => None,
                        };
                        if self.implied_kinds(site, ptr, own).is_some() {
                            implied.push(beside.clone());
                        }
                        let typed = beside.bare_kind().is_some();
                        let mut ty = self.intersect(site, ptr, vec![target, beside], implied);
                        if let Ty::Inter(_, origin) = &mut ty {
                            origin.reference_typed = typed;
                        }
                        ty
                    }
                    _ => target,
                }
            }
            None => match self.lower_own(site, map, ptr, depth) {
                Ok(ty) => ty.unwrap_or(Ty::Unknown),
                // A malformed combinator makes the whole node the escape hatch.
                Err(malformed) => return malformed,
            },
        };
        // OpenAPI's `nullable` is read beside a `$ref` in every dialect:
        // generators write it there to mean "or null", and leaving it out
        // would refuse the null a server accepts.
        if map.get(Kw::Nullable).is_some_and(Json::is_true) {
            ty = union(vec![ty, Ty::Null]);
        }
        ty
    }

    /// What a schema's own keywords (all but `$ref` and `nullable`) say:
    /// `enum`, `const` or `type` together with `allOf`, `anyOf` and `oneOf`;
    /// `None` when nothing constrains it, `Err` with the escape hatch for a
    /// malformed combinator.
    fn lower_own(
        &mut self,
        site: &Site<'v>,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
    ) -> Result<Option<Ty>, Ty> {
        let base = self.lower_base(site, map, ptr, depth);
        let combined = [Kw::AllOf, Kw::AnyOf, Kw::OneOf]
            .into_iter()
            .any(|k| map.get(k).is_some());
        if combined {
            self.lower_combined(site, map, ptr, depth, base).map(Some)
        } else {
            Ok(base)
        }
    }

    /// The intersection of `parts` (at least two), which knows where it came
    /// from and which of its parts are `implied` (see [`implied_kind`]).
    fn intersect(&mut self, site: &Site<'_>, ptr: &str, parts: Vec<Ty>, implied: Vec<Ty>) -> Ty {
        // A member that is also a typed part (an equal type written with
        // `type`) binds every value: it is no longer only implied.
        let implied = if implied.is_empty() {
            implied
        } else {
            fn counts(list: &[Ty]) -> HashMap<&Ty, usize> {
                let mut counts: HashMap<&Ty, usize> = HashMap::default();
                for ty in list {
                    *counts.entry(ty).or_default() += 1;
                }
                counts
            }
            let (in_parts, in_implied) = (counts(&parts), counts(&implied));
            let mut seen: HashSet<&Ty> = HashSet::default();
            implied
                .iter()
                .filter(|ty| in_parts.get(ty) <= in_implied.get(ty) && seen.insert(ty))
                .cloned()
                .collect()
        };
        let origin = Origin {
            tool: for_report(site.tool),
            pointer: report_pointer(site, ptr),
            implied,
            reference_typed: false,
        };
        let ty = intersection(parts, origin);
        self.intersections |= matches!(ty, Ty::Inter(..));
        ty
    }

    /// A schema's base type together with its `allOf`, `anyOf` and `oneOf`;
    /// `Err` holds the escape hatch for a malformed one.
    fn lower_combined(
        &mut self,
        site: &Site<'v>,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
        base: Option<Ty>,
    ) -> Result<Ty, Ty> {
        let mut implied = match &base {
            Some(base) => self.implied(map, base),
            None => Vec::new(),
        };
        let mut parts: Vec<Ty> = base.into_iter().collect();
        let mut escaped = false;
        // Keys of members of an `anyOf` or `oneOf` that another member lets
        // any value through (see `open_union_keys`).
        let mut open_keys: Vec<Prop> = Vec::new();
        if let Some(all) = map.get(Kw::AllOf) {
            match all.as_array() {
                Some(items) if !items.is_empty() => {
                    for (i, item) in items.iter().enumerate() {
                        let recorded = self.recorded;
                        let mark = self.implied_choices.len();
                        let (ty, keys) = self.member(site, item, ptr, Kw::AllOf, i, depth);
                        open_keys.extend(keys);
                        let member = |p: &mut Implied<'_, '_>| p.member(item, REF_HOPS, NEST);
                        if self.implied_kinds(site, ptr, member).is_some()
                            && !matches!(ty, Ty::Unknown | Ty::Never)
                        {
                            implied.push(ty.clone());
                            if matches!(ty, Ty::Union(_)) {
                                implied.extend(self.implied_choices.drain(mark..));
                            }
                        }
                        self.implied_choices.truncate(mark);
                        // A member that fell to the escape hatch admits
                        // values of every kind, which the intersection,
                        // without it, would not say.
                        escaped |= ty == Ty::Unknown && self.recorded > recorded;
                        parts.push(ty);
                    }
                }
                _ => {
                    return Err(self.malformed(site, ptr, "allOf", "a non-empty array of schemas"));
                }
            }
        }
        for keyword in [Kw::AnyOf, Kw::OneOf] {
            if let Some(any) = map.get(keyword) {
                match any.as_array() {
                    Some(items) if !items.is_empty() => {
                        // The members are judged before they are lowered,
                        // so the allowance counts them now: a union of a
                        // thousand members is judged whole, however little
                        // of the body came before it.
                        self.nodes += items.len();
                        // The kinds each member binds when it lets every
                        // value of the others through.
                        let probed: Vec<Option<(bool, bool)>> = (items.iter())
                            .map(|item| {
                                let member =
                                    |p: &mut Implied<'_, '_>| p.member(item, REF_HOPS, NEST);
                                self.implied_kinds(site, ptr, member)
                            })
                            .collect();
                        let found: Vec<(bool, bool)> = probed.iter().flatten().copied().collect();
                        // Members of a oneOf that bind objects and arrays:
                        // a value of one kind passes every member of the
                        // other, so it passes the oneOf only where it
                        // fails the members of its own kind, which neither
                        // SDK can say.
                        if keyword == Kw::OneOf
                            && found.len() > 1
                            && found.iter().copied().reduce(either) == Some((true, true))
                        {
                            self.degrade(site, ptr, ONE_OF_KINDS);
                            continue;
                        }
                        let mut members = Vec::with_capacity(items.len());
                        // The keys of members that are open unions
                        // themselves (see `open_union_keys`): keys of the
                        // object too, of any type here.
                        let mut nested_keys: Vec<Prop> = Vec::new();
                        for (i, item) in items.iter().enumerate() {
                            let (member, keys) = self.member(site, item, ptr, keyword, i, depth);
                            nested_keys.extend(keys.into_iter().map(|key| Prop {
                                ty: Ty::Unknown,
                                ..key
                            }));
                            members.push(member);
                        }
                        // A member of the kind its keywords imply lets
                        // every other kind through, and so the union does;
                        // for `oneOf`, only when one member does: a value
                        // of another kind passes each such member, and so
                        // fails a `oneOf` of two. (With one, the SDK admits
                        // those of it that another member admits too, as
                        // it admits every value two members of a `oneOf`
                        // admit.) Those members are recorded too, for what
                        // the union admits of the other kinds.
                        let lets_through = match keyword {
                            Kw::OneOf => found.len() == 1,
                            _ => !found.is_empty(),
                        };
                        let choices: Vec<Ty> = if lets_through {
                            (probed.iter().zip(&members))
                                .filter(|(kinds, _)| kinds.is_some())
                                .map(|(_, member)| member.clone())
                                .collect()
                        } else {
                            Vec::new()
                        };
                        if members.contains(&Ty::Unknown) {
                            // Members that are only a `not` of keys
                            // (`{"not": {"required": [key]}}`, see
                            // `only_not_required`) admit any value without
                            // those keys: a key each of them leaves out
                            // holds what the other members say (the usual
                            // way to write an optional key of one type).
                            let left_out: Option<HashSet<&str>> = (items.iter().zip(&members))
                                .filter(|(_, member)| **member == Ty::Unknown)
                                .map(|(item, _)| only_not_required(item))
                                .try_fold(None, |all: Option<HashSet<&str>>, names| {
                                    let names: HashSet<&str> = names?.into_iter().collect();
                                    Some(Some(match all {
                                        None => names,
                                        Some(all) => {
                                            all.into_iter().filter(|n| names.contains(n)).collect()
                                        }
                                    }))
                                })
                                .flatten();
                            // The keys each member that is a reference
                            // lists: those of the schema it names, not
                            // lowered yet (each schema read once). One
                            // named deeper in the member (in its `allOf`)
                            // is not read.
                            let mut seen = Vec::new();
                            let mut left = Some(REFERENCED_PER_UNION);
                            let mut referenced = Vec::with_capacity(items.len());
                            for (item, member) in items.iter().zip(&members) {
                                let parts = parts_of(member);
                                let named =
                                    parts.iter().filter(|p| matches!(p, Ty::Named(_))).count();
                                let own_ref = matches!(item, Json::Object(fields) if fields.get("$ref").is_some());
                                if named > usize::from(own_ref) {
                                    self.degrade(site, ptr, REFERENCED_KEYS_UNREAD);
                                }
                                let read = (named > 0 && own_ref).then(|| {
                                    self.referenced_keys(site, ptr, item, &mut seen, &mut left)
                                });
                                // With two names, the keys read are the
                                // one name's, and the other may type any.
                                referenced.push(read.map(|read| ReferencedKeys {
                                    bounded: read.bounded && named == 1,
                                    ..read
                                }));
                            }
                            // A key is typed where every member that lets
                            // any value through leaves it out, and no other
                            // member lets it through untyped (as a bare
                            // object does): each value of it that the
                            // union admits is one a member types. Counted
                            // once per member and key, so that many members
                            // of many keys cost what they hold.
                            let (mut open, mut typing_members) =
                                (0, HashMap::<&str, usize>::default());
                            for ((member, read), item) in members.iter().zip(&referenced).zip(items)
                            {
                                if *member == Ty::Unknown {
                                    continue;
                                }
                                // Keys of its branches are among a member's
                                // keys, typed only where the branch applies.
                                let passes = match branched(item, site.dialect) {
                                    true => Passes::AllBut(Vec::new()),
                                    false => passes(member, read.as_ref()),
                                };
                                if let Passes::AllBut(mut names) = passes {
                                    names.sort_unstable();
                                    names.dedup();
                                    open += 1;
                                    for name in names {
                                        *typing_members.entry(name).or_default() += 1;
                                    }
                                }
                            }
                            let typed = |name: &str| {
                                left_out.as_ref().is_some_and(|names| names.contains(name))
                                    && typing_members.get(name).copied().unwrap_or(0) == open
                            };
                            let mut typing = Some(REFERENCED_PER_UNION);
                            open_keys.append(&mut nested_keys);
                            for (member, read) in members.iter().zip(&referenced) {
                                for part in parts_of(member) {
                                    let Ty::Object(object) = part else { continue };
                                    open_keys.extend(object.props.iter().map(|prop| Prop {
                                        ty: match typed(&prop.name) {
                                            true => prop.ty.clone(),
                                            false => Ty::Unknown,
                                        },
                                        ..prop.clone()
                                    }));
                                }
                                let Some(read) = read else { continue };
                                for key in &read.keys {
                                    let ty = match typed(key.name) {
                                        true => {
                                            self.referenced_key_type(site, key, &mut typing, depth)
                                        }
                                        false => Ty::Unknown,
                                    };
                                    let place = Place::Property {
                                        name: key.name,
                                        required: false,
                                    };
                                    open_keys.push(Prop {
                                        name: key.name.to_owned(),
                                        ty,
                                        required: false,
                                        doc: doc_of(key.schema, place, site.dialect),
                                    });
                                }
                            }
                        }
                        let any = union(members);
                        if lets_through && !matches!(any, Ty::Unknown | Ty::Never) {
                            implied.push(any.clone());
                            implied.extend(choices.iter().cloned());
                            self.implied_choices.extend(choices);
                        }
                        parts.push(any);
                    }
                    _ => {
                        return Err(self.malformed(
                            site,
                            ptr,
                            keyword.name(),
                            "a non-empty array of schemas",
                        ));
                    }
                }
            }
        }
        if escaped && !implied.is_empty() && !self.checking {
            let gone: HashSet<Ty> = implied.drain(..).collect();
            parts.retain(|part| !gone.contains(part));
            self.degrade(site, ptr, IMPLIED_LEFT_OUT);
        }
        // A member that constrains only other kinds (`{"minLength": 1}`)
        // beside keywords that bind objects or arrays: the schema means
        // those other kinds too, as it would with the keywords side by side
        // (see `lower_base`), unless a typed part refuses them.
        // The kinds the parts bind, when every part is implied (or says
        // nothing) and other kinds are named: a set, so that a wide allOf
        // is read in linear time.
        // (An own `type`, `enum` or `const` refuses them, even where its part
        // reads the same as an implied one.)
        let other_kinds = (!self.checking
            && !implied.is_empty()
            && !map.has_any(&[Kw::Type, Kw::Enum, Kw::Const])
            && (map.about_other_kinds() || members_mention_other_kinds(map, OTHER_KINDS_DEPTH)))
        .then(|| {
            let implied: HashSet<&Ty> = implied.iter().collect();
            (parts.iter())
                .filter(|p| **p != Ty::Unknown)
                .try_fold((false, false), |all, p| {
                    implied
                        .contains(p)
                        .then(|| either(all, bound_kinds(p, &[])))
                })
        })
        .flatten();
        let mut ty = match parts.len() {
            0 => Ty::Unknown,
            1 => parts.pop().unwrap_or(Ty::Unknown),
            // Only a real intersection needs to know where it came from.
            _ => self.intersect(site, ptr, parts, implied),
        };
        if !open_keys.is_empty() {
            self.declare_open_keys(site, ptr, &mut ty, open_keys);
        }
        Ok(match other_kinds {
            Some(kinds) => with_every_other_kind(vec![ty], kinds),
            None => ty,
        })
    }

    /// Declares `keys` (listed by members of an `anyOf` or `oneOf` that
    /// another member lets any value through) as optional keys of any type
    /// of the object `ty` is, or of the first object of its intersection,
    /// where it does not list them itself and admits other keys (a closed
    /// object refuses them whatever the union says): a value may hold them, and
    /// without them the SDK's object would refuse a key the schema
    /// describes. When `ty` is the escape hatch, the keys wait for the
    /// object around this schema (an `allOf` it is a member of).
    fn declare_open_keys(&mut self, site: &Site<'_>, ptr: &str, ty: &mut Ty, keys: Vec<Prop>) {
        let object = match ty {
            Ty::Object(object) => Some(object),
            Ty::Inter(members, _) => members.iter_mut().find_map(|member| match member {
                Ty::Object(object) => Some(object),
                _ => None,
            }),
            Ty::Unknown => {
                self.open_union_keys = Some((ptr.to_owned(), keys));
                return;
            }
            _ => None,
        };
        // An object that admits no other keys refuses these too: its
        // `additionalProperties` reads only its own `properties`.
        let Some(object) = object.filter(|object| object.extra != Extra::Closed) else {
            return;
        };
        let own = object.props.len();
        // Whether a key added holds anything (a key typed by the members
        // says no more than the schema does).
        let mut widened = false;
        for key in keys {
            let listed = object.props[..own].binary_search_by(|p| p.name.cmp(&key.name));
            if listed.is_err() {
                widened |= key.ty == Ty::Unknown;
                object.props.push(Prop {
                    required: false,
                    ..key
                });
            }
        }
        if object.props.len() > own {
            // Stable: the object's own key first, then each member's in turn.
            object.props.sort_by(|a, b| a.name.cmp(&b.name));
            let mut merged: Vec<Prop> = Vec::with_capacity(object.props.len());
            // A key several members list holds what any says: its types,
            // joined once (a union rebuilt at each member would copy the
            // members so far each time).
            let mut more: Vec<Ty> = Vec::new();
            let join = |merged: &mut Vec<Prop>, more: &mut Vec<Ty>| {
                if let Some(last) = merged.last_mut().filter(|_| !more.is_empty()) {
                    let mut members = vec![std::mem::take(&mut last.ty)];
                    members.append(more);
                    last.ty = union(members);
                }
            };
            for prop in std::mem::take(&mut object.props) {
                match merged.last_mut() {
                    Some(last) if last.name == prop.name => more.push(prop.ty),
                    _ => {
                        join(&mut merged, &mut more);
                        merged.push(prop);
                    }
                }
            }
            join(&mut merged, &mut more);
            object.props = merged;
            if widened {
                self.degrade(site, ptr, KEYS_OF_AN_OPEN_UNION);
            }
        }
    }

    /// `[ty]` when `ty` is what the keywords in `map` say without a `type`
    /// (an object or an array implied by its keywords, see
    /// [`implied_kind`]), for the SDK; nothing otherwise. A check's lowering
    /// already admits the other kinds there.
    fn implied(&self, map: &Keywords<'v>, ty: &Ty) -> Vec<Ty> {
        if !self.checking && implied_kind(map) && !matches!(ty, Ty::Unknown | Ty::Never) {
            vec![ty.clone()]
        } else {
            Vec::new()
        }
    }

    /// What `probe` finds with an [`Implied`] over the document `site` is
    /// in: the kinds a member's keywords bind when it lets every value of
    /// the others through. `None` in a check, whose lowering admits the
    /// other kinds already. A member too deep to judge counts as one that
    /// binds either kind (so the SDK admits more, not less), and is
    /// recorded.
    fn implied_kinds(
        &mut self,
        site: &Site<'_>,
        ptr: &str,
        probe: impl FnOnce(&mut Implied<'_, '_>) -> Option<(bool, bool)>,
    ) -> Option<(bool, bool)> {
        if self.checking {
            return None;
        }
        // A few hundred schemas' worth to start with, for a deep member
        // met before much of the body is lowered.
        let allowed = (self.nodes.saturating_add(256))
            .saturating_mul(IMPLIED_PER_NODE)
            .saturating_sub(self.implied_work);
        let mut left = allowed;
        let mut implied = Implied::new(site.root, site.dialect, &mut left, &mut self.implied_memo);
        let kinds = probe(&mut implied);
        let exhausted = implied.exhausted;
        self.implied_work += allowed - left;
        if exhausted {
            self.degrade(site, ptr, TOO_DEEP_TO_JUDGE);
        }
        kinds
    }

    /// The keys `properties` lists (with their schemas) in the schema that
    /// `member`'s `$ref` names, and in those that its own `$ref`s name,
    /// through at most `REF_HOPS` references, skipping the schemas in
    /// `seen` (and adding those it reads) and schemas that admit no object.
    /// What it reads is paid from `left`, one union's allowance (see
    /// [`REFERENCED_PER_UNION`]): past it, or at a reference that resolves
    /// against another base (an embedded `$id`), the rest is not read, that
    /// is recorded, and `left` becomes `None`, so nothing more is read for
    /// the union.
    fn referenced_keys(
        &mut self,
        site: &Site<'v>,
        ptr: &str,
        member: &'v Json<'v>,
        seen: &mut Vec<usize>,
        left: &mut Option<usize>,
    ) -> ReferencedKeys<'v> {
        let mut read = ReferencedKeys {
            keys: Vec::new(),
            bounded: false,
        };
        let Some(mut budget) = *left else {
            return read;
        };
        let keys = &mut read.keys;
        let mut at = member;
        // The pointer of `at` once it is a schema a reference led to.
        let mut at_pointer: Option<String> = None;
        let mut unread = false;
        // Whether a schema on the chain admits no key it does not list
        // itself (whose keys were all read before it is seen to), or no
        // object at all.
        let mut bounded = false;
        // In a dialect that reads a `$ref` alone, the keywords beside one
        // say nothing.
        let old_dialect = !site.dialect.reads_ref_siblings();
        let read_beside = |fields: Fields<'_>| !(old_dialect && fields.get("$ref").is_some());
        for _ in 0..REF_HOPS {
            let Json::Object(fields) = at else { break };
            // A key a pattern matches is admitted whatever the rest says.
            if at_pointer.is_some()
                && read_beside(*fields)
                && matches!(fields.get("additionalProperties"), Some(Json::Bool(false)))
                && !matches!(fields.get("patternProperties"), Some(Json::Object(p)) if p.len() > 0)
            {
                bounded = true;
            }
            let Some(reference) = fields.get("$ref") else {
                break;
            };
            let Some(text) = reference.as_str() else {
                break;
            };
            // The text of a reference costs what decoding it does.
            let Some(after) = budget.checked_sub(text_cost(text)) else {
                unread = true;
                break;
            };
            budget = after;
            if let Some(holder) = &at_pointer
                && self.in_embedded_resource(site.root, reference, holder)
            {
                unread = true;
                break;
            }
            let Some(pointer) = local_pointer(text) else {
                break;
            };
            let Some(target) = site.root.pointer(&pointer) else {
                break;
            };
            let address = std::ptr::from_ref(target) as usize;
            if seen.contains(&address) {
                break;
            }
            seen.push(address);
            let Json::Object(fields) = target else { break };
            // A malformed `type` is read as not bounding the keys.
            let admits_objects = fields.get("type").and_then(names_object).unwrap_or(true);
            if !admits_objects && read_beside(*fields) {
                // No object passes the member: it lets no key through.
                bounded = true;
                break;
            }
            if read_beside(*fields)
                && let Some(Json::Object(props)) = fields.get("properties")
            {
                let Some(after) = budget.checked_sub(props.len()) else {
                    unread = true;
                    break;
                };
                budget = after;
                let at = Rc::<str>::from(pointer.as_str());
                keys.extend(props.iter().map(|(name, schema)| ReferencedKey {
                    name,
                    schema,
                    holder: at.clone(),
                }));
            }
            at = target;
            at_pointer = Some(pointer);
        }
        *left = match unread {
            true => {
                self.degrade(site, ptr, REFERENCED_KEYS_UNREAD);
                None
            }
            false => Some(budget),
        };
        read.bounded = bounded;
        read
    }

    /// The type of a key that a schema an open union's member refers to
    /// lists ([`referenced_keys`](Self::referenced_keys)), where the union
    /// says it holds what that schema says: lowered when its schema is
    /// flat (a `$ref`, or keywords whose values are no schemas, as `type`,
    /// `format` or `enum`) and lowers without a degradation, at the cost of
    /// its keys and values (a string one more for every 32 bytes), paid
    /// from `left`, the union's allowance for typing keys (apart from the
    /// one for reading them, so that typing never leaves keys unread).
    /// Any other key holds any value, as before: the schema it refers to
    /// is not lowered yet, and a deeper one would be read again for every
    /// union that names it.
    fn referenced_key_type(
        &mut self,
        site: &Site<'v>,
        key: &ReferencedKey<'v>,
        left: &mut Option<usize>,
        depth: usize,
    ) -> Ty {
        let Json::Object(fields) = key.schema else {
            return Ty::Unknown;
        };
        // What reading a scalar costs; `None` for an array or object.
        let scalar = |value: &Json<'_>| match value {
            Json::String(text) => Some(text_cost(text)),
            Json::Array(_) | Json::Object(_) => None,
            _ => Some(1),
        };
        let mut cost = 0;
        for (keyword, value) in fields.iter() {
            cost += match (keyword, value) {
                // `examples` and `default` say nothing of the type.
                ("examples" | "default", _) => 0,
                ("type" | "enum" | "required", Json::Array(items)) => {
                    match items.iter().map(scalar).sum::<Option<usize>>() {
                        Some(cost) => 1 + cost,
                        None => return Ty::Unknown,
                    }
                }
                (_, value) => match scalar(value) {
                    Some(cost) => cost,
                    None => return Ty::Unknown,
                },
            };
        }
        let Some(after) = left.and_then(|budget| budget.checked_sub(cost)) else {
            return Ty::Unknown;
        };
        *left = Some(after);
        let mut ptr = key.holder.to_string();
        push_segment(&mut ptr, "properties");
        push_segment(&mut ptr, key.name);
        // Lowered beside the body's degradations: what it could not say
        // stays with the schema, said once where that is lowered, and here
        // the key holds any value.
        let (body, start) = (std::mem::take(&mut self.degradations), self.body_start);
        let recorded = self.recorded;
        self.body_start = 0;
        let ty = self.lower(site, key.schema, &mut ptr, depth + 1);
        let said = self.degradations.is_empty();
        (self.degradations, self.body_start, self.recorded) = (body, start, recorded);
        if said { ty } else { Ty::Unknown }
    }

    fn malformed(&mut self, site: &Site<'_>, ptr: &str, keyword: &str, expected: &str) -> Ty {
        self.degrade(site, ptr, format!("`{keyword}` must be {expected}"))
    }

    /// The part of a schema that `enum`, `const` or `type` (given or implied)
    /// decides; `None` when nothing constrains it.
    fn lower_base(
        &mut self,
        site: &Site<'v>,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
    ) -> Option<Ty> {
        if let Some(values) = map.get(Kw::Enum) {
            let Some(values) = values.as_array() else {
                return Some(self.malformed(site, ptr, "enum", "an array"));
            };
            let mut members = Vec::with_capacity(values.len());
            for (i, value) in values.iter().enumerate() {
                let ty = match literal(value) {
                    Some(ty) => ty,
                    None => {
                        let len = ptr.len();
                        push_segment(ptr, "enum");
                        push_segment(ptr, &i.to_string());
                        let ty = self.degrade(
                            site,
                            ptr,
                            format!("{} cannot be a literal type", value.kind()),
                        );
                        ptr.truncate(len);
                        ty
                    }
                };
                members.push(ty);
            }
            return Some(of_named_types(union(members), map));
        }
        if let Some(value) = map.get(Kw::Const) {
            let ty = match literal(value) {
                Some(ty) => ty,
                None => {
                    let kind = value.kind();
                    self.degrade(site, ptr, format!("{kind} cannot be a literal type"))
                }
            };
            return Some(of_named_types(ty, map));
        }
        match map.get(Kw::Type) {
            Some(Json::String(name)) => Some(self.lower_typed(site, name, map, ptr, depth)),
            Some(Json::Array(names)) if !names.is_empty() => {
                let mut members = Vec::with_capacity(names.len());
                for name in *names {
                    members.push(match name {
                        Json::String(name) => self.lower_typed(site, name, map, ptr, depth),
                        _ => {
                            return Some(self.malformed(
                                site,
                                ptr,
                                "type",
                                "a type name or an array of them",
                            ));
                        }
                    });
                }
                Some(union(members))
            }
            Some(_) => Some(self.malformed(site, ptr, "type", "a type name or an array of them")),
            None => {
                let (object_like, array_like) = described_kinds(map);
                let mut shaped = Vec::with_capacity(2);
                if object_like {
                    shaped.push(self.lower_object(site, map, ptr, depth));
                }
                if array_like {
                    shaped.push(self.lower_array(site, map, ptr, depth));
                }
                if shaped.is_empty() {
                    return None;
                }
                // The SDK declares the kinds the keywords describe, which is
                // what such a schema means on its own; unless others are
                // named too (`minLength` beside `required`).
                if !self.checking && !map.about_other_kinds() {
                    return Some(union(shaped));
                }
                // Without `type`, the keywords bind only values of their kind.
                Some(with_every_other_kind(shaped, (object_like, array_like)))
            }
        }
    }

    fn lower_typed(
        &mut self,
        site: &Site<'v>,
        name: &str,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
    ) -> Ty {
        match name {
            "string" => Ty::Str,
            "integer" => Ty::Int,
            "number" => Ty::Num,
            "boolean" => Ty::Bool,
            "null" => Ty::Null,
            "array" => self.lower_array(site, map, ptr, depth),
            "object" => self.lower_object(site, map, ptr, depth),
            other => self.degrade(site, ptr, format!("unknown type {other:?}")),
        }
    }

    fn lower_object(
        &mut self,
        site: &Site<'v>,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
    ) -> Ty {
        let props = match map.get(Kw::Properties) {
            None => Fields::EMPTY,
            Some(Json::Object(props)) => *props,
            Some(_) => return self.malformed(site, ptr, "properties", "an object"),
        };
        // The required names, sorted and each once, with whether a
        // property describes it.
        let mut required: Vec<(&str, bool)> = Vec::new();
        match map.get(Kw::Required) {
            None => {}
            Some(Json::Array(names)) => {
                required.reserve(names.len());
                for name in *names {
                    match name {
                        Json::String(name) => required.push((name, false)),
                        _ => return self.malformed(site, ptr, "required", "an array of strings"),
                    }
                }
                required.sort_unstable();
                required.dedup();
            }
            Some(_) => return self.malformed(site, ptr, "required", "an array of strings"),
        }
        let mut extra = match map.get(Kw::AdditionalProperties) {
            None => Extra::Unspecified,
            Some(Json::Bool(false)) => Extra::Closed,
            Some(Json::Bool(true)) => Extra::Values(Box::new(Ty::Unknown)),
            Some(schema @ Json::Object(_)) => Extra::Values(Box::new(self.child(
                site,
                schema,
                ptr,
                &["additionalProperties"],
                depth,
            ))),
            Some(_) => {
                return self.malformed(site, ptr, "additionalProperties", "a boolean or a schema");
            }
        };
        match map.get(Kw::PatternProperties) {
            None => {}
            // Which keys a pattern matches is not known to a check: with
            // other keys unconstrained, no other key can be judged.
            Some(Json::Object(_)) if self.checking && extra == Extra::Unspecified => {}
            // Keys that match no pattern may hold anything, and which keys
            // a pattern matches is not something a type can say: every
            // other key is declared to hold any value.
            Some(Json::Object(patterns)) if extra == Extra::Unspecified => {
                // Lowered still, so that a malformed one is reported.
                for (pattern, schema) in patterns.iter() {
                    self.child(site, schema, ptr, &["patternProperties", pattern], depth);
                }
                extra = Extra::Values(Box::new(Ty::Unknown));
            }
            Some(Json::Object(patterns)) => {
                let mut members = Vec::new();
                for (pattern, schema) in patterns.iter() {
                    members.push(self.child(
                        site,
                        schema,
                        ptr,
                        &["patternProperties", pattern],
                        depth,
                    ));
                }
                if let Extra::Values(ty) = extra {
                    members.push(*ty);
                }
                // One type for every key, where each key holds its own
                // (which keys a pattern admits is left to the tool, as the
                // README says); any value says so itself, as where other
                // keys are free.
                let widens = members.windows(2).any(|pair| pair[0] != pair[1]);
                let values = union(members);
                if widens && values != Ty::Unknown && !self.checking {
                    self.degrade(site, ptr, PATTERN_KEYS);
                }
                extra = Extra::Values(Box::new(values));
            }
            Some(_) => return self.malformed(site, ptr, "patternProperties", "an object"),
        }
        if extra == Extra::Unspecified {
            match map.unevaluated_properties() {
                None | Some(Json::Bool(false)) => {}
                Some(Json::Bool(true)) => extra = Extra::Values(Box::new(Ty::Unknown)),
                Some(schema @ Json::Object(_)) => {
                    let ty = self.child(site, schema, ptr, &["unevaluatedProperties"], depth);
                    // Alone, it is `additionalProperties`; beside keywords
                    // that evaluate keys of their own, which keys it
                    // applies to depends on the value. Patterns evaluate
                    // the keys they match, which a check cannot tell (the
                    // SDK has declared other keys of any type by now).
                    if !map.evaluates_elsewhere() && map.get(Kw::PatternProperties).is_none() {
                        extra = Extra::Values(Box::new(ty));
                    } else {
                        if ty != Ty::Unknown && !self.checking {
                            self.degrade(site, ptr, UNEVALUATED_BESIDE_APPLICATORS);
                        }
                        extra = Extra::Values(Box::new(Ty::Unknown));
                    }
                }
                Some(_) => {
                    return self.malformed(
                        site,
                        ptr,
                        "unevaluatedProperties",
                        "a boolean or a schema",
                    );
                }
            }
        }
        let mut out = Vec::with_capacity(props.len());
        for (name, schema) in props.iter() {
            let ty = self.child(site, schema, ptr, &["properties", name], depth);
            let required = match required.binary_search_by(|(r, _)| (*r).cmp(name)) {
                Ok(i) => {
                    required[i].1 = true;
                    true
                }
                Err(_) => false,
            };
            out.push(Prop {
                name: name.to_owned(),
                ty,
                required,
                doc: doc_of(schema, Place::Property { name, required }, site.dialect),
            });
        }
        // Keys that only `then`, `else` or `dependentSchemas` describe are
        // valid where they apply, and an object that lists its keys would
        // refuse them: they are declared optional, with what their
        // branches admit. Where `additionalProperties` speaks, it decides.
        // A check leaves them out: outside its branch such a key may hold
        // anything, and keys the object does not list are not judged.
        if extra == Extra::Unspecified && !self.checking {
            let listed = !out.is_empty();
            let unread = self.branch_keys(site, map, ptr, depth, &mut out);
            // An object that lists no key of its own admits any key, as it
            // did before its branches' keys were declared; so does one
            // whose conditions may name keys that were not read (recorded
            // only there: the other admits them anyway).
            if !listed && !out.is_empty() {
                extra = Extra::Values(Box::new(Ty::Unknown));
            } else if listed && unread {
                extra = Extra::Values(Box::new(Ty::Unknown));
                self.degrade(site, ptr, BRANCH_KEYS_UNREAD);
            }
        }
        // A key that is required but not described holds what the object's
        // other keys hold: anything, unless `additionalProperties` or
        // `patternProperties` says what.
        let undescribed = match &extra {
            Extra::Values(ty) => ty.as_ref(),
            Extra::Unspecified | Extra::Closed => &Ty::Unknown,
        };
        // Each key takes a copy, so a large type is copied only while the
        // copies stay within a bound: past it, output would grow with the
        // keys times the type.
        let copies = required.iter().filter(|(_, described)| !described).count();
        let fits = |w: usize| w <= UNDESCRIBED_SMALL || w * (copies - 1) <= UNDESCRIBED_COPIES;
        let undescribed = if copies < 2
            || matches!(undescribed, Ty::Unknown)
            || weight_within(undescribed, UNDESCRIBED_COPIES).is_some_and(fits)
        {
            undescribed
        } else {
            self.degrade(site, ptr, UNDESCRIBED_TOO_LARGE);
            &Ty::Unknown
        };
        let described = out.len();
        for (name, _) in required.iter().filter(|(_, described)| !described) {
            // A key only a branch describes is there already (and `out` is
            // sorted by name): outside the branch it holds what other keys
            // hold, as any undescribed key that is required.
            match out[..described].binary_search_by(|p| p.name.as_str().cmp(name)) {
                Ok(at) => {
                    out[at].required = true;
                    out[at].ty = undescribed.clone();
                }
                Err(_) => out.push(Prop {
                    name: (*name).to_owned(),
                    ty: undescribed.clone(),
                    required: true,
                    doc: Doc::default(),
                }),
            }
        }
        // The described ones come in key order already.
        if out.len() > described {
            out.sort_by(|a, b| a.name.cmp(&b.name));
        }
        if let Extra::Values(values) = &extra
            && !self.checking
        {
            let cover = Cover::new(values, out.len());
            let wider: Vec<&str> = (out.iter())
                .filter(|p| !cover.covers(&p.ty))
                .map(|p| p.name.as_str())
                .collect();
            if !wider.is_empty() {
                let keys: Vec<String> = wider.iter().map(|k| json_string(k)).collect();
                let reason = format!(
                    "a TypeScript index signature must take the types of the listed keys too \
                     ({}), so other keys are declared to take those types as well (or any \
                     value, beside a large one)",
                    keys.join(", ")
                );
                self.widen_in_typescript(site, ptr, reason);
            }
        }
        Ty::Object(Object { props: out, extra })
    }

    /// Adds to `out` (sorted by name, the object's own keys) the keys that
    /// the properties of `then`, `else` and `dependentSchemas` name, each
    /// optional and typed by the union of what its branches declare; also
    /// those of `allOf` members that are only such conditions (the way a
    /// schema writes several), which no other step reads as an object.
    ///
    /// Gives whether a branch may name keys that this does not read: keys
    /// behind a `$ref`, in `allOf`, `anyOf` or `oneOf` members, in further
    /// conditions, or matched by `patternProperties`.
    fn branch_keys(
        &mut self,
        site: &Site<'v>,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
        out: &mut Vec<Prop>,
    ) -> bool {
        // Each branch, with the `allOf` member it is in, if any.
        let mut branches: Vec<(Option<String>, Branch<'v>)> =
            map.branches().into_iter().map(|b| (None, b)).collect();
        // A key that another part of the schema types keeps that part's
        // type: outside its branch, a value of that type is valid. The
        // keys the other `allOf` members list or require (of any type
        // there) are such keys; where a part
        // may type keys this does not read (a reference, a union, a
        // pattern), a key of a branch holds any value.
        let mut elsewhere: HashSet<&'v str> = HashSet::default();
        let mut unread = map.has_any(&[Kw::Ref, Kw::AnyOf, Kw::OneOf]);
        // Conditions within the members of `anyOf` and `oneOf`, within the
        // `$ref` beside the keys, or deeper in an `allOf` member than this
        // reads, may name keys that are not read here.
        let mut unread_keys = false;
        for kw in [Kw::AnyOf, Kw::OneOf] {
            if let Some(Json::Array(members)) = map.get(kw) {
                for member in members.iter() {
                    unread_keys = unread_keys || self.conditions_within(site, member);
                }
            }
        }
        if let Some(reference) = map.get(Kw::Ref) {
            let mut left = CONDITIONS_READ;
            unread_keys = unread_keys
                || (self.conditions_named(site, reference, 0, &mut left)).may_hide_keys();
        }
        if let Some(Json::Array(members)) = map.get(Kw::AllOf) {
            for (i, item) in members.iter().enumerate() {
                let Json::Object(fields) = item else {
                    continue;
                };
                let member = Keywords::of(*fields, map.dialect());
                if member.shapes_nothing() {
                    let branched = member.branches().into_iter();
                    branches.extend(branched.map(|b| (Some(i.to_string()), b)));
                    continue;
                }
                unread_keys = unread_keys || self.conditions_within(site, item);
                // A member whose `enum`, `const` or `type` decides its type
                // may not declare the keys it lists (an object in an enum
                // is the escape hatch), so they are not counted as typed.
                // A malformed `type` is read as deciding it.
                let declares = !member.has_any(&[Kw::Enum, Kw::Const])
                    && (member.get(Kw::Type)).is_none_or(|ty| names_object(ty) == Some(true));
                unread |= !declares
                    || member.keys_elsewhere()
                    || matches!(member.get(Kw::AdditionalProperties), Some(Json::Object(_)));
                if let (true, Some(Json::Object(props))) = (declares, member.get(Kw::Properties)) {
                    elsewhere.extend(props.iter().map(|(name, _)| name));
                }
                // A key the member requires without describing it is of any
                // type there (what its other keys hold).
                if let (true, Some(Json::Array(names))) = (declares, member.get(Kw::Required)) {
                    elsewhere.extend(names.iter().filter_map(Json::as_str));
                }
            }
        }
        let own = out.len();
        let mut added: HashMap<&'v str, usize> = HashMap::default();
        // The types later branches give each added key (by its place after
        // `own`), joined once at the end: a union rebuilt at every branch
        // would copy the members so far each time.
        let mut more: Vec<Vec<Ty>> = Vec::new();
        for (member, branch) in branches {
            let Json::Object(fields) = branch.schema else {
                continue;
            };
            let keywords = Keywords::of(*fields, site.dialect);
            unread_keys |=
                keywords.keys_elsewhere() || keywords.has_branches() || keywords.dynamic_ref();
            // Before draft 2019-09 a branch that is a `$ref` is only that.
            if !site.dialect.reads_ref_siblings() && fields.get("$ref").is_some() {
                continue;
            }
            let Some(Json::Object(props)) = fields.get("properties") else {
                continue;
            };
            for (name, schema) in props.iter() {
                if (out[..own].binary_search_by(|p| p.name.as_str().cmp(name))).is_ok()
                    || elsewhere.contains(name)
                {
                    continue;
                }
                let ty = match unread {
                    true => Ty::Unknown,
                    false => {
                        let mut at: Vec<&str> = Vec::with_capacity(6);
                        if let Some(index) = &member {
                            at.extend(["allOf", index]);
                        }
                        at.push(branch.keyword);
                        at.extend(branch.key);
                        at.extend(["properties", name]);
                        self.child(site, schema, ptr, &at, depth)
                    }
                };
                match added.get(name) {
                    Some(&i) => more[i - own].push(ty),
                    None => {
                        added.insert(name, out.len());
                        more.push(Vec::new());
                        let place = Place::Property {
                            name,
                            required: false,
                        };
                        out.push(Prop {
                            name: name.to_owned(),
                            ty,
                            required: false,
                            doc: doc_of(schema, place, site.dialect),
                        });
                    }
                }
            }
        }
        for (prop, later) in out[own..].iter_mut().zip(more) {
            if !later.is_empty() {
                let mut members = Vec::with_capacity(later.len() + 1);
                members.push(std::mem::take(&mut prop.ty));
                members.extend(later);
                prop.ty = union(members);
            }
        }
        if out.len() > own {
            out.sort_by(|a, b| a.name.cmp(&b.name));
            self.degrade(site, ptr, BRANCH_KEYS);
        }
        unread_keys
    }

    /// Whether conditions that lower to nothing may be within `schema`, a
    /// member of one of the object's combinators (or, given as a `$ref`,
    /// what the object's own `$ref` names): a schema whose only type
    /// keywords are `then`, `else`, `dependentSchemas` or `dependencies`
    /// (beside `if` and annotations), itself or through the members of
    /// `allOf`, `anyOf` and `oneOf` and local `$ref`s, which lowers to
    /// nothing, so the keys its branches name are read nowhere. Where the
    /// search is cut short ([`CONDITIONS_DEPTH`] steps, [`CONDITIONS_READ`]
    /// schemas, or a reference back into one being read), they may be.
    fn conditions_within(&mut self, site: &Site<'v>, schema: &'v Json<'v>) -> bool {
        let mut left = CONDITIONS_READ;
        self.conditions_below(site, schema, 0, &mut left)
            .may_hide_keys()
    }

    fn conditions_below(
        &mut self,
        site: &Site<'v>,
        schema: &'v Json<'v>,
        depth: usize,
        left: &mut usize,
    ) -> Search {
        let Json::Object(fields) = schema else {
            return Search::NotFound;
        };
        let read = self.conditions_read.saturating_add(fields.len());
        if depth > CONDITIONS_DEPTH || *left == 0 || read > CONDITIONS_WORK {
            return Search::Cut;
        }
        *left -= 1;
        self.conditions_read = read;
        let keywords = Keywords::of(*fields, site.dialect);
        if keywords.shapes_nothing() {
            return match keywords.has_branches() {
                true => Search::Found,
                false => Search::NotFound,
            };
        }
        let mut found = Search::NotFound;
        for kw in [Kw::AllOf, Kw::AnyOf, Kw::OneOf] {
            if let Some(Json::Array(members)) = keywords.get(kw) {
                for member in members.iter() {
                    found = found.or(self.conditions_below(site, member, depth + 1, left));
                    if found == Search::Found {
                        return found;
                    }
                }
            }
        }
        match keywords.get(Kw::Ref) {
            Some(reference) => found.or(self.conditions_named(site, reference, depth + 1, left)),
            None => found,
        }
    }

    /// [`conditions_below`](Self::conditions_below) the schema a local
    /// `$ref` names, whose full answer is kept for the document
    /// ([`Walk::conditions`]): many members naming one schema read it once.
    fn conditions_named(
        &mut self,
        site: &Site<'v>,
        reference: &Json<'_>,
        depth: usize,
        left: &mut usize,
    ) -> Search {
        let Some(pointer) = reference.as_str().and_then(local_pointer) else {
            return Search::NotFound;
        };
        let key = (std::ptr::from_ref(site.root) as usize, pointer);
        match self.conditions.get(&key) {
            Some(Some(known)) => return *known,
            // A reference back into a schema being read: what it holds is
            // that search's to find.
            Some(None) => return Search::NotFoundYet,
            None => {}
        }
        let Some(target) = site.root.pointer(&key.1) else {
            return Search::NotFound;
        };
        self.conditions.insert(key.clone(), None);
        let found = self.conditions_below(site, target, depth, left);
        // Kept only where it is the whole answer: a search cut short
        // depends on where it started, and one that met a schema still
        // being read on the way lacks what that one finds later.
        match found {
            Search::Found | Search::NotFound => self.conditions.insert(key, Some(found)),
            Search::Cut | Search::NotFoundYet => self.conditions.remove(&key),
        };
        found
    }

    fn lower_array(
        &mut self,
        site: &Site<'v>,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
    ) -> Ty {
        if self.lists >= MAX_LIST_NESTING {
            return self.degrade(
                site,
                ptr,
                format!("arrays nested more than {MAX_LIST_NESTING} deep"),
            );
        }
        self.lists += 1;
        let ty = self.lower_array_items(site, map, ptr, depth);
        self.lists -= 1;
        ty
    }

    fn lower_array_items(
        &mut self,
        site: &Site<'v>,
        map: &Keywords<'v>,
        ptr: &mut String,
        depth: usize,
    ) -> Ty {
        let (prefix, prefix_key, rest_key) = match (map.get(Kw::PrefixItems), map.get(Kw::Items)) {
            (Some(Json::Array(prefix)), _) => (Some(*prefix), Kw::PrefixItems, Kw::Items),
            (Some(_), _) => return self.malformed(site, ptr, "prefixItems", "an array of schemas"),
            (None, Some(Json::Array(prefix))) => (Some(*prefix), Kw::Items, Kw::AdditionalItems),
            _ => (None, Kw::PrefixItems, Kw::Items),
        };
        let rest = match map.get(rest_key) {
            None => Some(Ty::Unknown),
            Some(schema) => Some(self.child(site, schema, ptr, &[rest_key.name()], depth)),
        };
        let Some(prefix) = prefix else {
            return Ty::Array(Box::new(rest.unwrap_or(Ty::Unknown)));
        };
        let mut items = Vec::with_capacity(prefix.len());
        for (i, schema) in prefix.iter().enumerate() {
            let index = i.to_string();
            let segs = [prefix_key.name(), &index];
            items.push(self.child(site, schema, ptr, &segs, depth));
        }
        let count = |key: Kw| {
            map.get(key)
                .and_then(Json::as_u64)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        let max = count(Kw::MaxItems);
        let required = count(Kw::MinItems).unwrap_or(0).min(items.len());
        let closed = matches!(rest, Some(Ty::Never)) || max.is_some_and(|max| max <= items.len());
        if let Some(max) = max {
            items.truncate(max.max(required));
        }
        Ty::Tuple(Tuple {
            items,
            required,
            rest: if closed { None } else { rest.map(Box::new) },
        })
    }

    /// Whether a base of its own governs `reference`, a `$ref` value at
    /// `ptr` in `root`. A short pointer is walked from the root
    /// ([`on_the_way_to`]); under a long one, that walk would cost the
    /// pointer's length at every `$ref`, so the root's such `$ref`s are
    /// found once ([`embedded_refs`]).
    fn in_embedded_resource(&mut self, root: &Json<'_>, reference: &Json<'_>, ptr: &str) -> bool {
        if ptr.len() <= EMBEDDED_WALK_MAX {
            return on_the_way_to(root, ptr);
        }
        // A root's definitions are lowered with it, so one root at a time
        // is remembered.
        let at = root as *const Json<'_> as usize;
        if self.embedded_refs.as_ref().is_none_or(|(of, _)| *of != at) {
            self.embedded_refs = Some((at, embedded_refs(root)));
        }
        (self.embedded_refs.as_ref())
            .is_some_and(|(_, refs)| refs.contains(&(reference as *const Json<'_> as usize)))
    }

    fn lower_ref(&mut self, site: &Site<'v>, value: &Json<'_>, ptr: &str) -> Ty {
        let Json::String(reference) = *value else {
            return self.malformed(site, ptr, "$ref", "a string");
        };
        let Some(pointer) = local_pointer(reference) else {
            return self.degrade(
                site,
                ptr,
                format!("$ref {reference:?} is not a local JSON pointer"),
            );
        };
        if self.in_embedded_resource(site.root, value, ptr) {
            return self.degrade(
                site,
                ptr,
                format!(
                    "$ref {reference:?} is inside a subschema with its own $id, against which it would resolve"
                ),
            );
        }
        let memo = (site.root as *const Json as usize, pointer.clone());
        if let Some(&id) = self.by_target.get(&memo) {
            return Ty::Named(id);
        }
        let Some(target) = site.root.pointer(&pointer) else {
            return self.degrade(site, ptr, format!("$ref {reference:?} does not resolve"));
        };
        // The identity hashes the pointer too: one key per definition.
        let key = self.ids.hash(site.root, &pointer);
        let id = match self.by_key.get(&key) {
            Some(&id) => id,
            None => {
                let id = self.defs.len();
                let base = match pointer.rsplit('/').next() {
                    Some(last) if !pointer.is_empty() => pascal_case(&unescape_segment(last)),
                    _ => site.root_name.clone(),
                };
                // Names are settled in key order: by pointer, then by the
                // first tool (by name) that reaches the definition.
                let order = format!(
                    "{}\n{}\n{key}",
                    cut_for_report(&pointer),
                    cut_for_report(site.tool)
                );
                self.defs.push(Def {
                    base,
                    key: order,
                    ty: Ty::Unknown,
                    doc: Doc::default(),
                    tool: for_report(site.tool),
                    pointer: report_pointer(site, &pointer),
                    named: None,
                });
                self.by_key.insert(key, id);
                self.queue.push(Pending {
                    id,
                    site: site.clone(),
                    node: target,
                    pointer: pointer.clone(),
                });
                id
            }
        };
        self.by_target.insert(memo, id);
        Ty::Named(id)
    }
}

/// The names JSON Schema's `type` takes.
const TYPE_NAMES: [&str; 7] = [
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Longest pointer [`Walk::in_embedded_resource`] walks from the root.
const EMBEDDED_WALK_MAX: usize = 256;

/// The `$ref` values (by address) in `root` that a base of their own
/// governs: those in a schema below the root that names one (`$id`, or
/// draft 4's `id`, as a string), or below such a schema. Such a `$ref`
/// resolves against that base, not against the tool's schema, so it
/// cannot be followed as a pointer from the root. One pass over the
/// schema, without recursion.
fn embedded_refs(root: &Json<'_>) -> HashSet<usize> {
    let mut refs = HashSet::default();
    // Each node with whether a base governs it and whether it is a map of
    // schemas, read as `on_the_way_to` reads one.
    let mut todo: Vec<(&Json<'_>, bool, bool)> = vec![(root, false, false)];
    let mut at_root = true;
    while let Some((node, embedded, map)) = todo.pop() {
        match node {
            Json::Object(fields) => {
                let at_root = std::mem::take(&mut at_root);
                // A `$ref` in the node itself is read with the node as its
                // schema, a map or not; what is below a map, with the map
                // as a map.
                let own = embedded || (!at_root && names_a_base(fields));
                if own && let Some(reference) = fields.get("$ref") {
                    refs.insert(reference as *const Json<'_> as usize);
                }
                let embedded = match map {
                    true => embedded || map_names_a_base(fields),
                    false => own,
                };
                let children = fields.iter().filter(|(_, c)| is_container(c));
                todo.extend(children.map(|(key, c)| (c, embedded, !map && holds_a_map(key))));
            }
            Json::Array(items) => {
                at_root = false;
                let children = items.iter().filter(|c| is_container(c));
                todo.extend(children.map(|c| (c, embedded, false)));
            }
            _ => at_root = false,
        }
    }
    refs
}

/// Whether `json` is an object or an array: only those can hold a `$ref`.
fn is_container(json: &Json<'_>) -> bool {
    matches!(json, Json::Object(_) | Json::Array(_))
}

/// The literal type of an enum or const value, if it has one.
fn literal(value: &Json<'_>) -> Option<Ty> {
    match *value {
        Json::Null => Some(Ty::Null),
        Json::Bool(b) => Some(Ty::Lit(Lit::Bool(b))),
        Json::Number(n) => Some(Ty::Lit(Lit::Num(n.number()))),
        Json::String(s) => Some(Ty::Lit(Lit::Str(s.to_owned()))),
        Json::Array(_) | Json::Object(_) => None,
    }
}

/// The literals of an `enum` or `const` that the `type` beside it admits:
/// a value must pass both, so `{"type": "string", "enum": ["a", 1]}` is
/// `"a"`, and `{"type": "integer", "const": 1.5}` admits nothing. A `type`
/// that is malformed or names a type JSON Schema does not know leaves the
/// literals as they are (an object or array literal is the escape hatch
/// already, and stays).
fn of_named_types(literals: Ty, map: &Keywords<'_>) -> Ty {
    let names: Vec<&str> = match map.get(Kw::Type) {
        Some(Json::String(name)) => vec![name],
        Some(Json::Array(items)) if !items.is_empty() => {
            let names: Option<Vec<&str>> = items.iter().map(Json::as_str).collect();
            match names {
                Some(names) => names,
                None => return literals,
            }
        }
        _ => return literals,
    };
    if names.iter().any(|name| !TYPE_NAMES.contains(name)) {
        return literals;
    }
    let named = |name: &str| names.contains(&name);
    let admits = |ty: &Ty| match ty {
        Ty::Null => named("null"),
        Ty::Lit(Lit::Str(_)) => named("string"),
        Ty::Lit(Lit::Bool(_)) => named("boolean"),
        Ty::Lit(Lit::Num(n)) => named("number") || (named("integer") && is_integer(n)),
        _ => true,
    };
    match literals {
        Ty::Union(choices) => union(choices.into_iter().filter(admits).collect()),
        one if admits(&one) => one,
        _ => Ty::Never,
    }
}

/// A pointer inside a tool's schema, as reported: `/inputSchema/properties/x`.
fn report_pointer(site: &Site<'_>, ptr: &str) -> String {
    if site.field.is_empty() {
        for_report(ptr)
    } else if ptr.len() + site.field.len() < REPORT_MAX {
        format!("/{}{}", site.field, ptr)
    } else {
        // Cut before joining, so that a long pointer is not copied whole.
        for_report(&format!("/{}{}", site.field, cut_for_report(ptr)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::print;
    use crate::json::from_value;
    use crate::language::Language;
    use serde_json::json;

    /// Asserts that each optional property `key` of `text` is declared
    /// with the type `ty`.
    fn assert_declared(text: &str, cases: &[(&str, &str)]) {
        for (key, ty) in cases {
            let declared = [";", " }"]
                .iter()
                .any(|end| text.contains(&format!(" {key}?: {ty}{end}")));
            assert!(declared, "{key}: {text}");
        }
    }

    /// Shortening follows each link once, however the chains are ordered
    /// and however long they are, and leaves a loop of names as it is.
    #[test]
    fn shortening_chains_follows_each_link_once() {
        let def = |ty: Ty| Def {
            key: String::new(),
            base: String::new(),
            ty,
            doc: Doc::default(),
            tool: String::new(),
            pointer: String::new(),
            named: None,
        };
        let n = 10_000;
        // d0 -> d1 -> ... -> d(n-1) -> a string; then a loop d(n) <-> d(n+1).
        let mut defs: Vec<Def> = (0..n).map(|i| def(Ty::Named(i + 1))).collect();
        defs.push(def(Ty::Str));
        defs.push(def(Ty::Named(n + 2)));
        defs.push(def(Ty::Named(n + 1)));
        let followed = shorten_alias_chains(&mut defs);
        assert!(
            followed <= defs.len(),
            "{followed} links followed for {} definitions",
            defs.len()
        );
        assert!(defs[..n].iter().all(|d| d.ty == Ty::Named(n)));
        // Each keeps the link it named, which a second pass does not change.
        let links = |defs: &[Def]| defs[..n].iter().map(|d| d.named).collect::<Vec<_>>();
        let mut expected: Vec<Option<usize>> = (1..n).map(Some).collect();
        expected.push(None);
        assert_eq!(links(&defs), expected);
        shorten_alias_chains(&mut defs);
        assert_eq!(links(&defs), expected);
        assert_eq!(
            (&defs[n + 1].ty, &defs[n + 2].ty),
            (&Ty::Named(n + 2), &Ty::Named(n + 1))
        );
        // Reversed, each chain is met from its far end first.
        let mut reversed: Vec<Def> = (0..n)
            .map(|i| def(if i == 0 { Ty::Str } else { Ty::Named(i - 1) }))
            .collect();
        assert!(shorten_alias_chains(&mut reversed) <= n);
        assert!(reversed[1..].iter().all(|d| d.ty == Ty::Named(0)));
    }

    /// Keys that the members of an `anyOf` or `oneOf` list, where another
    /// member admits any value, are optional keys of any type of the object
    /// around them (its own, or an `allOf`'s), recorded; nowhere else.
    #[test]
    fn keys_of_a_union_that_admits_anything_stay_keys_of_the_object() {
        let with_id = json!({"properties": {"id": {"type": "number", "description": "The id."}}, "required": ["id"]});
        let extra = json!({"type": "object", "properties": {"extra": {"type": "string"}}});
        let keys = |schema: Value| -> (Vec<(String, Ty, bool)>, usize) {
            let (ty, _, degradations) = lower_schema(&schema);
            let Ty::Object(object) = ty else {
                return (Vec::new(), degradations.len());
            };
            let props = object.props.into_iter().map(|p| (p.name, p.ty, p.required));
            (props.collect(), degradations.len())
        };
        let expected = vec![
            ("extra".to_owned(), Ty::Str, false),
            ("id".to_owned(), Ty::Unknown, false),
        ];
        // An optional key written as "absent, or of this type" keeps its
        // type, exactly.
        let mut own = extra.clone();
        own["oneOf"] = json!([{"not": {"required": ["id"]}}, with_id]);
        let typed = vec![
            ("extra".to_owned(), Ty::Str, false),
            ("id".to_owned(), Ty::Num, false),
        ];
        assert_eq!(keys(own), (typed, 0));
        let mut other = extra.clone();
        other["oneOf"] = json!([{"not": {"required": ["name"]}}, with_id]);
        assert_eq!(keys(other), (expected.clone(), 1));
        for open in [json!({}), json!(true), json!({"description": "Anything."})] {
            let schema = json!({"allOf": [{"anyOf": [open, with_id]}, extra]});
            assert_eq!(keys(schema.clone()), (expected.clone(), 1), "{schema}");
        }
        // A closed object refuses them, as `additionalProperties` reads
        // only its own `properties`.
        let mut closed = extra.clone();
        closed["additionalProperties"] = json!(false);
        closed["oneOf"] = json!([{"not": {"required": ["id"]}}, with_id]);
        assert_eq!(
            keys(closed),
            (vec![("extra".to_owned(), Ty::Str, false)], 0)
        );
        // A key the object lists keeps its own type.
        let mut listed = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        listed["anyOf"] = json!([{}, with_id]);
        assert_eq!(keys(listed), (vec![("id".to_owned(), Ty::Str, false)], 0));
        // Alone, such a union admits any value; and the keys of one inside a
        // property stay there.
        assert_eq!(
            lower_schema(&json!({"anyOf": [{}, with_id]})).0,
            Ty::Unknown
        );
        let inner = json!({"type": "object", "properties": {"p": {"anyOf": [{}, with_id]}}});
        assert_eq!(keys(inner), (vec![("p".to_owned(), Ty::Unknown, false)], 0));
        // A member that names its object through references (with keys of
        // its own beside, in one case) lists that object's keys too.
        for member in [
            json!({"$ref": "#/$defs/Hop"}),
            json!({"$ref": "#/$defs/WithId", "properties": {"extra": {"type": "string"}}}),
        ] {
            let mut named = extra.clone();
            named["$defs"] = json!({"Hop": {"$ref": "#/$defs/WithId"}, "WithId": with_id});
            named["anyOf"] = json!([true, member]);
            assert_eq!(keys(named.clone()), (expected.clone(), 1), "{named}");
        }
        // Not read, and recorded: a reference that resolves against an
        // embedded `$id` (lowering refuses it too), and one deeper in the
        // member. A schema that admits no object has no keys to give.
        let only_extra = vec![("extra".to_owned(), Ty::Str, false)];
        let mut embedded = extra.clone();
        embedded["$defs"] = json!({
            "K": {"type": "object", "properties": {"root_key": {}}},
            "E": {"$id": "https://example.com/e", "$defs": {"A": {"$ref": "#/$defs/K"}}}
        });
        embedded["anyOf"] = json!([true, {"$ref": "#/$defs/E/$defs/A"}]);
        assert_eq!(keys(embedded).0, only_extra);
        let mut deeper = extra.clone();
        deeper["$defs"] = json!({"WithId": with_id});
        deeper["anyOf"] = json!([true, {"allOf": [{"$ref": "#/$defs/WithId"}]}]);
        let (listed, recorded) = keys(deeper);
        assert_eq!((listed, recorded > 0), (only_extra.clone(), true));
        let mut text = extra.clone();
        text["$defs"] = json!({"T": {"type": "string", "properties": {"no": {}}}});
        text["anyOf"] = json!([true, {"$ref": "#/$defs/T"}]);
        assert_eq!(keys(text), (only_extra, 0));
    }

    /// What an object that holds none of `names` (a JSON array) is:
    /// `{"required": [name]}` for one, else an `anyOf` of those, one per
    /// name.
    fn none_of(names: Value) -> Value {
        match names.as_array().map(Vec::as_slice) {
            Some([name]) => json!({"required": [name]}),
            Some(names) => {
                json!({"anyOf": names.iter().map(|n| json!({"required": [n]})).collect::<Vec<_>>()})
            }
            None => json!({"required": names}),
        }
    }

    /// A key written as "absent, or what the schema a member refers to
    /// says" keeps its type, as the same key written inline does, when its
    /// schema is flat; a key whose schema is deeper, or that the union's
    /// allowance does not cover, holds any value and is recorded.
    #[test]
    fn keys_of_a_referenced_member_keep_their_type_where_the_union_says_it() {
        let keys = |schema: Value| -> (Vec<(String, Ty)>, usize) {
            let (ty, _, degradations) = lower_schema(&schema);
            let Ty::Object(object) = ty else {
                return (Vec::new(), degradations.len());
            };
            (
                object.props.into_iter().map(|p| (p.name, p.ty)).collect(),
                degradations.len(),
            )
        };
        let props = json!({
            "id": {"type": "number", "description": "The id."},
            "kind": {"enum": ["a", "b"], "default": "a"},
            "sub": {"type": "object", "properties": {"z": {"type": "integer"}}}
        });
        let union = |leaves: Value, member: Value| {
            json!({"type": "object", "$defs": {"WithId": {"properties": props, "required": ["id"]}},
                   "anyOf": [{"not": none_of(leaves)}, member]})
        };
        let kind = Ty::Union(vec![
            Ty::Lit(Lit::Str("a".into())),
            Ty::Lit(Lit::Str("b".into())),
        ]);
        // Inline and through a reference alike; the keys the `not` member
        // leaves out are typed, and the others it lets through with any
        // value.
        for member in [
            json!({"properties": props, "required": ["id"]}),
            json!({"$ref": "#/$defs/WithId"}),
        ] {
            for (leaves, id, kind) in [
                (vec!["id", "kind"], Ty::Num, kind.clone()),
                (vec!["id"], Ty::Num, Ty::Unknown),
                (vec!["kind"], Ty::Unknown, kind.clone()),
            ] {
                let (listed, recorded) = keys(union(json!(leaves), member.clone()));
                let typed = [("id", id), ("kind", kind), ("sub", Ty::Unknown)];
                let typed: Vec<(String, Ty)> =
                    typed.into_iter().map(|(k, t)| (k.to_owned(), t)).collect();
                assert_eq!((listed, recorded), (typed, 1), "{member} {leaves:?}");
            }
        }
        // Where a member lets `kind` through with any value, it holds any.
        let (listed, _) = keys(union(json!(["id"]), json!({"$ref": "#/$defs/WithId"})));
        assert_eq!(listed[1], ("kind".to_owned(), Ty::Unknown));
        // A key whose schema could not be said is any value, recorded once
        // where the definition is lowered; so is one past the allowance.
        let mut odd = union(json!(["id"]), json!({"$ref": "#/$defs/WithId"}));
        odd["$defs"]["WithId"]["properties"]["id"] = json!({"$ref": "https://example.com/id"});
        let (listed, recorded) = keys(odd);
        assert_eq!((&listed[0], recorded), (&("id".to_owned(), Ty::Unknown), 2));
        // Forty keys are read within the allowance for reading; typing each
        // costs two from one of its own, so some are typed and the rest are
        // not, and all are listed.
        let names: Vec<String> = (0..40).map(|i| format!("k{i:02}")).collect();
        let wide: serde_json::Map<String, Value> = (names.iter())
            .map(|n| (n.clone(), json!({"type": "string", "format": "uri"})))
            .collect();
        let past = json!({"type": "object", "$defs": {"Wide": {"properties": wide}},
                          "anyOf": [{"not": none_of(json!(names))}, {"$ref": "#/$defs/Wide"}]});
        let (listed, recorded) = keys(past);
        let typed = listed.iter().filter(|(_, ty)| *ty == Ty::Str).count();
        assert!(
            listed.len() == 40 && typed > 0 && typed < 40 && recorded == 1,
            "{typed} of {listed:?}"
        );
        // Typing the keys of one member leaves the allowance for reading
        // the next member's keys as it was.
        let of = |prefix: char| -> serde_json::Map<String, Value> {
            (0..30)
                .map(|i| (format!("{prefix}{i:02}"), json!({"type": "string"})))
                .collect()
        };
        let a_keys: Vec<String> = of('a').keys().cloned().collect();
        let two = |b: Value| {
            json!({"type": "object", "$defs": {"A": {"properties": of('a')}, "B": b},
                   "anyOf": [{"not": none_of(json!(a_keys))}, {"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]})
        };
        let (listed, _) = keys(two(
            json!({"properties": of('b'), "additionalProperties": false}),
        ));
        let typed = listed.iter().filter(|(_, ty)| *ty == Ty::Str).count();
        assert_eq!((listed.len(), typed), (60, 30), "{listed:?}");
        // Where `B` admits keys it does not list, a value of `B` may hold
        // an `a` key of any value, so none is typed.
        let (listed, _) = keys(two(json!({"properties": of('b')})));
        let typed = listed.iter().filter(|(_, ty)| *ty == Ty::Str).count();
        assert_eq!((listed.len(), typed), (60, 0), "{listed:?}");
        // A long string is paid for by its length: a `const` of 20,000
        // bytes is past the allowance, so each union that names it does
        // not spell it again.
        let mut long = union(json!(["id"]), json!({"$ref": "#/$defs/WithId"}));
        long["$defs"]["WithId"]["properties"]["id"] = json!({"const": "x".repeat(20_000)});
        assert_eq!(keys(long).0[0], ("id".to_owned(), Ty::Unknown));
        // A key that could not be typed leaves no trace of having been
        // tried: an `allOf` member that is such a union is not taken for
        // one that fell to the escape hatch.
        let escaped = json!({"properties": {"x": {"type": "string"}},
            "allOf": [{"anyOf": [{"not": {"required": ["a"]}}, {"$ref": "#/$defs/A"}]}],
            "$defs": {"A": {"properties": {"a": {"$ref": "https://example.com/a"}, "b": {"type": "integer"}}}}});
        let (ty, _, _) = lower_schema(&escaped);
        assert!(
            matches!(&ty, Ty::Union(members) if members.iter().any(|m| matches!(m, Ty::Object(_)))),
            "{ty:?}"
        );
    }

    /// A key that the members of an open union type stays of any type when
    /// another member lets it through with any value without listing it:
    /// a bare object, one whose other keys hold some type, or a reference
    /// to an open schema. A member that refuses keys it does not list, or
    /// admits no object, does not stand in the way.
    #[test]
    fn a_key_another_member_lets_through_holds_any_value() {
        let key_a = |others: Vec<Value>| -> Ty {
            let mut members = vec![
                json!({"not": {"required": ["a"]}}),
                json!({"properties": {"a": {"type": "string"}}, "required": ["a"]}),
            ];
            members.extend(others);
            let schema = json!({"type": "object", "properties": {"z": {"type": "number"}},
                "$defs": {"Open": {"properties": {"b": {"type": "string"}}},
                          "Closed": {"properties": {"b": {"type": "string"}}, "additionalProperties": false},
                          "Patterned": {"properties": {"b": {"type": "string"}}, "patternProperties": {"^a": {}},
                                        "additionalProperties": false},
                          "Hop": {"$ref": "#/$defs/Closed"}},
                "anyOf": members});
            let (ty, _, _) = lower_schema(&schema);
            let Ty::Object(object) = ty else {
                return ty;
            };
            let a = object.props.into_iter().find(|p| p.name == "a");
            a.map_or(Ty::Never, |a| a.ty)
        };
        assert_eq!(key_a(vec![]), Ty::Str);
        for bounded in [
            json!({"type": "object", "properties": {"b": {}}, "additionalProperties": false}),
            json!({"type": "string"}),
            json!({"type": "array", "items": {"type": "object"}}),
            json!({"$ref": "#/$defs/Closed"}),
            json!({"$ref": "#/$defs/Hop"}),
            json!({"properties": {"a": {"type": "string", "format": "email"}}}),
        ] {
            assert_eq!(key_a(vec![bounded.clone()]), Ty::Str, "{bounded}");
        }
        for open in [
            json!({"type": "object"}),
            json!({"type": "object", "properties": {"b": {}}}),
            json!({"type": "object", "additionalProperties": {"type": "number"}}),
            json!({"$ref": "#/$defs/Open"}),
            // Closed, but a pattern admits `a`.
            json!({"$ref": "#/$defs/Patterned"}),
            // Its keys come from a branch, which applies only sometimes.
            json!({"properties": {"c": {}}, "dependentSchemas": {"c": {"properties": {"a": {"type": "string"}}}}}),
            json!({"anyOf": [{"type": "object"}, {"type": "string"}]}),
            json!({"allOf": [{"type": "object"}, {"properties": {"b": {}}}]}),
        ] {
            assert_eq!(key_a(vec![open.clone()]), Ty::Unknown, "{open}");
        }
        // In draft-07 the keywords beside a `$ref` are not read: a hop that
        // closes the schema it names beside its `$ref` does not.
        let draft_07 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
            "definitions": {"Open": {"properties": {"b": {"type": "string"}}},
                            "Hop": {"$ref": "#/definitions/Open", "additionalProperties": false}},
            "anyOf": [{"not": {"required": ["a"]}},
                      {"properties": {"a": {"type": "string"}}, "required": ["a"]},
                      {"$ref": "#/definitions/Hop"}]});
        let (ty, _, _) = lower_schema(&draft_07);
        let Ty::Object(object) = ty else {
            panic!("{ty:?}")
        };
        let a = object.props.iter().find(|p| p.name == "a").map(|p| &p.ty);
        assert_eq!(a, Some(&Ty::Unknown));
    }

    /// `{"not": {"required": ["a", "b"]}}` admits an object that lacks
    /// either key, so one holding `a` of any type passes it: `a` is typed
    /// only where such a member refuses it on its own.
    #[test]
    fn a_member_that_refuses_two_keys_together_leaves_each_free() {
        let key_a = |not: Value| -> Ty {
            let not = match not {
                Value::Array(names) => json!({"required": names}),
                not => not,
            };
            let schema = json!({"type": "object", "anyOf": [
                {"properties": {"a": {"type": "integer"}}},
                {"not": not}]});
            let (ty, _, _) = lower_schema(&schema);
            let Ty::Object(object) = ty else {
                panic!("{ty:?}")
            };
            let a = object.props.into_iter().find(|p| p.name == "a");
            a.map_or(Ty::Never, |a| a.ty)
        };
        assert_eq!(key_a(json!(["a"])), Ty::Int);
        assert_eq!(key_a(json!(["a", "a"])), Ty::Int);
        assert_eq!(key_a(json!(["a", "b"])), Ty::Unknown);
        assert_eq!(key_a(json!(["b", "a"])), Ty::Unknown);
        assert_eq!(key_a(json!([])), Ty::Unknown);
        // Refusing each key on its own leaves both out.
        assert_eq!(key_a(none_of(json!(["a", "b"]))), Ty::Int);
        assert_eq!(key_a(none_of(json!(["b"]))), Ty::Unknown);
        let not_either = json!({"anyOf": [{"required": ["a", "b"]}, {"required": ["a"]}]});
        assert_eq!(key_a(not_either), Ty::Unknown);
    }

    /// The keys of a member that is an open union itself are keys of the
    /// object too, of any type: a value of the outer union may hold them.
    #[test]
    fn keys_of_a_nested_open_union_are_keys_of_the_object() {
        let nested = json!({"oneOf": [{"not": {"required": ["a"]}},
                                      {"properties": {"a": {"type": "string"}}, "required": ["a"]}]});
        let b = json!({"properties": {"b": {"type": "integer"}}, "required": ["b"]});
        for schema in [
            json!({"type": "object", "anyOf": [nested, b]}),
            json!({"type": "object", "properties": {"z": {}}, "allOf": [{"anyOf": [nested, b]}]}),
        ] {
            let (ty, _, _) = lower_schema(&schema);
            let Ty::Object(object) = ty else {
                panic!("{ty:?}")
            };
            let a: Vec<&Ty> = (object.props.iter())
                .filter(|p| p.name == "a")
                .map(|p| &p.ty)
                .collect();
            assert_eq!(a, [&Ty::Unknown], "{schema}");
        }
    }

    /// A definition that only names another names the end of the chain,
    /// and a loop of names stays cut as before.
    #[test]
    fn chains_of_names_are_shortened_to_their_end() {
        let (ty, defs, degradations) = lower_schema(&json!({
            "$defs": {
                "A": {"$ref": "#/$defs/B", "description": "An a."},
                "B": {"$ref": "#/$defs/C"},
                "C": {"$ref": "#/$defs/D"},
                "D": {"type": "string"},
                "E": {"$ref": "#/$defs/F"},
                "F": {"$ref": "#/$defs/E"}
            },
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}, "e": {"$ref": "#/$defs/E"}}
        }));
        let id = |base: &str| defs.iter().position(|d| d.base == base).unwrap();
        for base in ["A", "B", "C"] {
            assert_eq!(defs[id(base)].ty, Ty::Named(id("D")), "{base}");
        }
        assert_eq!(defs[id("A")].doc.text.as_deref(), Some("An a."));
        let Ty::Object(obj) = ty else { panic!() };
        assert_eq!(obj.props[0].ty, Ty::Named(id("A")));
        // E and F name each other: the loop is cut, and shortening the
        // rest does not spin.
        assert_eq!(degradations.len(), 1, "{degradations:?}");
        let unknown = [&defs[id("E")].ty, &defs[id("F")].ty];
        assert!(unknown.contains(&&Ty::Unknown), "{unknown:?}");
    }

    /// Input schemas whose definitions meet every case a join must get
    /// right: one body shared by many tools (in both halves, or one), the
    /// same pointer with another body, a definition only one tool has,
    /// references between definitions, alias cycles that are cut, a
    /// reference to the root, and degradations inside definition bodies and
    /// in the tools' own schemas.
    fn schema(i: usize) -> Value {
        let person = if i % 3 == 2 {
            json!({"type": "object", "properties": {"id": {"type": "integer"}, "bad": {"type": "quaternion"}}})
        } else {
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "friend": {"$ref": "#/$defs/Person"},
                    "odd": {"type": 7},
                    "tag": {"$ref": "#/$defs/Tag"}
                }
            })
        };
        let mut defs = json!({
            "Person": person,
            "Tag": {"enum": ["a", "b", [1]]},
            "Loop": {"anyOf": [{"$ref": "#/$defs/Pool"}, {"type": "null"}]},
            "Pool": {"anyOf": [{"$ref": "#/$defs/Loop"}, {"type": "string"}]},
        });
        defs[format!("Only{i}")] =
            json!({"allOf": [{"$ref": "#/$defs/Person"}, {"type": "object"}]});
        json!({
            "$defs": defs,
            "type": "object",
            "properties": {
                "who": {"$ref": "#/$defs/Person"},
                "loop": {"$ref": if i.is_multiple_of(2) { "#/$defs/Loop" } else { "#/$defs/Pool" }},
                "mine": {"$ref": format!("#/$defs/Only{i}")},
                "self": {"$ref": "#"},
                "broken": {"$ref": "#/$defs/Missing"},
            },
            "required": ["who", "missing"]
        })
    }

    #[test]
    fn a_definition_read_in_two_dialects_is_two_definitions() {
        // `Q` has keywords beside its `$ref`: a draft-07 tool reads `P`
        // alone, a 2020-12 one `P` with `y`. `P` itself reads alike.
        let schema = |draft7: bool| {
            let mut schema = json!({
                "type": "object",
                "definitions": {
                    "P": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
                    "Q": {"$ref": "#/definitions/P", "properties": {"y": {"type": "integer"}}, "required": ["y"]}
                },
                "properties": {"q": {"$ref": "#/definitions/Q"}},
                "required": ["q"]
            });
            if draft7 {
                schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
            }
            schema
        };
        for (old, new) in [("a", "b"), ("z", "b")] {
            let tools = vec![
                crate::ToolDef::new(old, schema(true)),
                crate::ToolDef::new(new, schema(false)),
            ];
            let text = crate::render(Language::TypeScript, &tools);
            let q_of = |tool: &str| {
                let line = text
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{tool}(")))
                    .unwrap_or_else(|| panic!("{text}"));
                let name = line.split("q: ").nth(1).and_then(|r| r.split(' ').next());
                let name = name.unwrap_or_else(|| panic!("{line}"));
                let body = text
                    .lines()
                    .find(|l| l.starts_with(&format!("type {name} = ")))
                    .unwrap_or_else(|| panic!("{text}"));
                body.split(" = ").nth(1).unwrap_or_default().to_owned()
            };
            assert_eq!(q_of(old), "P;", "{text}");
            assert_eq!(q_of(new), "P & { y: number };", "{text}");
            assert_eq!(text.matches("type P = ").count(), 1, "{text}");
        }
    }

    #[test]
    fn keywords_without_type_beside_other_kinds_are_left_out_and_recorded() {
        // `required` alone binds only objects: with `P` a string or null,
        // the schema admits `null`, which `P & { x: unknown }` refused.
        let schema = json!({
            "type": "object",
            "$defs": {
                "P": {"type": ["string", "null"]},
                "O": {"type": "object", "properties": {"x": {"type": "integer"}}},
                "N": {"anyOf": [{"$ref": "#/$defs/O"}, {"type": "null"}]},
                "L": {"type": ["array", "null"], "items": {"maxLength": 9}},
                "D": {"allOf": [{"$ref": "#/$defs/P"}, {"required": ["x"]}]},
                "R": {"required": ["x"]},
                "RR": {"$ref": "#/$defs/R"},
                "A": {"items": {"type": "string"}}
            },
            "properties": {
                "beside": {"$ref": "#/$defs/P", "required": ["x"]},
                "member": {"allOf": [{"$ref": "#/$defs/P"}, {"required": ["x"]}]},
                "own": {"required": ["x"], "allOf": [{"$ref": "#/$defs/P"}]},
                "nullable": {"allOf": [{"$ref": "#/$defs/N"}, {"required": ["x"]}]},
                "items": {"$ref": "#/$defs/L", "items": {"type": "string"}},
                "object": {"$ref": "#/$defs/O", "required": ["x"]},
                "typed": {"allOf": [{"$ref": "#/$defs/P"}, {"type": "object", "required": ["x"]}]},
                "both": {"allOf": [{"$ref": "#/$defs/O"}, {"$ref": "#/$defs/P"}, {"required": ["x"]}]},
                "chain": {"allOf": [{"$ref": "#/$defs/D"}, {"required": ["y"]}]},
                "tuple": {"allOf": [{"$ref": "#/$defs/P"}, {"prefixItems": [{"type": "string"}]}]},
                "nulls": {"allOf": [{"$ref": "#/$defs/P"}, {"required": ["x"], "nullable": true}]},
                "mixed": {"allOf": [
                    {"type": "object", "properties": {"x": {"type": "integer"}}},
                    {"required": ["x"]},
                    {"items": {"type": "string"}}
                ]},
                "twice": {"allOf": [{"$ref": "#/$defs/O"}, {"type": "object", "required": ["x"]}, {"required": ["x"]}]},
                "under": {"allOf": [{"$ref": "#/$defs/P"}, {"anyOf": [{"required": ["x"]}, {"required": ["y"]}]}]},
                "beside_one": {"$ref": "#/$defs/P", "oneOf": [{"required": ["x"]}, {"type": "string"}]},
                "spread": {"type": ["string", "null", "object"], "anyOf": [{"required": ["x"]}, {"required": ["y"]}]},
                "spread_ref": {"allOf": [{"type": ["object", "null"]}, {"required": ["x"]}]},
                "kinds": {"allOf": [{"required": ["x"]}, {"items": {"type": "string"}}]},
                "objects": {"type": "object", "anyOf": [{"required": ["x"]}, {"required": ["y"]}]},
                "own_null": {"properties": {"a": {"type": "string"}}, "anyOf": [{"required": ["a"]}, {"type": "null"}]},
                "union_member": {"allOf": [{"anyOf": [{"required": ["x"]}, {"type": "string"}]}, {"required": ["y"]}]},
                "both_kinds": {"allOf": [{"anyOf": [{"required": ["x"]}, {"type": "array"}]}, {"items": {"type": "number"}}]},
                "one_of_two": {"type": ["string", "null", "object"], "oneOf": [{"required": ["x"]}, {"required": ["y"]}]},
                "escaped": {"allOf": [{"enum": [null, {"x": 1}]}, {"required": ["x"]}]},
                // Members that only refer to such keywords.
                "ref_member": {"allOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/R"}]},
                "ref_typed": {"type": ["string", "null"], "allOf": [{"$ref": "#/$defs/RR"}]},
                "ref_spread": {"type": ["string", "null", "object"], "anyOf": [{"$ref": "#/$defs/R"}, {"required": ["y"]}]},
                "ref_kinds": {"allOf": [{"$ref": "#/$defs/R"}, {"$ref": "#/$defs/A"}]},
                "ref_array": {"type": ["array", "null"], "allOf": [{"$ref": "#/$defs/A"}]}
            }
        });
        // More, in a second part (one `json!` of all would be too deep).
        let more = json!({
            "$defs": {
                "RA": {"allOf": [{"required": ["x"]}, {"required": ["y"]}]},
                "C1": {"$ref": "#/$defs/C2"}, "C2": {"$ref": "#/$defs/C3"}, "C3": {"$ref": "#/$defs/C4"},
                "C4": {"$ref": "#/$defs/C5"}, "C5": {"$ref": "#/$defs/C6"}, "C6": {"$ref": "#/$defs/C7"},
                "C7": {"$ref": "#/$defs/C8"}, "C8": {"$ref": "#/$defs/C9"}, "C9": {"$ref": "#/$defs/R"}
            },
            "properties": {
                // A reference beside `type`, with `nullable`, through a long
                // chain, to an allOf, with keywords of its own.
                "ref_beside_type": {"type": ["object", "null"], "$ref": "#/$defs/R"},
                "ref_nullable": {"type": ["string", "object"], "allOf": [{"$ref": "#/$defs/R", "nullable": true}]},
                "ref_chain": {"type": ["string", "object"], "allOf": [{"$ref": "#/$defs/C1"}]},
                "ref_all_of": {"type": ["string", "object"], "allOf": [{"$ref": "#/$defs/RA"}]},
                "ref_and_own": {"type": ["string", "object"], "allOf": [{"$ref": "#/$defs/R", "required": ["y"]}]},
                // A union two levels down lets other kinds through too.
                "nested_union": {"type": ["string", "object"], "anyOf": [{"anyOf": [{"$ref": "#/$defs/R"}]}]},
                // Objects pass `A`, so the oneOf admits them only without `x`.
                "one_of_kinds": {"type": ["object", "array"], "oneOf": [{"$ref": "#/$defs/R"}, {"$ref": "#/$defs/A"}]},
                // `{ x: unknown }` lets arrays through, so `A` stands alone
                // for them.
                "spread_kinds": {"allOf": [{"anyOf": [{"required": ["x"]}, {"type": "string"}]}, {"$ref": "#/$defs/A"}]}
            }
        });
        let mut schema = schema;
        for part in ["$defs", "properties"] {
            if let (Some(all), Some(Value::Object(more))) = (
                schema.get_mut(part).and_then(Value::as_object_mut),
                more.get(part).cloned(),
            ) {
                all.extend(more);
            }
        }
        let tools = vec![crate::ToolDef::new("t", schema)];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        let text = &rendered.text;
        assert_declared(
            text,
            &[
                ("beside", "P"),
                ("member", "P"),
                ("own", "P"),
                // `N` is a reference to an object or null: the keywords
                // join the object.
                ("nullable", "O & { x: unknown } | null"),
                // A reference to a union of arrays and null: the member's
                // items spread over its arrays.
                ("items", "readonly unknown[] & readonly string[] | null"),
                ("object", "O & { x: unknown }"),
                ("typed", "P & { x: unknown }"),
                ("both", "O & P & { x: unknown }"),
                // `D` drops its own member, and so admits what `P` does.
                ("chain", "D"),
                ("tuple", "P"),
                ("nulls", "P"),
                // Only the member whose kind the rest does not admit goes.
                ("mixed", "{ x?: number } & { x: unknown }"),
                ("twice", "O & { x: unknown }"),
                // A union with a member of an implied kind lets the other kinds
                // through.
                ("under", "P"),
                ("beside_one", "P"),
                // A union of scalars and objects spreads over the objects.
                (
                    "spread",
                    "string | null | { [key: string]: unknown } & ({ x: unknown } | { y: unknown })",
                ),
                (
                    "spread_ref",
                    "{ [key: string]: unknown } & { x: unknown } | null",
                ),
                // Keywords of two kinds alone: an object or an array.
                ("kinds", "{ x: unknown } | readonly string[]"),
                (
                    "objects",
                    "{ [key: string]: unknown } & ({ x: unknown } | { y: unknown })",
                ),
                // An implied union's own choices: the rest spreads over them.
                ("own_null", "{ a?: string } & { a: unknown } | null"),
                ("union_member", "{ x: unknown } & { y: unknown } | string"),
                // `{ x: unknown }` lets every array through, so `items` stands
                // alone for arrays.
                ("both_kinds", "{ x: unknown } | readonly number[]"),
                // Other kinds pass both members, and so fail the `oneOf`: only
                // the objects of the type are left.
                (
                    "one_of_two",
                    "{ [key: string]: unknown } & ({ x: unknown } | { y: unknown })",
                ),
                // The escape hatch admits every kind.
                ("escaped", "unknown"),
                ("ref_member", "P"),
                // No choice is an object: exact.
                ("ref_typed", "string | null"),
                (
                    "ref_spread",
                    "string | null | { [key: string]: unknown } & (R | { y: unknown })",
                ),
                ("ref_kinds", "R | A"),
                ("ref_array", "readonly unknown[] & A | null"),
                ("ref_beside_type", "R & { [key: string]: unknown } | null"),
                // `null` is of no kind the type admits.
                ("ref_nullable", "string | { [key: string]: unknown } & R"),
                ("ref_chain", "string | { [key: string]: unknown } & C1"),
                ("ref_all_of", "string | { [key: string]: unknown } & RA"),
                (
                    "ref_and_own",
                    "string | { [key: string]: unknown } & R & { y: unknown }",
                ),
                ("nested_union", "string | { [key: string]: unknown } & R"),
                (
                    "one_of_kinds",
                    "{ [key: string]: unknown } | readonly unknown[]",
                ),
                ("spread_kinds", "{ x: unknown } | string | A"),
            ],
        );
        let mut dropped: Vec<&str> = rendered
            .degradations
            .iter()
            .filter(|d| d.reason.starts_with("keywords without `type`"))
            .map(|d| d.pointer.rsplit('/').next().unwrap_or_default())
            .collect();
        dropped.sort_unstable();
        assert_eq!(
            dropped,
            [
                "D",
                "beside",
                "beside_one",
                "chain",
                "escaped",
                "member",
                "mixed",
                "nulls",
                "own",
                "ref_member",
                "tuple",
                "under"
            ]
        );
        let one_of: Vec<&str> = (rendered.degradations.iter())
            .filter(|d| d.reason.starts_with("a oneOf whose members"))
            .map(|d| d.pointer.rsplit('/').next().unwrap_or_default())
            .collect();
        assert_eq!(one_of, ["one_of_kinds"]);
    }

    #[test]
    fn keywords_beside_a_reference_to_a_union_spread_over_its_objects() {
        // `P` admits strings, null and objects; the keywords beside the
        // reference bind its objects only. Leaving them out would declare
        // `{ a?: number }` alone, which refuses the key `x` every valid
        // object has.
        let schema = json!({
            "type": "object",
            "$defs": {
                "P": {"type": ["string", "null", "object"], "properties": {"a": {"type": "integer"}}},
                "Q": {"$ref": "#/$defs/P"},
                "O": {"type": "object", "properties": {"a": {"type": "integer"}}},
                "N": {"anyOf": [{"$ref": "#/$defs/O"}, {"type": "null"}]},
                "TA": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "number"}}]},
                "AnyObject": {"anyOf": [{"type": "string"}, {"type": "object"}]},
                "Untyped": {"anyOf": [{"type": "string"}, {"properties": {"id": {"type": "integer"}}}]}
            },
            "properties": {
                "p": {"$ref": "#/$defs/P", "properties": {"x": {"type": "string"}}, "required": ["x"]},
                "q": {"allOf": [{"$ref": "#/$defs/Q"}, {"required": ["x"]}]},
                // The union's object is itself a reference.
                "n": {"allOf": [{"$ref": "#/$defs/N"}, {"properties": {"y": {"type": "string"}}}]},
                // Arrays: the items meet.
                "v": {"$ref": "#/$defs/TA", "items": {"type": "integer"}},
                // Any object with a required key: other keys stay allowed.
                "w": {"$ref": "#/$defs/AnyObject", "required": ["name"]},
                // A union whose object choice has no `type` of its own.
                "u": {"$ref": "#/$defs/Untyped", "required": ["name"]}
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        assert_declared(
            &rendered.text,
            &[
                ("p", "string | null | { a?: number } & { x: string }"),
                ("q", "string | null | { a?: number } & { x: unknown }"),
                ("n", "O & { y?: string } | null"),
                ("v", "string | readonly number[]"),
                (
                    "w",
                    "string | { [key: string]: unknown } & { name: unknown }",
                ),
                ("u", "string | { id?: number } & { name: unknown }"),
            ],
        );
        assert!(
            !(rendered.degradations.iter())
                .any(|d| d.reason.starts_with("keywords without `type`")),
            "{:?}",
            rendered.degradations
        );
        let python = crate::render_report(Language::Python, &tools);
        for declared in [
            "p: str | None | TArgsP = ...",
            "v: str | list[int] = ...",
            "w: str | TArgsW = ...",
        ] {
            assert!(
                python.text.contains(declared),
                "{declared}: {}",
                python.text
            );
        }
        // A TypedDict cannot admit the other keys any object has.
        let other_keys: Vec<&str> = (python.degradations.iter())
            .filter(|d| d.reason.starts_with("keys beside the listed properties"))
            .map(|d| d.pointer.as_str())
            .collect();
        assert_eq!(other_keys, ["/inputSchema/properties/w"]);
    }

    #[test]
    fn keywords_of_other_kinds_beside_object_keywords_admit_every_kind() {
        // `minLength` applies to strings, `required` to objects: the schema
        // admits both, and every other kind, so neither is declared alone.
        let schema = json!({
            "type": "object",
            "$defs": {"R": {"required": ["x"]}, "Mail": {"$ref": "#/$defs/R", "format": "email"}},
            "properties": {
                "text": {"required": ["x"], "minLength": 2},
                "not": {"properties": {"x": {"type": "integer"}}, "not": {"type": "object"}},
                "both": {"properties": {"x": {"type": "integer"}}, "items": {"type": "string"}},
                "plain": {"required": ["x"]},
                // Beside a reference to keywords that bind objects.
                "ref": {"$ref": "#/$defs/R", "minLength": 1},
                // A `type` beside says which kinds: the object alone.
                "typed_ref": {"$ref": "#/$defs/R", "type": "object", "if": {"required": ["y"]}},
                // An `enum` beside that cannot be said does not.
                "unsaid_enum": {"$ref": "#/$defs/R", "enum": [null, {"x": 1}], "minLength": 1},
                "mail": {"$ref": "#/$defs/Mail"},
                // Keywords of one kind that shape no type still name it.
                "counted": {"required": ["x"], "minItems": 1},
                "sized": {"items": {"type": "integer"}, "minProperties": 1},
                "media": {"required": ["x"], "contentMediaType": "application/json"},
                // The other kinds' keywords in a member beside them.
                "member": {"allOf": [{"required": ["x"]}, {"minLength": 1}]},
                "union": {"required": ["x"], "anyOf": [{"minLength": 1}]},
                // A typed part refuses the other kinds.
                "typed": {"type": "object", "required": ["x"], "anyOf": [{"minLength": 1}]},
                // Nested deeper, or on the schema around the member.
                "deeper": {"required": ["x"], "allOf": [{"anyOf": [{"pattern": "a"}, {"minimum": 1}]}]},
                "around": {"allOf": [{"required": ["x"]}], "pattern": "a"}
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        let text = crate::render(Language::TypeScript, &tools);
        for (key, ty) in [
            (
                "text",
                "{ x: unknown } | readonly unknown[] | null | boolean | number | string;",
            ),
            (
                "not",
                "{ x?: number } | readonly unknown[] | null | boolean | number | string;",
            ),
            // Keywords of two kinds: both kinds.
            ("both", "{ x?: number } | readonly string[];"),
            // Alone, the kind the keywords describe.
            ("plain", "{ x: unknown };"),
            (
                "ref",
                "R | readonly unknown[] | null | boolean | number | string;",
            ),
            ("typed_ref", "R;"),
            (
                "unsaid_enum",
                "R | readonly unknown[] | null | boolean | number | string;",
            ),
            ("mail", "Mail;"),
            ("counted", "{ x: unknown } | readonly unknown[];"),
            ("sized", "{ [key: string]: unknown } | readonly number[];"),
            (
                "media",
                "{ x: unknown } | readonly unknown[] | null | boolean | number | string;",
            ),
            (
                "member",
                "{ x: unknown } | readonly unknown[] | null | boolean | number | string;",
            ),
            (
                "union",
                "{ x: unknown } | readonly unknown[] | null | boolean | number | string;",
            ),
            ("typed", "{ x: unknown };"),
            (
                "deeper",
                "{ x: unknown } | readonly unknown[] | null | boolean | number | string;",
            ),
            (
                "around",
                "{ x: unknown } | readonly unknown[] | null | boolean | number | string;",
            ),
        ] {
            assert!(text.contains(&format!(" {key}?: {ty}")), "{key}: {text}");
        }
        let python = crate::render(Language::Python, &tools);
        assert!(
            python.contains(r#""text": 'ReadOnly[R | list[Any] | None | bool | float | str]',"#),
            "{python}"
        );
    }

    /// The allowance for judging members counts the members of a union
    /// before they are lowered, so a long union at the top of a body is
    /// judged whole.
    #[test]
    fn a_long_union_is_judged_within_its_allowance() {
        let members: Vec<Value> = (0..5000)
            .map(|i| json!({"properties": {format!("k{i}"): {"type": "string"}}}))
            .collect();
        let schema = json!({"type": "object", "properties": {"u": {"anyOf": members}}});
        let (_, _, degradations) = lower_schema(&schema);
        assert!(
            !degradations.iter().any(|d| d.reason == TOO_DEEP_TO_JUDGE),
            "{:?}",
            degradations.first()
        );
    }

    /// Reading a wide schema to judge a member costs its width: each body
    /// judges afresh, so many bodies reading one wide schema would
    /// otherwise cost bodies × keys. Past a member's work it admits every
    /// kind, recorded; a schema of ordinary width is judged exactly.
    #[test]
    fn judging_a_member_pays_for_the_width_of_what_it_reads() {
        let judged = |keys: usize| {
            let mut wide: serde_json::Map<String, Value> =
                (0..keys).map(|i| (format!("x-{i}"), json!(i))).collect();
            wide.insert("properties".into(), json!({"a": {"type": "string"}}));
            let schema = json!({
                "type": "object",
                "$defs": {"T": wide},
                "properties": {"u": {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "string"}]}}
            });
            let (_, _, degradations) = lower_schema(&schema);
            !degradations.iter().any(|d| d.reason == TOO_DEEP_TO_JUDGE)
        };
        assert!(judged(100));
        assert!(!judged(20_000));
    }

    #[test]
    fn members_past_the_probes_limits_admit_every_kind_and_are_recorded() {
        // A chain of references and a nesting of unions within the limits
        // are judged; 70 nested `anyOf` are past them, and the SDK then
        // admits the text the schema may admit, and says so.
        let mut deep = json!({"$ref": "#/$defs/R"});
        for _ in 0..70 {
            deep = json!({"anyOf": [deep]});
        }
        let mut defs = serde_json::Map::new();
        for i in 1..40 {
            defs.insert(
                format!("A{i}"),
                json!({"$ref": format!("#/$defs/A{}", i + 1)}),
            );
        }
        defs.insert("A40".into(), json!({"required": ["x"]}));
        defs.insert("R".into(), json!({"required": ["x"]}));
        let schema = json!({
            "type": "object",
            "$defs": defs,
            "properties": {
                "chain": {"type": ["string", "object"], "allOf": [{"$ref": "#/$defs/A1"}]},
                "nested": {"type": ["string", "object"], "allOf": [{"anyOf": [{"anyOf": [{"anyOf": [{"$ref": "#/$defs/R"}]}]}]}]},
                "deep": {"type": ["string", "object"], "allOf": [deep]}
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        let declared = |key: &str| -> String {
            let at = rendered
                .text
                .find(&format!(" {key}?: "))
                .unwrap_or_default();
            let rest = &rendered.text[at + key.len() + 4..];
            let end = [rest.find("; "), rest.find(" })")]
                .into_iter()
                .flatten()
                .min();
            rest[..end.unwrap_or(rest.len())].trim().to_owned()
        };
        assert!(
            declared("chain").starts_with("string | "),
            "{}",
            rendered.text
        );
        assert_eq!(
            declared("nested"),
            "string | { [key: string]: unknown } & R"
        );
        assert!(declared("deep").starts_with("string"), "{}", rendered.text);
        // Recorded for `deep` (and for the unions inside it that are past
        // the limits too), and nowhere else.
        let recorded: Vec<&str> = (rendered.degradations.iter())
            .filter(|d| d.reason.contains("past what the SDK follows"))
            .map(|d| d.pointer.as_str())
            .collect();
        assert!(
            recorded.contains(&"/inputSchema/properties/deep"),
            "{recorded:?}"
        );
        assert!(
            recorded
                .iter()
                .all(|p| p.starts_with("/inputSchema/properties/deep")),
            "{recorded:?}"
        );
    }

    #[test]
    fn a_bare_type_beside_a_reference_picks_the_values_of_its_kind() {
        let object_a =
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
        let schema = json!({
            "type": "object",
            "$defs": {
                "Chain": {"$ref": "#/$defs/MaybeA"},
                "MaybeA": {"anyOf": [object_a, {"type": "null"}]},
                "Anything": {},
                "Items": {"anyOf": [{"items": {"type": "string"}}, {"type": "null"}]},
                "Place": {"type": "object", "properties": {"x": {"type": "number"}}},
                "Tree": {"anyOf": [
                    {"type": "object", "properties": {"child": {"$ref": "#/$defs/Tree", "type": "object"}}},
                    {"type": "null"}
                ]},
                "Label": {"type": ["string", "null"]}
            },
            "properties": {
                // Through a chain of references to a union: its object.
                "chain": {"$ref": "#/$defs/Chain", "type": "object"},
                "anything": {"$ref": "#/$defs/Anything", "type": "object"},
                // A choice its keywords imply an array, beside null.
                "items": {"$ref": "#/$defs/Items", "type": "array"},
                // A reference to the kind alone keeps its name.
                "place": {"$ref": "#/$defs/Place", "type": "object"},
                // A union that refers to itself stays a reference.
                "tree": {"$ref": "#/$defs/Tree", "type": "object"},
                // No value is both: the intersection stays.
                "text": {"$ref": "#/$defs/Label", "type": "object"}
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        let ts = crate::render_report(Language::TypeScript, &tools);
        assert_declared(
            &ts.text,
            &[
                ("chain", "{ a: string }"),
                ("anything", "{ [key: string]: unknown }"),
                ("items", "readonly string[]"),
                ("place", "Place"),
                ("tree", "Tree & { [key: string]: unknown }"),
                ("text", "Label & { [key: string]: unknown }"),
            ],
        );
        assert!(ts.degradations.is_empty(), "{:?}", ts.degradations);
        // Python has no intersection: where the lowering could not pick the
        // values, it declares the reference whole, and says so.
        let py = crate::render_report(Language::Python, &tools);
        for line in [
            "anything: Mapping[str, Any] = ...",
            "items: list[str] = ...",
            "place: Place = ...",
            "tree: Tree = ...",
            "text: Label = ...",
        ] {
            assert!(py.text.contains(line), "{line}: {}", py.text);
        }
        let recorded: Vec<&str> = (py.degradations.iter())
            .filter(|d| d.reason.contains("the reference's type is declared whole"))
            .map(|d| d.pointer.as_str())
            .collect();
        assert_eq!(
            recorded,
            [
                "/inputSchema/$defs/Tree/anyOf/0/properties/child",
                "/inputSchema/properties/text",
                "/inputSchema/properties/tree",
            ]
        );
    }

    #[test]
    fn choices_of_a_kind_the_typed_members_refuse_are_left_out() {
        // `properties` beside `not` or `if` speaks of objects and lets every
        // other kind through, so such a member alone is a union of every
        // kind; beside a type that admits only some, the rest go.
        let schema = json!({
            "type": "object",
            "$defs": {"O": {"type": "object", "properties": {"q": {"type": "integer"}}}},
            "properties": {
                "not_beside": {
                    "type": "object",
                    "properties": {"k": {"type": "string"}},
                    "allOf": [{"properties": {"e": {"type": "string"}}, "not": {"required": ["e", "k"]}}]
                },
                "if_beside_ref": {"allOf": [
                    {"$ref": "#/$defs/O"},
                    {"properties": {"e": {"type": "string"}}, "if": {"required": ["e"]}, "then": {"required": ["q"]}}
                ]},
                // Strings pass the `minLength` member and the type: kept.
                "two_kinds": {"type": ["string", "object"], "allOf": [{"properties": {"e": {"type": "string"}}, "minLength": 2}]},
                // The implied choice `{ x }` lets `null` through the first
                // union, so the second keeps it; `string` is refused by it.
                "implied_choice": {"allOf": [
                    {"anyOf": [{"type": "string"}, {"required": ["x"]}]},
                    {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"y": {"type": "string"}}}]}
                ]},
                // `null` goes from the type, then the two are one.
                "same_kinds": {"type": ["string", "null", "object"], "anyOf": [{"type": "string"}, {"type": "object"}]},
                // `allOf: [{}]` says nothing: the member binds only objects
                // and lets strings through (it once read as an object type,
                // and the intersection then came to nothing).
                "silent_part": {
                    "type": "string",
                    "anyOf": [{"required": ["x"], "pattern": "b$"}],
                    "allOf": [{"properties": {"y": {}}, "allOf": [{}]}]
                },
                // Typed members of no common kind: left as they were, not
                // made `never`.
                "contradiction": {"type": "string", "allOf": [{"type": "object"}], "anyOf": [{"type": "null"}, {"type": "object"}]},
                // Nothing of a kind another member refuses: as before.
                "no_other_kind": {"type": ["string", "object"], "anyOf": [{"type": "string"}, {"type": "object", "required": ["a"]}]}
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        let text = &rendered.text;
        assert_declared(
            text,
            &[
                ("not_beside", "{ k?: string } & { e?: string }"),
                ("if_beside_ref", "O & { e?: string }"),
                (
                    "two_kinds",
                    "(string | { [key: string]: unknown }) & ({ e?: string } | string)",
                ),
                ("implied_choice", "null | { x: unknown } & { y?: string }"),
                ("same_kinds", "string | { [key: string]: unknown }"),
                ("silent_part", "string"),
                (
                    "contradiction",
                    "string & { [key: string]: unknown } & (null | { [key: string]: unknown })",
                ),
                (
                    "no_other_kind",
                    "(string | { [key: string]: unknown }) & (string | { a: unknown })",
                ),
            ],
        );
        let recorded: Vec<&str> = (rendered.degradations.iter())
            .map(|d| d.pointer.rsplit('/').next().unwrap_or_default())
            .collect();
        assert_eq!(recorded, ["silent_part"], "{:?}", rendered.degradations);
        // Python gets objects it can name, where it had to say `Any`.
        let python = crate::render_report(Language::Python, &tools);
        let of = |key: &str| -> &str {
            let after = python.text.split(&format!(" {key}: ")).nth(1);
            let ty = after.and_then(|rest| rest.split(" = ").next());
            ty.unwrap_or_else(|| panic!("{key}: {}", python.text))
        };
        assert_eq!(of("not_beside"), "TArgsNotBeside", "{}", python.text);
        assert_eq!(of("if_beside_ref"), "TArgsIfBesideRef", "{}", python.text);
        assert_eq!(
            of("implied_choice"),
            "None | TArgsImpliedChoice",
            "{}",
            python.text
        );
        let recorded: Vec<&str> = (python.degradations.iter())
            .map(|d| d.pointer.rsplit('/').next().unwrap_or_default())
            .collect();
        assert_eq!(
            recorded,
            ["contradiction", "no_other_kind", "silent_part", "two_kinds"],
            "{:?}",
            python.degradations
        );
    }

    #[test]
    fn a_dynamic_reference_is_recorded_and_adds_nothing() {
        let schema = json!({
            "type": "object",
            "$defs": {"Tree": {"$dynamicAnchor": "node", "type": "object", "properties": {
                "kids": {"type": "array", "items": {"$dynamicRef": "#node"}}
            }}},
            "properties": {
                "tree": {"$ref": "#/$defs/Tree"},
                "old": {"$recursiveRef": "#", "type": "string"}
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        for language in [Language::TypeScript, Language::Python] {
            let rendered = crate::render_report(language, &tools);
            let pointers: Vec<&str> = (rendered.degradations.iter())
                .filter(|d| d.reason == DYNAMIC_REF)
                .map(|d| d.pointer.as_str())
                .collect();
            assert_eq!(
                pointers,
                [
                    "/inputSchema/$defs/Tree/properties/kids/items",
                    "/inputSchema/properties/old"
                ],
                "{language:?}"
            );
        }
        let text = crate::render(Language::TypeScript, &tools);
        assert!(
            text.contains("type Tree = { kids?: readonly unknown[] };"),
            "{text}"
        );
        assert!(text.contains(" old?: string;"), "{text}");
    }

    #[test]
    fn a_definition_only_a_dropped_member_used_is_not_declared() {
        // `R` binds objects only; no choice of `string | null` is one, so
        // the intersection is `string | null` and nothing refers to `R`.
        let schema = json!({
            "type": "object",
            "$defs": {
                "R": {"required": ["x"]},
                "Q": {"type": "object", "properties": {"q": {"$ref": "#/$defs/R"}}},
                "K": {"type": "integer"}
            },
            "properties": {
                "p": {"type": ["string", "null"], "allOf": [{"$ref": "#/$defs/R"}]},
                "k": {"$ref": "#/$defs/K"}
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        for language in [Language::TypeScript, Language::Python] {
            let rendered = crate::render_report(language, &tools);
            let text = &rendered.text;
            assert!(
                !text.contains("R = ") && !text.contains("class R("),
                "{text}"
            );
            // The definitions still used keep their names.
            assert!(text.contains("K = "), "{text}");
            assert!(
                rendered.degradations.is_empty(),
                "{:?}",
                rendered.degradations
            );
        }
        let p = json!({
            "$defs": {"R": {"required": ["x"]}},
            "type": ["string", "null"],
            "allOf": [{"$ref": "#/$defs/R"}]
        });
        assert_eq!(
            crate::json_schema_to_type(Language::TypeScript, &p),
            "string | null"
        );
    }

    #[test]
    fn an_index_signature_wider_than_other_keys_is_recorded_for_typescript() {
        let schema = json!({
            "type": "object",
            "properties": {
                "wider": {
                    "type": "object",
                    "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"enum": ["x"]}},
                    "additionalProperties": {"type": "string"}
                },
                "covered": {
                    "type": "object",
                    "properties": {"n": {"type": "integer"}, "m": {"type": ["integer", "null"]}},
                    "additionalProperties": {"type": ["number", "null"]}
                },
                "patterns": {
                    "type": "object",
                    "properties": {"flag": {"type": "boolean"}},
                    "patternProperties": {"^x": {"type": "string"}},
                    "additionalProperties": {"type": "integer"}
                }
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        let recorded = |language| -> Vec<(String, String)> {
            crate::render_report(language, &tools)
                .degradations
                .into_iter()
                .filter(|d| d.reason.contains("index signature"))
                .map(|d| (d.pointer, d.reason))
                .collect()
        };
        let typescript = recorded(Language::TypeScript);
        let pointers: Vec<&str> = typescript.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/inputSchema/properties/patterns",
                "/inputSchema/properties/wider"
            ]
        );
        // Only the keys the other keys' type does not cover are named.
        assert!(typescript[1].1.contains(r#"("a")"#), "{typescript:?}");
        assert!(typescript[0].1.contains(r#"("flag")"#), "{typescript:?}");
        assert!(recorded(Language::Python).is_empty());
    }

    #[test]
    fn a_closed_member_beside_others_is_exact_when_empty_and_recorded_otherwise() {
        let schema = json!({
            "type": "object",
            "$defs": {
                "X": {"type": "object", "properties": {"a": {"type": "string"}}},
                "Y": {"type": "object", "properties": {"b": {"type": "string"}}},
                "XY": {"allOf": [{"$ref": "#/$defs/X"}, {"$ref": "#/$defs/Y"}]},
                "U": {"anyOf": [{"$ref": "#/$defs/X"}, {"$ref": "#/$defs/Y"}]}
            },
            "properties": {
                // No keys at all: only the empty object.
                "empty": {"$ref": "#/$defs/X", "additionalProperties": false},
                // Its own key `b` only, which forbids X's `a`.
                "listed": {"allOf": [
                    {"$ref": "#/$defs/X"},
                    {"properties": {"b": {"type": "integer"}}, "additionalProperties": false}
                ]},
                // Other keys reached through an allOf, or a union.
                "through_all": {"allOf": [{"$ref": "#/$defs/XY"}, {"properties": {"a": {}}, "additionalProperties": false}]},
                "through_any": {"allOf": [{"$ref": "#/$defs/U"}, {"properties": {"a": {}}, "additionalProperties": false}]},
                // The closed member lists every key: nothing is forbidden.
                "covered": {"allOf": [
                    {"$ref": "#/$defs/X"},
                    {"properties": {"a": {}, "b": {"type": "integer"}}, "additionalProperties": false}
                ]}
            }
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        for language in [Language::TypeScript, Language::Python] {
            let rendered = crate::render_report(language, &tools);
            let recorded: Vec<&str> = (rendered.degradations.iter())
                .filter(|d| d.reason.contains("additionalProperties: false"))
                .map(|d| d.pointer.as_str())
                .collect();
            assert_eq!(
                recorded,
                [
                    "/inputSchema/properties/listed",
                    "/inputSchema/properties/through_all",
                    "/inputSchema/properties/through_any"
                ],
                "{language}"
            );
            let empty = match language {
                Language::Python => "empty: dict[str, Never] = ...",
                _ => "empty?: X & { [key: string]: never }",
            };
            assert!(rendered.text.contains(empty), "{}", rendered.text);
        }
    }

    #[test]
    fn deciding_what_definitions_admit_reads_each_once() {
        // Each definition refers to the next two: read once per path, this
        // took 2^40 steps.
        let n = 40;
        let mut defs = serde_json::Map::new();
        for i in 0..n {
            let next = |d: &str| json!({"$ref": format!("#/$defs/{d}{}", i + 1)});
            defs.insert(format!("D{i}"), json!({"anyOf": [next("D"), next("E")]}));
            defs.insert(
                format!("E{i}"),
                json!({"anyOf": [next("D"), next("E"), {"type": "string"}]}),
            );
        }
        defs.insert(format!("D{n}"), json!({"type": "object"}));
        defs.insert(format!("E{n}"), json!({"type": "object"}));
        let schema = json!({
            "type": "object",
            "$defs": defs,
            "properties": {"v": {"allOf": [{"$ref": "#/$defs/D0"}, {"required": ["x"]}]}}
        });
        let tools = vec![crate::ToolDef::new("t", schema)];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        assert!(rendered.text.contains(" v?: D0 }"), "{}", rendered.text);
    }

    #[test]
    fn halves_joined_are_one_walk() {
        let values: Vec<(String, Value, Value)> = (0..9)
            .map(|i| (format!("tool{i}"), schema(i), schema(i + 1)))
            .collect();
        let bump = Bump::new();
        let trees: Vec<(Json<'_>, Json<'_>)> = values
            .iter()
            .map(|(_, input, output)| (from_value(input, &bump), from_value(output, &bump)))
            .collect();
        let sources: Vec<ToolSource<'_>> = values
            .iter()
            .zip(&trees)
            .map(|((name, _, _), (input, output))| ToolSource {
                footprint: Default::default(),
                name,
                description: Some("does things"),
                input,
                output: (name != "tool4").then_some(output),
            })
            .collect();
        let whole = finish(lower_part(sources.iter().copied(), false));
        assert!(whole.degradations.len() > 10, "{:?}", whole.degradations);
        for at in 0..=sources.len() {
            let (first, second) = sources.split_at(at);
            let (mut joined, renumber) = join(
                lower_part(first.iter().copied(), false),
                lower_part(second.iter().copied(), false),
            );
            renumber.apply(&mut joined.tools);
            let joined = finish(joined);
            assert_eq!(joined.degradations, whole.degradations, "split at {at}");
            for language in [Language::TypeScript, Language::Python] {
                assert_eq!(
                    print(language, &joined, None),
                    print(language, &whole, None),
                    "split at {at}"
                );
            }
        }
    }

    #[test]
    fn a_type_beside_enum_or_const_keeps_the_literals_it_admits() {
        let tools = vec![crate::ToolDef::new(
            "pick",
            json!({"type": "object", "properties": {
                "mixed": {"type": "string", "enum": ["x", 1]},
                "none": {"type": "string", "const": 2},
                "whole": {"type": "integer", "enum": [1, 1.5, 2.0]},
                "or_null": {"type": ["string", "null"], "enum": ["a", null, 3]},
                "number": {"type": "number", "enum": [1, 1.5, "1"]},
                // A type JSON Schema does not know leaves the enum whole.
                "typo": {"type": "strin", "enum": ["a", 1]},
                "nullable": {"type": "string", "nullable": true, "enum": ["a", null]}
            }}),
        )];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        assert_declared(
            &rendered.text,
            &[
                ("mixed", r#""x""#),
                ("none", "never"),
                ("whole", "1 | 2.0"),
                ("or_null", r#""a" | null"#),
                ("number", "1 | 1.5"),
                ("typo", r#""a" | 1"#),
                ("nullable", r#""a" | null"#),
            ],
        );
        assert!(
            rendered.degradations.is_empty(),
            "{:?}",
            rendered.degradations
        );
        let python = crate::render(Language::Python, &tools);
        assert!(python.contains(r#"mixed: Literal["x"] = ..."#), "{python}");
        assert!(python.contains("none: Never = ..."), "{python}");
    }

    #[test]
    fn keys_of_conditional_branches_are_optional_keys_of_the_object() {
        let tools = vec![
            crate::ToolDef::new(
                "ship",
                json!({"type": "object", "properties": {"mode": {"enum": ["x", "y"]}}, "required": ["mode"],
                    "if": {"properties": {"mode": {"const": "x"}}},
                    "then": {"properties": {"xval": {"type": "integer"}, "both": {"type": "string"}}, "required": ["xval"]},
                    "else": {"properties": {"yval": {"type": "string"}, "both": {"type": "boolean"}, "mode": {"type": "string"}}}}),
            ),
            crate::ToolDef::new(
                "pay",
                json!({"type": "object", "properties": {"card": {"type": "string"}},
                    "dependentSchemas": {"card": {"properties": {"billing": {"type": "string", "description": "Where the bill goes."}}}}}),
            ),
            // Several conditions, each an `allOf` member of its own.
            crate::ToolDef::new(
                "several",
                json!({"type": "object", "properties": {"kind": {"enum": ["a", "b"]}}, "allOf": [
                    {"if": {"properties": {"kind": {"const": "a"}}}, "then": {"properties": {"first": {"type": "integer"}}}},
                    {"if": {"properties": {"kind": {"const": "b"}}}, "then": {"properties": {"first": {"type": "string"}, "second": {"type": "null"}}}}
                ]}),
            ),
            // `additionalProperties: false` refuses keys the branches name.
            crate::ToolDef::new(
                "closed",
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false,
                    "then": {"properties": {"b": {"type": "string"}}}}),
            ),
        ];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        let text = &rendered.text;
        assert_declared(
            text,
            &[
                ("xval", "number"),
                ("yval", "string"),
                ("both", "string | boolean"),
                ("billing", "string"),
            ],
        );
        // The object's own `mode` keeps its own type.
        assert!(text.contains(r#"mode: "x" | "y";"#), "{text}");
        assert!(text.contains("// Where the bill goes."), "{text}");
        assert!(text.contains("closed(args?: { a?: string }"), "{text}");
        let pointers: Vec<(&str, &str)> = (rendered.degradations.iter())
            .map(|d| (d.tool.as_str(), d.pointer.as_str()))
            .collect();
        assert_eq!(
            pointers,
            [
                ("pay", "/inputSchema"),
                ("several", "/inputSchema"),
                ("ship", "/inputSchema")
            ]
        );
        assert!(
            text.contains(
                r#"several(args?: { first?: number | string; kind?: "a" | "b"; second?: null })"#
            ),
            "{text}"
        );
        let python = crate::render(Language::Python, &tools);
        assert!(
            python.contains("xval: int = ..., yval: str = ..."),
            "{python}"
        );
    }

    /// Keys an object does not list hold one type for all of them, which
    /// widens where patterns and `additionalProperties` give keys different
    /// types: recorded. Which keys a pattern admits is not, as the README
    /// says of the patterns.
    #[test]
    fn patterns_that_type_keys_apart_are_recorded() {
        let s = json!({"type": "string"});
        let cases = [
            (json!({"^x": s}), json!({"type": "number"}), true),
            (json!({"^x": {"const": "a"}}), s.clone(), true),
            (
                json!({"^x": s, "^y": {"type": "number"}}),
                json!(false),
                true,
            ),
            (json!({"^x": s}), json!(false), false),
            (json!({"^x": s, "^y": s}), s.clone(), false),
            (json!({"^x": false}), json!(false), false),
            (json!({"^x": false}), s.clone(), true),
            (json!({}), json!(false), false),
            // Other keys of any type: the SDK says any value, as it does
            // without `additionalProperties`.
            (json!({"^x": s}), json!(true), false),
        ];
        for (patterns, additional, recorded) in cases {
            let schema = json!({"type": "object", "properties": {"id": s},
                "patternProperties": patterns, "additionalProperties": additional});
            let (_, _, degradations) = lower_schema(&schema);
            assert_eq!(
                degradations.iter().any(|d| d.reason == PATTERN_KEYS),
                recorded,
                "{schema}: {degradations:?}"
            );
        }
        // Without `additionalProperties` other keys hold any value.
        let open = json!({"type": "object", "patternProperties": {"^x": s}});
        assert!(lower_schema(&open).2.is_empty());
    }

    /// A branch whose keys lie behind a `$ref`, in combinators, under a
    /// pattern or in further conditions may name keys the object does not
    /// list, so the object admits other keys (recorded); a branch that only
    /// lists properties, or requires keys, leaves the object as it was.
    #[test]
    fn an_object_admits_other_keys_where_a_branch_hides_its_keys() {
        let b = json!({"properties": {"b": {"type": "number"}}});
        let hiding = [
            ("ref", json!({"$ref": "#/$defs/B"})),
            (
                "ref_beside",
                json!({"$ref": "#/$defs/B", "properties": {"c": {"type": "string"}}}),
            ),
            ("all_of", json!({"allOf": [b]})),
            ("any_of", json!({"anyOf": [b, {"required": ["a"]}]})),
            ("one_of", json!({"oneOf": [b]})),
            (
                "pattern",
                json!({"patternProperties": {"^x": {"type": "string"}}}),
            ),
            ("nested", json!({"if": {"required": ["a"]}, "then": b})),
            ("dynamic", json!({"$dynamicRef": "#node"})),
        ];
        let plain = [
            ("listed", b.clone()),
            ("required", json!({"required": ["a"]})),
            ("not_object", json!(true)),
        ];
        let object = |then: &Value, draft: Option<&str>| {
            let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}},
                "if": {"properties": {"a": {"const": "x"}}}, "then": then, "$defs": {"B": b}});
            if let Some(draft) = draft {
                schema["$schema"] = json!(draft);
            }
            lower_schema(&schema)
        };
        let is_open = |ty: &Ty| match ty {
            Ty::Object(object) => matches!(&object.extra, Extra::Values(v) if **v == Ty::Unknown),
            other => panic!("not an object: {other:?}"),
        };
        for (name, then) in &hiding {
            let (ty, _, degradations) = object(then, None);
            assert!(is_open(&ty), "{name}: {ty:?}");
            assert!(
                degradations
                    .iter()
                    .any(|d| d.reason == BRANCH_KEYS_UNREAD && d.pointer.is_empty()),
                "{name}: {degradations:?}"
            );
        }
        for (name, then) in &plain {
            let (ty, _, degradations) = object(then, None);
            assert!(!is_open(&ty), "{name}: {ty:?}");
            assert!(
                degradations.iter().all(|d| d.reason != BRANCH_KEYS_UNREAD),
                "{name}"
            );
        }
        // In draft 7 a `$ref` branch is only its reference, and hides keys
        // the same way; `dependencies` is a branch there too.
        let draft7 = "http://json-schema.org/draft-07/schema#";
        assert!(is_open(&object(&hiding[0].1, Some(draft7)).0));
        let dependencies = json!({"$schema": draft7, "type": "object",
            "properties": {"a": {"type": "string"}},
            "dependencies": {"a": {"$ref": "#/definitions/B"}}, "definitions": {"B": b}});
        assert!(is_open(&lower_schema(&dependencies).0));
        // Conditions within members of `anyOf`, `oneOf` or `allOf` (past
        // the `allOf` members that are only conditions, whose branches are
        // read), or behind the object's own `$ref`, hide their keys as
        // well; a `$ref` to an object, or members without conditions, do
        // not.
        let cond = json!({"if": {"required": ["a"]}, "then": b});
        let members = [
            ("anyOf", json!([cond, {"required": ["a"]}]), true),
            (
                "oneOf",
                json!([{"$ref": "#/$defs/C"}, {"required": ["x"]}]),
                true,
            ),
            ("allOf", json!([{"$ref": "#/$defs/C"}]), true),
            ("allOf", json!([{"$ref": "#/$defs/B"}]), false),
            (
                "anyOf",
                json!([{"required": ["a"]}, {"required": ["x"]}]),
                false,
            ),
            // Deeper: through combinators, and through references.
            ("allOf", json!([{"allOf": [cond]}]), true),
            (
                "allOf",
                json!([{"anyOf": [{"oneOf": [cond, {}]}, {}]}]),
                true,
            ),
            ("allOf", json!([{"$ref": "#/$defs/C2"}]), true),
            ("oneOf", json!([{"$ref": "#/$defs/C2"}, {}]), true),
            ("$ref", json!("#/$defs/C"), true),
            ("allOf", json!([{"$ref": "#/$defs/Base"}]), false),
            // A loop of references holds no conditions.
            ("allOf", json!([{"$ref": "#/$defs/Loop"}]), false),
        ];
        for (keyword, list, open) in members {
            let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}},
                "$defs": {"B": b, "C": cond, "C2": {"$ref": "#/$defs/C"},
                    "Base": {"type": "object", "properties": {"z": {}}, "allOf": [{"$ref": "#/$defs/B"}]},
                    "Loop": {"allOf": [{"$ref": "#/$defs/Loop"}], "type": "object"}}});
            schema[keyword] = list;
            let (ty, _, degradations) = lower_schema(&schema);
            // The object's own part, where the members made an intersection.
            let own = match &ty {
                Ty::Inter(parts, _) => (parts.iter())
                    .find(|part| matches!(part, Ty::Object(_)))
                    .unwrap_or_else(|| panic!("{schema}: {ty:?}")),
                ty => ty,
            };
            assert_eq!(is_open(own), open, "{schema}: {ty:?}");
            let recorded = degradations.iter().any(|d| d.reason == BRANCH_KEYS_UNREAD);
            assert_eq!(recorded, open, "{schema}: {degradations:?}");
        }
        // `additionalProperties` decides where it speaks.
        let closed = json!({"type": "object", "properties": {"a": {"type": "string"}},
            "additionalProperties": false, "then": {"$ref": "#/$defs/B"}, "$defs": {"B": b}});
        assert!(matches!(
            lower_schema(&closed).0,
            Ty::Object(Object {
                extra: Extra::Closed,
                ..
            })
        ));
    }

    /// What a search for conditions finds does not depend on the order it
    /// meets schemas in: a reference met first past the depth or the count
    /// the search allows, or inside a loop of references, is not taken for
    /// one that holds no conditions when it is met again.
    #[test]
    fn conditions_are_found_whatever_order_they_are_met_in() {
        let cond =
            json!({"if": {"required": ["a"]}, "then": {"properties": {"b": {"type": "number"}}}});
        let to_c = json!({"$ref": "#/$defs/C"});
        let mut deep = to_c.clone();
        for _ in 0..=CONDITIONS_DEPTH {
            deep = json!({"allOf": [deep]});
        }
        let mut long = vec![json!({}); CONDITIONS_READ];
        long.push(to_c.clone());
        let long = json!({"allOf": long});
        let object = |all_of: Value, defs: Value| {
            json!({"type": "object", "properties": {"a": {"type": "string"}},
                "allOf": all_of, "$defs": defs})
        };
        let c = json!({"C": cond});
        let tools = vec![
            crate::ToolDef::new("deep_first", object(json!([deep, to_c]), c.clone())),
            crate::ToolDef::new("ref_first", object(json!([to_c, deep]), c.clone())),
            crate::ToolDef::new("long_first", object(json!([long, to_c]), c.clone())),
            // A loop of references, with the conditions on it.
            crate::ToolDef::new(
                "looped",
                object(
                    json!([{"$ref": "#/$defs/B"}]),
                    json!({
                "A": {"allOf": [{"$ref": "#/$defs/B"}, cond]},
                "B": {"allOf": [{"$ref": "#/$defs/A"}]}}),
                ),
            ),
        ];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        for tool in &tools {
            let line = (rendered.text.lines())
                .find(|l| l.trim_start().starts_with(&format!("{}(", tool.name)))
                .unwrap_or_else(|| panic!("{}: {}", tool.name, rendered.text));
            assert!(line.contains("[key: string]: unknown }"), "{line}");
            assert!(
                (rendered.degradations.iter())
                    .any(|d| d.tool == tool.name && d.reason == BRANCH_KEYS_UNREAD),
                "{}: {:?}",
                tool.name,
                rendered.degradations
            );
        }
        // An object with no keys of its own admits any key already: its
        // conditions are not recorded.
        let bare = json!({"type": "object", "allOf": [to_c], "$defs": c});
        assert!(
            lower_schema(&bare)
                .2
                .iter()
                .all(|d| d.reason != BRANCH_KEYS_UNREAD)
        );
    }

    /// A key that a branch describes and another part of the schema types
    /// keeps that part's type, as a key of the object's own does: outside
    /// the branch, any value of that type is valid. Where a part may type
    /// keys that are not read here (a reference, a union), a key only a
    /// branch describes holds any value.
    #[test]
    fn a_key_another_part_types_is_not_narrowed_by_a_branch() {
        let then_x =
            json!({"if": {"required": ["d"]}, "then": {"properties": {"b": {"const": "x"}}}});
        let b_string = json!({"properties": {"b": {"type": "string"}}});
        let key_b = |schema: Value| -> Vec<Ty> {
            let (ty, _, _) = lower_schema(&schema);
            let mut found = Vec::new();
            let mut visit = |ty: &Ty| {
                if let Ty::Object(object) = ty {
                    found.extend(
                        object
                            .props
                            .iter()
                            .filter(|p| p.name == "b")
                            .map(|p| p.ty.clone()),
                    );
                }
            };
            match &ty {
                Ty::Inter(parts, _) => parts.iter().for_each(&mut visit),
                ty => visit(ty),
            }
            found
        };
        // Beside a member that lists it, in `allOf` or as `dependentSchemas`.
        let all_of = json!({"type": "object", "allOf": [b_string, then_x]});
        assert_eq!(key_b(all_of), [Ty::Str]);
        let dependent = json!({"type": "object", "allOf": [b_string,
            {"dependentSchemas": {"d": {"properties": {"b": {"type": "integer"}}}}}]});
        assert_eq!(key_b(dependent), [Ty::Str]);
        // Beside a reference, whose keys are not read here, or a union.
        let referenced = json!({"type": "object", "$defs": {"Base": b_string},
            "allOf": [{"$ref": "#/$defs/Base"}, then_x]});
        assert_eq!(key_b(referenced), [Ty::Unknown]);
        let own_ref = json!({"type": "object", "properties": {"z": {"type": "string"}},
            "$defs": {"Base": {"type": "object", "properties": {"b": {"type": "string"}}}},
            "$ref": "#/$defs/Base", "if": {"required": ["d"]}, "then": {"properties": {"b": {"const": "x"}}}});
        assert_eq!(key_b(own_ref), [Ty::Unknown]);
        let union =
            json!({"type": "object", "anyOf": [b_string, {"required": ["c"]}], "allOf": [then_x]});
        let b = key_b(union);
        assert!(
            b.contains(&Ty::Unknown) && !b.contains(&Ty::Lit(Lit::Str("x".into()))),
            "{b:?}"
        );
        // Alone, the branch still gives its type, recorded.
        let alone = json!({"type": "object", "allOf": [then_x]});
        assert_eq!(key_b(alone), [Ty::Lit(Lit::Str("x".into()))]);
        // Required and described only by a branch, the key is declared
        // once (twice would be a duplicate name, which neither language
        // parses), required, and of any type: outside the branch it holds
        // what any key does.
        let required = json!({"type": "object", "required": ["b", "b"],
            "dependentSchemas": {"d": {"properties": {"b": {"type": "string"}}}}});
        let (ty, _, _) = lower_schema(&required);
        let Ty::Object(object) = ty else {
            panic!("{ty:?}")
        };
        let b: Vec<(&Ty, bool)> = (object.props.iter())
            .filter(|p| p.name == "b")
            .map(|p| (&p.ty, p.required))
            .collect();
        assert_eq!(b, [(&Ty::Unknown, true)]);
        // A member whose `enum` decides its type does not declare the keys
        // it lists, so they do not count as typed: the branch's key is
        // declared, of any type.
        let enumerated = json!({"type": "object", "properties": {"z": {}}, "allOf": [
            {"properties": {"b": {"type": "string"}}, "enum": [{"b": "s"}]},
            {"dependentSchemas": {"d": {"properties": {"b": {"type": "string"}}}}}]});
        assert_eq!(key_b(enumerated), [Ty::Unknown]);
        // Required by a member and described only by a branch: of any type,
        // as where the object itself requires it.
        let required_by_member = json!({"type": "object", "allOf": [{"required": ["b"]}],
            "if": {"required": ["d"]}, "then": {"properties": {"b": {"type": "string"}}}});
        assert_eq!(key_b(required_by_member), [Ty::Unknown]);
        // And an own `type` keeps the object an object, where its part reads
        // the same as the member's.
        let (ty, _, _) = lower_schema(
            &json!({"type": "object", "required": ["b"], "allOf": [{"required": ["b"]}],
            "if": {"required": ["d"]}, "then": {"properties": {"b": {"type": "string"}}}}),
        );
        assert!(matches!(ty, Ty::Object(_)), "{ty:?}");
    }

    /// A keyword the schema's `$schema` dialect lacks is no keyword there:
    /// `const` before draft 6, `then` before draft 7, `dependentSchemas`
    /// before 2019-09, `prefixItems` before 2020-12; and `dependencies`
    /// only before 2019-09. Without `$schema`, 2020-12 reads them all.
    #[test]
    fn keywords_the_dialect_lacks_are_not_read() {
        let draft = |n: &str| Some(format!("http://json-schema.org/draft-{n}/schema#"));
        let d2019 = Some("https://json-schema.org/draft/2019-09/schema".to_owned());
        let with_const = json!({"properties": {"m": {"const": "fast"}}});
        let branch = json!({"properties": {"a": {}}, "if": {"required": ["a"]},
                            "then": {"properties": {"m": {"type": "string"}}}});
        let dependent = json!({"properties": {"a": {}},
                               "dependentSchemas": {"a": {"properties": {"m": {"type": "string"}}}}});
        let tuple = json!({"properties": {"m": {"type": "array", "prefixItems": [{"type": "string"}],
                                                "items": {"type": "integer"}}}});
        // A closed member types `m`, unless a branch of it may let it hold
        // anything.
        let closed_then = json!({"anyOf": [{"not": {"required": ["m"]}},
            {"properties": {"m": {"type": "string"}}, "additionalProperties": false,
             "dependentSchemas": {"m": {"properties": {"m": {}}}}}]});
        // Before 2019-09, `dependencies` holds schemas (and lists of
        // names); after it, it is no keyword.
        let dependencies = json!({"properties": {"a": {}},
            "dependencies": {"a": {"properties": {"m": {"type": "string"}}}, "m": ["a"]}});
        // Before 2019-09, a branch that is a `$ref` says only that.
        let ref_branch = json!({"definitions": {"E": {}}, "properties": {"a": {}},
            "if": {"required": ["a"]}, "then": {"$ref": "#/definitions/E",
                                                "properties": {"m": {"type": "string"}}}});
        let fast = Some(Ty::Lit(Lit::Str("fast".into())));
        let integers = Some(Ty::Array(Box::new(Ty::Int)));
        let tuple_of_2020 = Some(Ty::Tuple(Tuple {
            items: vec![Ty::Str],
            required: 0,
            rest: Some(Box::new(Ty::Int)),
        }));
        for (dialect, schema, m) in [
            (draft("04"), &with_const, Some(Ty::Unknown)),
            (draft("06"), &with_const, fast.clone()),
            (None, &with_const, fast),
            (draft("06"), &branch, None),
            (draft("07"), &branch, Some(Ty::Str)),
            (draft("07"), &dependent, None),
            (d2019.clone(), &dependent, Some(Ty::Str)),
            (draft("07"), &tuple, integers.clone()),
            (d2019.clone(), &tuple, integers),
            (None, &tuple, tuple_of_2020),
            (draft("07"), &closed_then, Some(Ty::Str)),
            (draft("07"), &ref_branch, None),
            (draft("04"), &dependencies, Some(Ty::Str)),
            (draft("07"), &dependencies, Some(Ty::Str)),
            (d2019.clone(), &dependencies, None),
            (None, &dependencies, None),
            (None, &ref_branch, Some(Ty::Str)),
            (None, &closed_then, Some(Ty::Unknown)),
        ] {
            let mut schema = schema.clone();
            schema["type"] = json!("object");
            if let Some(dialect) = &dialect {
                schema["$schema"] = json!(dialect);
            }
            let (ty, _, _) = lower_schema(&schema);
            let Ty::Object(object) = ty else {
                panic!("{ty:?}")
            };
            let found = (object.props.into_iter()).find(|p| p.name == "m");
            assert_eq!(found.map(|p| p.ty), m, "{schema}");
        }
        // An object whose only keys are its branches' still admits others.
        let only_branches = json!({"type": "object",
            "dependentSchemas": {"a": {"properties": {"m": {"type": "integer"}}}}});
        let Ty::Object(object) = lower_schema(&only_branches).0 else {
            panic!()
        };
        assert_eq!(object.extra, Extra::Values(Box::new(Ty::Unknown)));
        // Draft 3 is not read: any value, recorded.
        let three = json!({"$schema": "http://json-schema.org/draft-03/schema#", "type": "object",
                           "properties": {"a": {"type": "string", "required": true}}, "required": ["a"]});
        let (ty, _, degradations) = lower_schema(&three);
        assert_eq!((ty, degradations.len()), (Ty::Unknown, 1));
        assert!(degradations[0].reason.contains("draft 3"));
    }

    /// One definition's text in two dialects is two types, so tools that
    /// name different dialects do not share it; in dialects where it
    /// reads the same, they do.
    #[test]
    fn a_definition_is_shared_only_where_the_dialects_read_it_alike() {
        let tool = |name: &str, draft: Option<&str>| {
            let mut input = json!({"type": "object", "properties": {"m": {"$ref": "#/$defs/Mode"}},
                                   "$defs": {"Mode": {"const": "fast"}}});
            if let Some(draft) = draft {
                input["$schema"] = json!(draft);
            }
            crate::ToolDef::new(name, input)
        };
        let catalog = crate::Catalog::new(vec![
            tool("a_old", Some("http://json-schema.org/draft-04/schema#")),
            tool("b_new", None),
            tool("c_seven", Some("http://json-schema.org/draft-07/schema#")),
        ]);
        let ts = catalog.render(crate::Language::TypeScript);
        assert!(ts.contains("type Mode = unknown;"), "{ts}");
        assert!(ts.contains("type Mode2 = \"fast\";"), "{ts}");
        assert!(ts.contains("b_new(args?: { m?: Mode2 })"), "{ts}");
        assert!(ts.contains("c_seven(args?: { m?: Mode2 })"), "{ts}");
    }

    #[test]
    fn unevaluated_properties_open_an_object_that_lists_its_keys() {
        let tools = vec![crate::ToolDef::new(
            "t",
            json!({"type": "object", "properties": {
                "open": {"type": "object", "properties": {"id": {"type": "integer"}}, "unevaluatedProperties": true},
                // Alone, it is `additionalProperties`.
                "alone": {"type": "object", "properties": {"id": {"type": "string"}}, "unevaluatedProperties": {"type": "string"}},
                // Beside an applicator, which keys it covers depends on
                // the value: any value, recorded.
                "beside": {"type": "object", "properties": {"id": {"type": "string"}},
                    "allOf": [{"properties": {"n": {"type": "integer"}}}], "unevaluatedProperties": {"type": "string"}},
                "closed": {"type": "object", "properties": {"id": {"type": "string"}}, "unevaluatedProperties": false},
                // `additionalProperties` decides where both are given.
                "both": {"type": "object", "properties": {"id": {"type": "string"}},
                    "additionalProperties": false, "unevaluatedProperties": true}
            }}),
        )];
        let rendered = crate::render_report(Language::TypeScript, &tools);
        assert_declared(
            &rendered.text,
            &[
                ("open", "{ id?: number; [key: string]: unknown }"),
                (
                    "alone",
                    "{ id?: string; [key: string]: string | undefined }",
                ),
                ("closed", "{ id?: string }"),
                ("both", "{ id?: string }"),
            ],
        );
        assert!(
            rendered.text.contains("[key: string]: unknown }"),
            "{}",
            rendered.text
        );
        let reasons: Vec<(&str, &str)> = (rendered.degradations.iter())
            .map(|d| (d.pointer.as_str(), &d.reason[..24]))
            .collect();
        assert_eq!(
            reasons,
            [("/inputSchema/properties/beside", "`unevaluatedProperties` ")]
        );
    }
}
