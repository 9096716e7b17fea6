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

use super::ir::{Doc, Extra, Object, Prop, Ty};
use super::lower::{Def, Lowered};
use crate::ident::pascal_case;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::hash_map::Entry;
use std::hash::BuildHasher;

/// Fewest properties an object needs before a name saves more than it
/// costs (a name is one or two tokens, a property several).
const MIN_PROPS: usize = 2;

/// What the count knows about one object type.
struct Seen {
    /// Occurrences, a copy inside a repeated object counted once.
    count: usize,
    /// The definition whose body it is, if one is.
    def: Option<usize>,
    /// Where it was first met: the name it asks for, and the tool and
    /// pointer of the schema holding it.
    base: String,
    tool: String,
    pointer: String,
    /// When it was first met, which orders the new definitions.
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
    Property(&'a str),
}

impl Ctx<'_> {
    fn base(&self) -> String {
        let mut base = match self.stem {
            Stem::Given(base) => base.to_owned(),
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

    fn root<'a>(base: &'a str, tool: &'a str, pointer: &'a str) -> Ctx<'a> {
        Ctx {
            stem: Stem::Given(base),
            value: false,
            items: 0,
            tool,
            pointer,
        }
    }
}

/// Gives every repeated object type of `lowered` one definition.
pub(crate) fn share_repeated(lowered: &mut Lowered) {
    // An object with properties prints the same whether or not it admits
    // other keys (`additionalProperties: false` or absent), and input
    // schemas tend to say it where output schemas do not: forgotten first,
    // so the two compare equal.
    for def in &mut lowered.defs {
        visit_mut(&mut def.ty, &mut open_objects);
    }
    for tool in &mut lowered.tools {
        visit_mut(&mut tool.input, &mut open_objects);
        if let Some(output) = &mut tool.output {
            visit_mut(output, &mut open_objects);
        }
    }
    let shapes = count(lowered);
    if shapes.is_empty() {
        return;
    }
    // Existing definitions keep their ids; new ones follow in the order
    // their shapes were first met, which depends only on the tool set.
    let mut ids = Ids {
        by_shape: HashMap::with_capacity(shapes.len()),
        heads: HashSet::with_capacity(shapes.len()),
    };
    for (ty, seen) in shapes {
        let id = match seen.def {
            Some(id) => id,
            None => {
                lowered.defs.push(Def {
                    key: format!("shared:{:08}", seen.order),
                    base: seen.base,
                    ty: ty.clone(),
                    doc: Doc::default(),
                    tool: seen.tool,
                    pointer: seen.pointer,
                });
                lowered.defs.len() - 1
            }
        };
        if let Ty::Object(obj) = &ty {
            ids.heads.insert(head(obj));
        }
        ids.by_shape.insert(ty, id);
    }
    for def in &mut lowered.defs {
        replace_within(&mut def.ty, &ids);
    }
    for tool in &mut lowered.tools {
        replace(&mut tool.input, &ids);
        if let Some(output) = &mut tool.output {
            replace(output, &ids);
        }
    }
}

/// Fewest characters of description that, repeated, pay for an alias: the
/// alias costs its name, `type`, `=` and punctuation (about eight tokens),
/// and a token is about four characters of prose.
const MIN_SAVED_CHARS: usize = 32;

/// A described property type, as the alias pass counts it.
struct Described {
    count: usize,
    base: String,
    tool: String,
    pointer: String,
    order: usize,
    chars: usize,
}

/// Gives every property type that several properties share together with
/// their description one described alias.
pub(crate) fn share_described(lowered: &mut Lowered) {
    let shared = count_described(lowered);
    if shared.is_empty() {
        return;
    }
    let mut ids: HashMap<(Ty, Doc), usize> = HashMap::with_capacity(shared.len());
    for ((ty, doc), d) in shared {
        lowered.defs.push(Def {
            key: format!("described:{:08}", d.order),
            base: d.base,
            ty: ty.clone(),
            doc: doc.clone(),
            tool: d.tool,
            pointer: d.pointer,
        });
        ids.insert((ty, doc), lowered.defs.len() - 1);
    }
    let refer = &mut |ty: &mut Ty| {
        if let Ty::Object(obj) = ty {
            for prop in &mut obj.props {
                // Moved out to be looked up, and back unless it is shared.
                let key = (std::mem::take(&mut prop.ty), std::mem::take(&mut prop.doc));
                match ids.get(&key) {
                    Some(&id) => prop.ty = Ty::Named(id),
                    None => (prop.ty, prop.doc) = key,
                }
            }
        }
    };
    // An alias's body is a property's type, never a property, so no alias
    // comes to refer to itself.
    for def in &mut lowered.defs {
        visit_mut(&mut def.ty, refer);
    }
    for tool in &mut lowered.tools {
        visit_mut(&mut tool.input, refer);
        if let Some(output) = &mut tool.output {
            visit_mut(output, refer);
        }
    }
}

/// The described property types worth an alias, in the order first met. A
/// repeat is counted without being entered, as [`count`] does.
fn count_described(lowered: &Lowered) -> Vec<((Ty, Doc), Described)> {
    let mut seen: HashMap<Keyed<(&Ty, &Doc)>, Described> = HashMap::new();
    let mut order = 0;
    let mut todo: Vec<(&Ty, &str, &str)> = Vec::new();
    for tool in lowered.tools.iter().rev() {
        if let Some(output) = &tool.output {
            todo.push((output, &tool.name, "/outputSchema"));
        }
        todo.push((&tool.input, &tool.name, "/inputSchema"));
    }
    for def in lowered.defs.iter().rev() {
        todo.push((&def.ty, &def.tool, &def.pointer));
    }
    while let Some((ty, tool, pointer)) = todo.pop() {
        let mut inside = Vec::new();
        each_child(ty, &mut |child, step| {
            if let Step::Property(prop) = step
                && !prop.doc.is_empty()
            {
                let key = Keyed::new((&prop.ty, &prop.doc));
                if let Some(d) = seen.get_mut(&key) {
                    d.count += 1;
                    return;
                }
                let notes: usize = prop
                    .doc
                    .notes
                    .iter()
                    .map(|(k, v)| k.len() + v.len() + 2)
                    .sum();
                let chars = prop.doc.text.as_deref().map_or(0, str::len) + notes;
                seen.insert(
                    key,
                    Described {
                        count: 1,
                        base: pascal_case(&prop.name),
                        tool: tool.to_owned(),
                        pointer: pointer.to_owned(),
                        order,
                        chars,
                    },
                );
                order += 1;
            }
            inside.push((child, tool, pointer));
        });
        // In order: the first child is met first.
        todo.extend(inside.into_iter().rev());
    }
    let mut shared: Vec<((Ty, Doc), Described)> = seen
        .into_iter()
        .map(|(key, d)| (key.key, d))
        .filter(|(_, d)| d.count >= 2 && (d.count - 1) * d.chars >= MIN_SAVED_CHARS)
        .map(|((ty, doc), d)| ((ty.clone(), doc.clone()), d))
        .collect();
    shared.sort_by_key(|(_, d)| d.order);
    shared
}

/// How a type stands inside the one around it.
#[derive(Clone, Copy)]
enum Step<'t> {
    /// The type of this property.
    Property(&'t Prop),
    /// The type of an index signature's values.
    Value,
    /// An array's or a tuple's items.
    Item,
    /// A member of a union or an intersection.
    Member,
}

/// Calls `f` on each type directly inside `ty`, with how it stands there.
fn each_child<'t>(ty: &'t Ty, f: &mut impl FnMut(&'t Ty, Step<'t>)) {
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

/// The object types worth a name, each with what the count found, in the
/// order they were first met.
fn count(lowered: &Lowered) -> Vec<(Ty, Seen)> {
    let mut seen: HashMap<Keyed<&Ty>, Seen> = HashMap::new();
    let mut order = 0;
    // Definitions' bodies first: an object equal to one becomes a
    // reference to it rather than a second name.
    for (id, def) in lowered.defs.iter().enumerate() {
        if let Ty::Object(obj) = &def.ty
            && obj.props.len() >= MIN_PROPS
            && !seen.contains_key(&Keyed::new(&def.ty))
        {
            seen.insert(
                Keyed::new(&def.ty),
                Seen {
                    count: 1,
                    def: Some(id),
                    base: String::new(),
                    tool: String::new(),
                    pointer: String::new(),
                    order,
                },
            );
            order += 1;
        }
    }
    for def in &lowered.defs {
        let ctx = Ctx::root(&def.base, &def.tool, &def.pointer);
        walk_within(&def.ty, ctx, &mut seen, &mut order);
    }
    for tool in &lowered.tools {
        let base = pascal_case(&tool.name);
        let args = format!("{base}Args");
        let ctx = Ctx::root(&args, &tool.name, "/inputSchema");
        walk(&tool.input, ctx, &mut seen, &mut order);
        if let Some(output) = &tool.output {
            let output_base = format!("{base}Output");
            let ctx = Ctx::root(&output_base, &tool.name, "/outputSchema");
            walk(output, ctx, &mut seen, &mut order);
        }
    }
    let mut shapes: Vec<(Ty, Seen)> = seen
        .into_iter()
        .map(|(key, s)| (key.key, s))
        .filter(|(_, s)| s.count >= 2)
        .map(|(ty, s)| (ty.clone(), s))
        .collect();
    shapes.sort_by_key(|(_, s)| s.order);
    shapes
}

/// Counts `ty` and, the first time it is met, what is inside it.
fn walk<'t>(ty: &'t Ty, ctx: Ctx<'_>, seen: &mut HashMap<Keyed<&'t Ty>, Seen>, order: &mut usize) {
    if let Ty::Object(obj) = ty
        && obj.props.len() >= MIN_PROPS
    {
        let entry = match seen.entry(Keyed::new(ty)) {
            Entry::Occupied(mut seen) => {
                seen.get_mut().count += 1;
                return;
            }
            Entry::Vacant(entry) => entry,
        };
        entry.insert(Seen {
            count: 1,
            def: None,
            base: ctx.base(),
            tool: ctx.tool.to_owned(),
            pointer: ctx.pointer.to_owned(),
            order: *order,
        });
        *order += 1;
    }
    walk_within(ty, ctx, seen, order);
}

/// Walks the types directly inside `ty`.
fn walk_within<'t>(
    ty: &'t Ty,
    ctx: Ctx<'_>,
    seen: &mut HashMap<Keyed<&'t Ty>, Seen>,
    order: &mut usize,
) {
    each_child(ty, &mut |child, step| {
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
        walk(child, ctx, seen, order);
    });
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
fn each_child_mut(ty: &mut Ty, f: &mut impl FnMut(&mut Ty)) {
    match ty {
        Ty::Object(obj) => {
            for prop in &mut obj.props {
                f(&mut prop.ty);
            }
            if let Extra::Values(values) = &mut obj.extra {
                f(values);
            }
        }
        Ty::Array(item) => f(item),
        Ty::Tuple(tuple) => {
            for item in &mut tuple.items {
                f(item);
            }
            if let Some(rest) = &mut tuple.rest {
                f(rest);
            }
        }
        Ty::Union(members) | Ty::Inter(members, _) => members.iter_mut().for_each(f),
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

/// A map key whose hash is computed once. Hashing a type walks its whole
/// subtree, and a growing map rehashes every key it holds: with the hash
/// kept beside the key, growing costs no walk.
struct Keyed<K> {
    hash: u64,
    key: K,
}

impl<K: std::hash::Hash> Keyed<K> {
    fn new(key: K) -> Self {
        Keyed {
            hash: foldhash::fast::FixedState::default().hash_one(&key),
            key,
        }
    }
}

impl<K> std::hash::Hash for Keyed<K> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl<K: PartialEq> PartialEq for Keyed<K> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.key == other.key
    }
}

impl<K: Eq> Eq for Keyed<K> {}

/// The shared shapes and their definitions.
struct Ids {
    by_shape: HashMap<Ty, usize>,
    /// [`head`] of every shared shape: most objects are told apart by it
    /// without hashing their whole subtree.
    heads: HashSet<u64>,
}

/// A cheap digest of an object with properties: how many, and the first
/// one's name.
fn head(obj: &Object) -> u64 {
    let first = obj.props.first().map_or("", |p| p.name.as_str());
    foldhash::fast::FixedState::with_seed(0).hash_one((obj.props.len(), first))
}

/// `ty` as a reference if it is a shared shape, else with what is inside
/// it replaced.
fn replace(ty: &mut Ty, ids: &Ids) {
    if let Ty::Object(obj) = ty
        && obj.props.len() >= MIN_PROPS
        && ids.heads.contains(&head(obj))
        && let Some(&id) = ids.by_shape.get(ty)
    {
        *ty = Ty::Named(id);
        return;
    }
    replace_within(ty, ids);
}

/// Replaces the shared shapes inside `ty` (not `ty` itself: a definition's
/// body stays its body).
fn replace_within(ty: &mut Ty, ids: &Ids) {
    each_child_mut(ty, &mut |child| replace(child, ids));
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
