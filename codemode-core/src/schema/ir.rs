//! The language-neutral type IR that both printers read.
//!
//! A schema is lowered once into these types; printers decide only how to
//! spell them. Unions and intersections are built through [`union`] and
//! [`intersection`], which keep them flat and free of redundant members.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use serde_json::Number;
use std::collections::hash_map::Entry;

/// Index of a named type in [`super::Lowered::defs`].
pub type DefId = usize;

/// A type expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Ty {
    /// Any value: the escape hatch (`unknown` / `Any`).
    Unknown,
    /// No value at all (the `false` schema, an empty `enum`).
    Never,
    /// `null` / `None`.
    Null,
    /// A boolean.
    Bool,
    /// An integer (`number` in TypeScript, `int` in Python).
    Int,
    /// Any JSON number.
    Num,
    /// A string.
    Str,
    /// One exact JSON scalar (from `const` or `enum`).
    Lit(Lit),
    /// A homogeneous array.
    Array(Box<Ty>),
    /// A positional array.
    Tuple(Tuple),
    /// An object with known properties and/or a value type for other keys.
    Object(Object),
    /// Any of the members (at least two, none `Unknown`, `Never` or a union).
    Union(Vec<Ty>),
    /// All of the members (at least two, none `Unknown` or an intersection),
    /// and where the intersection came from.
    Inter(Vec<Ty>, Box<Origin>),
    /// A named type from a `$ref`.
    Named(DefId),
}

impl Ty {
    /// Whether some object may be a value of this type (as far as the type
    /// says: a name or a union may).
    pub(crate) fn may_be_object(&self) -> bool {
        matches!(
            self,
            Ty::Object(_) | Ty::Inter(..) | Ty::Named(_) | Ty::Union(_) | Ty::Unknown
        )
    }

    /// Whether this is a bare object (`{"type": "object"}` and nothing
    /// more: any keys) or a bare array (of anything), and which.
    pub(crate) fn bare_kind(&self) -> Option<BareKind> {
        match self {
            Ty::Object(obj) if obj.props.is_empty() && obj.extra == Extra::Unspecified => {
                Some(BareKind::Object)
            }
            Ty::Array(item) if **item == Ty::Unknown => Some(BareKind::Array),
            _ => None,
        }
    }
}

/// The kind of a bare type ([`Ty::bare_kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BareKind {
    /// Any object.
    Object,
    /// Any array.
    Array,
}

/// The escape hatch, which a type is until it is known.
impl Default for Ty {
    fn default() -> Self {
        Ty::Unknown
    }
}

/// Where a node came from, for degradations that a printer decides on.
///
/// It never takes part in equality or hashing: two types that differ only in
/// origin are the same type.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// The tool whose schema holds the node.
    pub tool: String,
    /// JSON pointer to the node, from the tool object.
    pub pointer: String,
    /// The members that came from schemas without `type` whose keywords
    /// describe an object or an array. Such keywords bind only values of
    /// that kind, which the intersection cannot say when another member
    /// admits values of other kinds (see `lower::drop_implied`).
    pub implied: Vec<Ty>,
    /// Whether the intersection is a `$ref` and a bare `"type": "object"`
    /// (or `"array"`) beside it, which only picks the values of that kind
    /// the reference admits: once they are picked, the bare member says
    /// nothing more and goes (see `intersections::prune_disjoint`).
    pub reference_typed: bool,
}

impl PartialEq for Origin {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Origin {}

impl std::hash::Hash for Origin {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// An exact scalar value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Lit {
    /// A string literal.
    Str(String),
    /// A number literal.
    Num(Number),
    /// `true` or `false`.
    Bool(bool),
}

/// A positional array: `[A, B?, ...C[]]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tuple {
    /// The element types, in position order.
    pub items: Vec<Ty>,
    /// How many leading elements must be present (the rest are optional).
    pub required: usize,
    /// The type of any further elements; `None` when there may be none.
    pub rest: Option<Box<Ty>>,
}

impl Tuple {
    /// At most this many optional elements are spelled as a union of
    /// tuples, one per length; past it, each SDK has its own fallback.
    pub(crate) const MAX_LENGTHS: usize = 4;

    /// How heavy (in [`weight_within`] units) the elements a union of
    /// lengths repeats may be in all. The union spells every element but
    /// the last once more for each longer length, so tuples nested in
    /// its elements would multiply their text level by level.
    const MAX_REPEATED: usize = 64;

    /// The lengths a union of tuples spells, one member each, when the
    /// tuple has optional elements, no more than [`Self::MAX_LENGTHS`],
    /// the elements repeated are light (see [`Self::MAX_REPEATED`]; an
    /// object weighs one where the printer names every object, as
    /// Python's does), and no rest. (TypeScript defers a rest element's
    /// alias in a tuple that is an alias's whole body, not in a union of
    /// tuples.)
    pub(crate) fn lengths(&self, objects_named: bool) -> Option<std::ops::RangeInclusive<usize>> {
        let optional = self.items.len().saturating_sub(self.required);
        if self.rest.is_some() || !(1..=Self::MAX_LENGTHS).contains(&optional) {
            return None;
        }
        let mut left = Self::MAX_REPEATED;
        for item in &self.items[..self.items.len() - 1] {
            left -= weigh(item, left, objects_named)?;
        }
        Some(self.required..=self.items.len())
    }
}

/// An object type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Object {
    /// Known properties, sorted by name.
    pub props: Vec<Prop>,
    /// What other keys may hold.
    pub extra: Extra,
}

/// The value type of keys an object does not list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Extra {
    /// The schema said nothing (`additionalProperties` absent): only the
    /// listed keys are documented.
    Unspecified,
    /// `additionalProperties: false`: no other keys.
    Closed,
    /// Other keys hold values of this type (`true` gives `Unknown`).
    Values(Box<Ty>),
}

/// One property of an object.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Prop {
    /// The key, exactly as in the schema.
    pub name: String,
    /// The value's type.
    pub ty: Ty,
    /// Whether the key must be present.
    pub required: bool,
    /// Documentation from the property's schema.
    pub doc: Doc,
}

/// Documentation a printer attaches to a property, a method or a named type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Doc {
    /// The description (or, failing that, the title).
    pub text: Option<String>,
    /// Constraints and annotations the type cannot carry, as `(keyword, value)`:
    /// `("format", "email")`, `("default", "\"x\"")`, `("deprecated", "")`.
    pub notes: Vec<(&'static str, String)>,
}

impl Doc {
    /// Whether there is nothing to print.
    pub fn is_empty(&self) -> bool {
        self.text.is_none() && self.notes.is_empty()
    }
}

/// Builds a union: nested unions are flattened, `Never` members dropped,
/// duplicates removed (first kept), and any `Unknown` member absorbs the rest.
pub fn union(members: Vec<Ty>) -> Ty {
    let mut flat = Vec::with_capacity(members.len());
    for member in members {
        match member {
            Ty::Union(inner) => flat.extend(inner),
            Ty::Never => {}
            Ty::Unknown => return Ty::Unknown,
            other => flat.push(other),
        }
    }
    finish(flat, Ty::Never, Ty::Union)
}

/// Builds an intersection: nested intersections are flattened, `Unknown`
/// members dropped, duplicates removed, and any `Never` member absorbs the rest.
/// An intersection of scalar types (and unions of them) becomes the scalars
/// every member admits: `integer & number` is `integer`, `(number | null) &
/// (null | number)` is `number | null`, `string & ("x" | 3)` is `"x"`. When
/// none is left, the intersection stays as written (`string & number`).
pub fn intersection(members: Vec<Ty>, mut origin: Origin) -> Ty {
    let mut flat = Vec::with_capacity(members.len());
    for member in members {
        match member {
            Ty::Inter(inner, from) => {
                flat.extend(inner);
                origin.implied.extend(from.implied);
            }
            Ty::Unknown => {}
            Ty::Never => return Ty::Never,
            other => flat.push(other),
        }
    }
    let mut flat = merge_arrays(flat, &mut origin);
    lend_literal_values(&mut flat);
    finish(flat, Ty::Unknown, |members| {
        if origin.implied.is_empty()
            && let Some(met) = meet_scalars(&members)
        {
            return met;
        }
        Ty::Inter(members, Box::new(origin))
    })
}

/// Arrays in an intersection become one array of what every one's items
/// admit: `number[] & integer[]` is `integer[]`, `A[] & B[]` is `(A &
/// B)[]`. Beside one tuple whose positions are all optional, they join its
/// positions and its rest, and when each comes out as the rest does the
/// tuple is that array: `[number?, ...unknown[]] & (1 | 2)[]` is `(1 |
/// 2)[]`. (Otherwise the tuple stays beside them: Python declares a tuple
/// as `tuple[...]`, which a list does not match.) Only when one of them
/// is typed (not in `origin.implied`): it admits arrays alone, so the
/// others' letting other kinds through does not count. The merged members
/// leave the record of implied ones.
fn merge_arrays(members: Vec<Ty>, origin: &mut Origin) -> Vec<Ty> {
    // Arrays of anything (`{"type": "array"}`) stay as they are: merged,
    // TypeScript would check each element's keys against the others'
    // items alone, and refuse keys they do not list.
    fn items_of(m: &Ty) -> Option<&Ty> {
        match m {
            Ty::Array(item) if **item != Ty::Unknown => Some(item),
            _ => None,
        }
    }
    let is_array = |m: &Ty| items_of(m).is_some();
    let arrays: Vec<&Ty> = members.iter().filter_map(items_of).collect();
    let mut tuples = members.iter().filter_map(|m| match m {
        Ty::Tuple(t) => Some(t),
        _ => None,
    });
    let tuple = match (tuples.next(), tuples.next()) {
        (Some(t), None) => Some(t),
        _ => None,
    };
    let typed = |m: &Ty| !origin.implied.contains(m);
    // The tuple as one array, when it is one: each position takes every
    // array's items (a bounded number of copies).
    let as_array = tuple
        .filter(|t| {
            !arrays.is_empty()
                && t.required == 0
                && t.rest.is_some()
                && (t.items.len() + 1).saturating_mul(arrays.len()) <= MEET_PAIRS
                && members
                    .iter()
                    .any(|m| (is_array(m) || matches!(m, Ty::Tuple(_))) && typed(m))
        })
        .and_then(|t| {
            let meet = |ty: &Ty| {
                let members = std::iter::once(ty)
                    .chain(arrays.iter().copied())
                    .cloned()
                    .collect();
                intersection(members, inner_origin(origin))
            };
            let rest = meet(t.rest.as_deref()?);
            t.items.iter().all(|p| meet(p) == rest).then_some(rest)
        });
    if as_array.is_none() && (arrays.len() < 2 || !members.iter().any(|m| is_array(m) && typed(m)))
    {
        return members;
    }
    let merges_tuple = as_array.is_some();
    let mut items = Vec::new();
    let mut at = None;
    let mut out = Vec::with_capacity(members.len());
    for member in members {
        match member {
            Ty::Array(item) if *item != Ty::Unknown => {
                origin
                    .implied
                    .retain(|m| !matches!(m, Ty::Array(i) if *i == item));
                at.get_or_insert(out.len());
                items.push(*item);
            }
            Ty::Tuple(t) if merges_tuple => {
                origin
                    .implied
                    .retain(|m| !matches!(m, Ty::Tuple(u) if *u == t));
                at.get_or_insert(out.len());
            }
            other => out.push(other),
        }
    }
    let merged = match as_array {
        Some(item) => item,
        None => intersection(items, inner_origin(origin)),
    };
    out.insert(at.unwrap_or(0), Ty::Array(Box::new(merged)));
    out
}

/// Gives an object whose other keys hold literals (`additionalProperties`
/// of an `enum`), among `members` of an intersection, the keys the other
/// objects list and it does not, as optional keys of those literals: they
/// are its other keys, so the type says nothing new. TypeScript reads the
/// value of such a key in an object literal against the listed keys'
/// types only, so `{ [key: string]: "" | "c" } & { t?: string }` widens the
/// `"c"` of `{ t: "c" }` to `string` and then refuses it against the index
/// signature; with `t?: "" | "c"` listed beside the signature it keeps the
/// literal. Only literals widen, so only they are lent, and within
/// [`MEET_PAIRS`] keys in all.
fn lend_literal_values(members: &mut [Ty]) {
    fn lent(member: &Ty) -> Option<&Ty> {
        match member {
            Ty::Object(object) => literal_values(object),
            _ => None,
        }
    }
    let lenders = members.iter().filter(|m| lent(m).is_some()).count();
    if lenders == 0 || members.len() < 2 {
        return;
    }
    let objects = members.iter().filter_map(|m| match m {
        Ty::Object(object) => Some(object),
        _ => None,
    });
    let keys: usize = objects.clone().map(|o| o.props.len()).sum();
    if keys.saturating_mul(lenders) > MEET_PAIRS {
        return;
    }
    let listed: Vec<String> = listed_keys(objects)
        .into_iter()
        .map(str::to_owned)
        .collect();
    for member in members.iter_mut() {
        let Ty::Object(object) = member else { continue };
        let Some(values) = literal_values(object) else {
            continue;
        };
        let lent: Vec<Prop> = (not_listed_by(object, &listed))
            .map(|name| lent_key(name, values))
            .collect();
        if !lent.is_empty() {
            object.props.extend(lent);
            object.props.sort_by(|a, b| a.name.cmp(&b.name));
        }
    }
}

/// The keys `objects` list, sorted, each once.
fn listed_keys<'a>(objects: impl Iterator<Item = &'a Object>) -> Vec<&'a str> {
    let mut listed: Vec<&str> = objects
        .flat_map(|o| o.props.iter().map(|p| p.name.as_str()))
        .collect();
    listed.sort_unstable();
    listed.dedup();
    listed
}

/// Whether `object` lists `name` (its props are sorted by name).
fn lists(object: &Object, name: &str) -> bool {
    (object.props)
        .binary_search_by(|p| p.name.as_str().cmp(name))
        .is_ok()
}

/// The keys of `listed` that `lender` does not list itself.
fn not_listed_by<'l, K: AsRef<str>>(
    lender: &'l Object,
    listed: &'l [K],
) -> impl Iterator<Item = &'l str> {
    (listed.iter())
        .map(AsRef::as_ref)
        .filter(|name| !lists(lender, name))
}

/// A key lent by an object whose other keys hold `values`: optional, of
/// those values.
fn lent_key(name: &str, values: &Ty) -> Prop {
    Prop {
        name: name.to_owned(),
        ty: values.clone(),
        required: false,
        doc: Doc::default(),
    }
}

/// The object `ty` is, itself or through up to seven names (a longer
/// chain, or a name that leads nowhere, gives `None`).
pub(super) fn object_of<'t>(ty: &'t Ty, defs: &'t [super::Def]) -> Option<&'t Object> {
    match through_names(ty, defs, 7) {
        Some((Ty::Object(obj), _)) => Some(obj),
        _ => None,
    }
}

/// What `ty` is, itself or through at most `most` names, and how many it
/// went through: `None` where a name leads nowhere, or the chain is longer.
fn through_names<'t>(
    mut ty: &'t Ty,
    defs: &'t [super::Def],
    most: usize,
) -> Option<(&'t Ty, usize)> {
    let mut names = 0;
    while let Ty::Named(id) = ty {
        if names == most {
            return None;
        }
        ty = &defs.get(*id)?.ty;
        names += 1;
    }
    Some((ty, names))
}

/// The literals an object's other keys hold, when they are literals.
fn literal_values(object: &Object) -> Option<&Ty> {
    let Extra::Values(values) = &object.extra else {
        return None;
    };
    let literals = match &**values {
        Ty::Lit(_) => true,
        Ty::Union(choices) => choices.iter().all(|c| matches!(c, Ty::Lit(_) | Ty::Null)),
        _ => false,
    };
    literals.then_some(&**values)
}

/// What a printer adds to an intersection for [`lent_through_names`].
#[derive(Debug)]
pub(crate) enum Lent {
    /// Nothing: no member is a name or a union, or there is nothing to
    /// lend.
    Nothing,
    /// Objects to add to the intersection, one per lender.
    Objects(Vec<Object>),
    /// More than [`LENT_PER_PLACE`] to write, or, where something lends,
    /// more than [`LENT_SCANNED`] keys to read: nothing is added, and
    /// TypeScript may refuse a literal in a key a member lists.
    TooLarge,
    /// The members ran past what one place reads through names
    /// ([`LENT_SCANNED`] types, [`LENT_DEPTH`] names deep): nothing is
    /// added, and whether TypeScript may refuse a literal depends on
    /// whether a member reaches a lender at all ([`reaches_lender`]).
    Cut,
    /// Objects to add as with [`Objects`](Lent::Objects) (perhaps none),
    /// lending to the keys the members' objects and every choice of their
    /// unions list, but not to those only some choices list, which were
    /// too many to read or write at the place: TypeScript may refuse a
    /// literal in those.
    Partly(Vec<Object>),
    /// Objects to add as with [`Objects`](Lent::Objects) (perhaps none),
    /// and a lender that is only one choice of a union among the members,
    /// which lends nothing (unless every choice of its union lends, and
    /// none lists the key), since what the intersection gained would
    /// narrow the union's other choices: TypeScript may refuse a literal in
    /// a key the other members list.
    InUnion(Vec<Object>),
}

/// How much [`lent_through_names`] writes at one place, at most (in
/// [`weight`] units, one more for each key): a named type's keys would
/// otherwise be written again at every place the intersection is, and a
/// small schema would print as a large SDK.
pub(crate) const LENT_PER_PLACE: usize = 64;

/// How many types [`lent_through_names`] reads through names at one
/// place, and how many keys where something lends, at most.
const LENT_SCANNED: usize = 4 * LENT_PER_PLACE;

/// What [`lend_literal_values`] cannot lend while lowering, where a lender
/// or a fellow member of an intersection is a named type (whose body is
/// not known then), or where a lender is one choice of a union: for each
/// lender among `members` (an object, through names and the parts of the
/// intersections they name), an object of the keys the other members'
/// objects, or any choice of a union among them, list and it does not,
/// typed with its literals, for a printer to
/// add to the intersection, within [`LENT_PER_PLACE`]; for each union
/// among the members each of whose choices holds one lender, an object of
/// the keys the other members list and none of its choices does, typed
/// with the literals of all its choices (a value of any choice holds one
/// there); and whether a lender that is one choice of a union among the
/// members would still refuse a literal in a key the others list, which it
/// cannot lend alone (the keys would narrow the union's other choices).
///
/// What one place reads is bounded: [`LENT_SCANNED`] types reached
/// through names, through at most [`LENT_DEPTH`] names, and, where there
/// is a lender, [`LENT_SCANNED`] keys in all (a lender's own among them).
/// The members themselves, and what they hold inline, are the place's own
/// and always read. Past the first two bounds nothing is lent and
/// [`Lent::Cut`] says so; past the keys, [`Lent::TooLarge`].
pub(crate) fn lent_through_names(members: &[Ty], defs: &[super::Def]) -> Lent {
    if !(members.iter()).any(|m| matches!(m, Ty::Named(_) | Ty::Union(_))) {
        return Lent::Nothing;
    }
    let mut parts = Parts::default();
    for member in members {
        parts.gather(member, defs, 0);
    }
    let Parts {
        mut objects,
        union_lenders,
        lending_unions,
        listed_by_unions,
        listed_by_some,
        some_cut,
        cut,
        ..
    } = parts;
    if cut {
        return Lent::Cut;
    }
    if !objects.iter().any(|o| literal_values(o).is_some()) && union_lenders.is_empty() {
        return Lent::Nothing;
    }
    // One object reached twice (two names lead to it) lends once.
    let mut seen = HashSet::with_capacity(objects.len());
    objects.retain(|o| seen.insert(std::ptr::from_ref::<Object>(o)));
    // Counted before they are gathered, so that each place costs at most
    // this much however long the members are.
    let keys: usize = (objects
        .iter()
        .chain(union_lenders.iter().flat_map(|(_, c)| c)))
    .map(|o| o.props.len())
    .sum();
    if keys > LENT_SCANNED {
        return Lent::TooLarge;
    }
    // The keys the members list: their objects', and those every choice
    // of a union among them lists; and with them those any choice lists (a
    // lender beside the union gives a key its literals in every value,
    // whichever choice the value takes). Where the latter are too many to
    // read or write at the place, the former are lent, and that is told.
    let mut listed = listed_keys(objects.iter().copied());
    listed.extend(listed_by_unions.iter().map(|p| p.name.as_str()));
    listed.sort_unstable();
    listed.dedup();
    let mut with_some = Vec::new();
    if !some_cut {
        with_some.extend(listed.iter().chain(&listed_by_some).copied());
        with_some.sort_unstable();
        with_some.dedup();
    }
    let whole = if some_cut {
        None
    } else {
        lend_keys(&with_some, &objects, &lending_unions)
    };
    // Lent with fewer keys where the others did not all fit: a lender, or
    // a lending union, would otherwise lend nothing for their sake.
    let fewer = some_cut || with_some.len() > listed.len();
    let (lending, partly) = match whole {
        Some(lending) if !(fewer && lending.union_left_out) => (lending, false),
        _ if fewer => match lend_keys(&listed, &objects, &lending_unions) {
            Some(lending) => (lending, true),
            None => return Lent::TooLarge,
        },
        _ => return Lent::TooLarge,
    };
    let Lending {
        objects: out,
        by_union: lent_by_union,
        ..
    } = lending;
    // A union's lender refuses a literal in a key the others list where
    // nothing in its own choice lists that key, its union does not lend it
    // as a whole, and the others type the key so that TypeScript widens
    // the literal.
    let in_union = (union_lenders.iter()).any(|(id, choice)| {
        let own = listed_keys(choice.iter().copied());
        let whole = (lent_by_union.iter())
            .find(|(lent_id, _, _)| lent_id == id)
            .map_or(&[][..], |(_, _, keys)| keys.as_slice());
        let values: Vec<&Ty> = choice.iter().filter_map(|o| literal_values(o)).collect();
        let props = objects.iter().flat_map(|o| &o.props);
        (props.chain(listed_by_unions.iter().copied())).any(|prop| {
            own.binary_search(&prop.name.as_str()).is_err()
                && !whole.contains(&prop.name.as_str())
                && values.iter().any(|v| widens(&prop.ty, v))
        })
    });
    match (in_union, partly, out.is_empty()) {
        (true, _, _) => Lent::InUnion(out),
        (false, true, _) => Lent::Partly(out),
        (false, false, true) => Lent::Nothing,
        (false, false, false) => Lent::Objects(out),
    }
}

/// Each union that lent at a place, by number and by the address of its
/// choices, with the keys it lent.
type LentByUnion<'t> = Vec<(usize, usize, Vec<&'t str>)>;

/// What one place lends ([`lend_keys`]).
struct Lending<'t> {
    /// The objects to add to the intersection.
    objects: Vec<Object>,
    /// Each union that lent, by number and by the address of its choices,
    /// with the keys it lent.
    by_union: LentByUnion<'t>,
    /// Whether a lending union lent nothing, its keys being too many to
    /// write beside the others.
    union_left_out: bool,
}

/// What the lenders among `objects` and the `lending` unions lend to the
/// keys `listed` at one place (see [`lent_through_names`]); `None` where
/// the lenders' keys are more than [`LENT_PER_PLACE`] to write (a lending
/// union's, past it, are left out instead).
fn lend_keys<'t>(
    listed: &[&'t str],
    objects: &[&'t Object],
    lending: &[LendingUnion<'t>],
) -> Option<Lending<'t>> {
    let mut out = Vec::new();
    let mut cost = 0usize;
    // A union each of whose choices lends, where none of them lists a key
    // the others list, lends that key the literals of all its choices: a
    // value of any choice holds one of them there, so nothing is narrowed.
    let mut lent_by_union: LentByUnion = Vec::new();
    let mut union_left_out = false;
    for LendingUnion {
        id,
        at,
        lenders,
        objects,
    } in lending
    {
        if let Some((_, _, keys)) = lent_by_union.iter().find(|(_, lent, _)| lent == at) {
            let keys = keys.clone();
            lent_by_union.push((*id, *at, keys));
            continue;
        }
        let keys: Vec<&str> = (listed.iter().copied())
            .filter(|key| !objects.iter().flatten().any(|o| lists(o, key)))
            .collect();
        if keys.is_empty() {
            continue;
        }
        let values = union(
            (lenders.iter())
                .filter_map(|lender| literal_values(lender).cloned())
                .collect(),
        );
        // Too much to write here: left to be recorded as lending nothing.
        let each = weight_within(&values, LENT_PER_PLACE).map_or(usize::MAX, |w| w + 1);
        let with = cost.saturating_add(each.saturating_mul(keys.len()));
        if with > LENT_PER_PLACE {
            union_left_out = true;
            continue;
        }
        cost = with;
        out.push(Object {
            props: keys.iter().map(|key| lent_key(key, &values)).collect(),
            extra: Extra::Unspecified,
        });
        lent_by_union.push((*id, *at, keys));
    }
    for object in objects {
        let Some(values) = literal_values(object) else {
            continue;
        };
        let each = weight_within(values, LENT_PER_PLACE).map_or(usize::MAX, |w| w + 1);
        let mut props = Vec::new();
        for name in not_listed_by(object, listed) {
            cost = cost.saturating_add(each);
            if cost > LENT_PER_PLACE {
                return None;
            }
            props.push(lent_key(name, values));
        }
        if !props.is_empty() {
            out.push(Object {
                props,
                extra: Extra::Unspecified,
            });
        }
    }
    // One union written inline and through a name lends the same object
    // twice; it is written once (there are a few objects at most).
    let mut unique: Vec<Object> = Vec::with_capacity(out.len());
    for object in out {
        if !unique.contains(&object) {
            unique.push(object);
        }
    }
    Some(Lending {
        objects: unique,
        by_union: lent_by_union,
        union_left_out,
    })
}

/// Whether TypeScript may widen one of the literals `values` to `ty`, the
/// type a member gives a key: `ty` takes such a literal only as a wider
/// type (`string` a string literal, `number` a number, `boolean` `true` or
/// `false`, or any value), or it is a name or an intersection, which are
/// not followed.
fn widens(ty: &Ty, values: &Ty) -> bool {
    let literals = match values {
        Ty::Union(choices) => choices.as_slice(),
        one => std::slice::from_ref(one),
    };
    let any_of =
        |kind: fn(&Lit) -> bool| (literals.iter()).any(|l| matches!(l, Ty::Lit(lit) if kind(lit)));
    match ty {
        Ty::Unknown | Ty::Named(_) | Ty::Inter(..) => true,
        Ty::Str => any_of(|l| matches!(l, Lit::Str(_))),
        Ty::Num | Ty::Int => any_of(|l| matches!(l, Lit::Num(_))),
        Ty::Bool => any_of(|l| matches!(l, Lit::Bool(_))),
        Ty::Union(choices) => choices.iter().any(|c| widens(c, values)),
        _ => false,
    }
}

/// A union among an intersection's members each of whose choices lends
/// (see [`Parts::lending_unions`]).
struct LendingUnion<'t> {
    /// Its number, as in [`Parts::union_lenders`].
    id: usize,
    /// The address of its choices: one union reached twice lends once.
    at: usize,
    /// Each choice's one lender.
    lenders: Vec<&'t Object>,
    /// Each choice's objects, its lender among them.
    objects: Vec<Vec<&'t Object>>,
}

impl<'t> Parts<'t> {
    /// Keeps in [`listed_by_unions`](Self::listed_by_unions) the properties
    /// of `choices` (each choice's objects) whose keys every choice lists,
    /// within [`LENT_SCANNED`] in all.
    fn keep_listed_by_all(&mut self, choices: &[Vec<&'t Object>]) {
        let Some((first, rest)) = choices.split_first() else {
            return;
        };
        // Counted before they are compared: a named union of many keys, at
        // many places, would be read again at each. Past what a place reads
        // of its unions' keys, nothing is lent ([`Parts::some_cut`]).
        let listing: usize = (choices.iter().flatten()).map(|o| o.props.len()).sum();
        if listing > SOME_KEYS {
            self.some_cut = true;
            return;
        }
        let mut common = listed_keys(first.iter().copied());
        for choice in rest {
            let listed = listed_keys(choice.iter().copied());
            common.retain(|key| listed.binary_search(key).is_ok());
        }
        if common.is_empty() {
            return;
        }
        let props = (choices.iter().flatten())
            .flat_map(|o| &o.props)
            .filter(|p| common.binary_search(&p.name.as_str()).is_ok());
        let room = LENT_SCANNED.saturating_sub(self.listed_by_unions.len());
        let kept: Vec<&'t Prop> = props.take(room + 1).collect();
        // Past the bound, none: the keys read are then not all there are.
        if kept.len() <= room {
            self.listed_by_unions.extend(kept);
        }
    }
}

impl<'t> Parts<'t> {
    /// Adds `keys` to [`listed_by_some`](Self::listed_by_some); past
    /// [`SOME_KEYS`] of them (repeats counted), notes the cut instead.
    fn keep_listed_by_some(&mut self, keys: impl Iterator<Item = &'t str>) {
        for key in keys {
            if self.some_cut {
                return;
            }
            if self.listed_by_some.len() == SOME_KEYS {
                self.some_cut = true;
                return;
            }
            self.listed_by_some.push(key);
        }
    }
}

/// How many keys [`Parts::listed_by_some`] reads at one place, each time a
/// choice lists one.
const SOME_KEYS: usize = 4 * LENT_SCANNED;

/// Through how many names [`Parts::gather`] reads, at most.
const LENT_DEPTH: usize = 16;

/// The parts of an intersection, as [`lent_through_names`] reads them.
#[derive(Default)]
struct Parts<'t> {
    /// The objects the members are, through names and the parts of the
    /// intersections those name.
    objects: Vec<&'t Object>,
    /// For each choice of a union among the members that holds a lender,
    /// the objects of that choice (the keys they list are not refused).
    union_lenders: Vec<(usize, Vec<&'t Object>)>,
    /// The unions among the members each of whose choices holds one
    /// lender, and no union of its own: by union (numbered as in
    /// `union_lenders`), each choice's lender and objects.
    lending_unions: Vec<LendingUnion<'t>>,
    /// How many unions were read, which numbers them.
    unions: usize,
    /// For the unions among the members, the properties of each choice
    /// whose keys every choice lists: a key every value of the union has
    /// listed, which a lender that is one choice of another union may
    /// refuse a literal in (at most [`LENT_SCANNED`] in all; past that,
    /// none are kept).
    listed_by_unions: Vec<&'t Prop>,
    /// The keys any choice of the unions among the members lists, there or
    /// in a union within it: some values of the union have them listed (as
    /// often as listed, at most [`SOME_KEYS`]).
    listed_by_some: Vec<&'t str>,
    /// Whether a union's choices list more keys than
    /// [`listed_by_some`](Self::listed_by_some) keeps.
    some_cut: bool,
    /// How many types were reached through names, within
    /// [`LENT_SCANNED`].
    read: usize,
    /// Whether some were left unread, past [`LENT_SCANNED`] or
    /// [`LENT_DEPTH`].
    cut: bool,
}

impl<'t> Parts<'t> {
    /// Reads `member`, a part of an intersection reached through `names`
    /// names (the members of the intersection itself, and what they hold
    /// inline, are read whatever their count: that is the place's own
    /// size).
    fn gather(&mut self, member: &'t Ty, defs: &'t [super::Def], names: usize) {
        if names > 0 {
            self.read += 1;
            if self.read > LENT_SCANNED || names > LENT_DEPTH {
                self.cut = true;
                return;
            }
        }
        // Through at most a few names at once: a longer chain, or a name
        // that leads nowhere, is not read.
        let Some((ty, followed)) = through_names(member, defs, 8) else {
            return;
        };
        let names = names + followed;
        match ty {
            Ty::Object(object) => self.objects.push(object),
            Ty::Inter(parts, _) => {
                for part in parts {
                    self.gather(part, defs, names);
                }
            }
            Ty::Union(choices) => {
                let id = self.unions;
                self.unions += 1;
                // Each choice's one lender, while every choice has one.
                let mut each_lends = Some(Vec::with_capacity(choices.len()));
                let mut each_objects = Vec::with_capacity(choices.len());
                for choice in choices {
                    let mut inner = Parts {
                        read: self.read,
                        unions: self.unions,
                        ..Parts::default()
                    };
                    inner.gather(choice, defs, names);
                    self.read = inner.read;
                    self.unions = inner.unions;
                    self.cut |= inner.cut;
                    // What the unions within the choice list, some values
                    // of the choice list.
                    self.some_cut |= inner.some_cut;
                    self.keep_listed_by_some(inner.listed_by_some.iter().copied());
                    let mut lenders = inner.objects.iter().filter(|o| literal_values(o).is_some());
                    let lender = match (lenders.next(), lenders.next()) {
                        (Some(&one), None) if inner.union_lenders.is_empty() => Some(one),
                        _ => None,
                    };
                    each_objects.push(inner.objects.clone());
                    each_lends = each_lends.zip(lender).map(|(mut each, lender)| {
                        each.push(lender);
                        each
                    });
                    // A lender in the choice, or in a union within it, lists
                    // beside it what the choice's objects list.
                    let lends = inner.objects.iter().any(|o| literal_values(o).is_some());
                    for (nested_id, mut nested) in inner.union_lenders {
                        nested.extend(inner.objects.iter().copied());
                        self.union_lenders.push((nested_id, nested));
                    }
                    // A union that lends inside one choice constrains only
                    // the values of that choice: not lifted.
                    if lends {
                        self.union_lenders.push((id, inner.objects));
                    }
                }
                self.keep_listed_by_all(&each_objects);
                let keys = (each_objects.iter().flatten())
                    .flat_map(|o| o.props.iter().map(|p| p.name.as_str()));
                self.keep_listed_by_some(keys);
                if let Some(lenders) = each_lends.filter(|each| !each.is_empty()) {
                    self.lending_unions.push(LendingUnion {
                        id,
                        at: choices.as_ptr().addr(),
                        lenders,
                        objects: each_objects,
                    });
                }
            }
            _ => {}
        }
    }
}

/// Which definitions reach an object whose other keys hold literals
/// through the members of their intersections and unions and the names
/// among them (not through properties or items): computed once for all,
/// from those lenders back along the names, so it is linear in the
/// definitions' size.
pub(crate) fn lending_defs(defs: &[super::Def]) -> Vec<bool> {
    let mut lends = vec![false; defs.len()];
    // The definitions that name each one among their members.
    let mut named_by: Vec<Vec<usize>> = vec![Vec::new(); defs.len()];
    let mut todo = Vec::new();
    let mut names = Vec::new();
    for (id, def) in defs.iter().enumerate() {
        names.clear();
        if lends_inline(&def.ty, &mut names) {
            lends[id] = true;
            todo.push(id);
        }
        for &name in &names {
            if let Some(users) = named_by.get_mut(name) {
                users.push(id);
            }
        }
    }
    while let Some(id) = todo.pop() {
        for &user in &named_by[id] {
            if !std::mem::replace(&mut lends[user], true) {
                todo.push(user);
            }
        }
    }
    lends
}

/// Whether one of `members` reaches a lender, inline or through a name
/// that `lending` ([`lending_defs`]) marks.
pub(crate) fn reaches_lender(members: &[Ty], lending: &[bool]) -> bool {
    let mut names = Vec::new();
    members.iter().any(|m| lends_inline(m, &mut names))
        || names
            .iter()
            .any(|&id| lending.get(id).copied().unwrap_or(false))
}

/// Whether `ty` holds a lender among its members (of intersections and
/// unions) inline, gathering into `names` the names among them.
fn lends_inline(ty: &Ty, names: &mut Vec<usize>) -> bool {
    let mut todo = vec![ty];
    let mut lends = false;
    while let Some(ty) = todo.pop() {
        match ty {
            Ty::Object(object) => lends |= literal_values(object).is_some(),
            Ty::Inter(parts, _) | Ty::Union(parts) => todo.extend(parts),
            Ty::Named(id) => names.push(*id),
            _ => {}
        }
    }
    lends
}

/// Where an intersection of the items of merged arrays came from: the
/// intersection's place, with no member implied.
fn inner_origin(origin: &Origin) -> Origin {
    Origin {
        tool: origin.tool.clone(),
        pointer: origin.pointer.clone(),
        ..Origin::default()
    }
}

/// How many pairs of choices [`meet_scalars`] may compare for one
/// intersection; past it the intersection stays as written, so that long
/// enums, or thousands of members, stay linear.
const MEET_PAIRS: usize = 4_096;

/// The scalars that every member admits, as a union in the first member's
/// order; `None` when a member is not made of scalars, when the members
/// share none, or when they have too many choices to compare.
fn meet_scalars(members: &[Ty]) -> Option<Ty> {
    fn choices(ty: &Ty) -> &[Ty] {
        match ty {
            Ty::Union(choices) => choices.as_slice(),
            one => std::slice::from_ref(one),
        }
    }
    fn is_scalar(ty: &Ty) -> bool {
        matches!(
            ty,
            Ty::Null | Ty::Bool | Ty::Int | Ty::Num | Ty::Str | Ty::Lit(_)
        )
    }
    /// What both of two scalar types admit, when it is one of them.
    fn meet<'t>(a: &'t Ty, b: &'t Ty) -> Option<&'t Ty> {
        match (a, b) {
            _ if a == b => Some(a),
            (Ty::Int, Ty::Num) => Some(a),
            (Ty::Num, Ty::Int) => Some(b),
            (Ty::Lit(Lit::Num(x)), Ty::Lit(Lit::Num(y))) => same_number(x, y).then_some(a),
            (Ty::Str, Ty::Lit(Lit::Str(_)))
            | (Ty::Bool, Ty::Lit(Lit::Bool(_)))
            | (Ty::Num, Ty::Lit(Lit::Num(_))) => Some(b),
            (Ty::Lit(Lit::Str(_)), Ty::Str)
            | (Ty::Lit(Lit::Bool(_)), Ty::Bool)
            | (Ty::Lit(Lit::Num(_)), Ty::Num) => Some(a),
            (Ty::Int, Ty::Lit(Lit::Num(n))) if is_integer(n) => Some(b),
            (Ty::Lit(Lit::Num(n)), Ty::Int) if is_integer(n) => Some(a),
            _ => None,
        }
    }
    if !members.iter().flat_map(choices).all(is_scalar) {
        return None;
    }
    let (first, rest) = members.split_first()?;
    let mut met: Vec<&Ty> = choices(first).iter().collect();
    let mut pairs = 0usize;
    for member in rest {
        let other = choices(member);
        pairs = pairs.saturating_add(met.len().saturating_mul(other.len()));
        if pairs > MEET_PAIRS {
            return None;
        }
        met = (met.iter())
            .flat_map(|a| other.iter().filter_map(|b| meet(a, b)))
            .collect();
    }
    match union(met.into_iter().cloned().collect()) {
        Ty::Never => None,
        met => Some(met),
    }
}

/// Whether two JSON numbers are the same value (`1` and `1.0` are), exactly:
/// integers past 2^53 are compared as integers, not as doubles.
fn same_number(x: &Number, y: &Number) -> bool {
    fn exact(n: &Number) -> Option<i128> {
        if let Some(i) = n.as_i64() {
            return Some(i128::from(i));
        }
        if let Some(u) = n.as_u64() {
            return Some(i128::from(u));
        }
        let f = n.as_f64()?;
        // Integral doubles within i128's range convert exactly.
        (f.fract() == 0.0 && f.abs() < 1.0e38).then_some(f as i128)
    }
    match (exact(x), exact(y)) {
        (Some(a), Some(b)) => a == b,
        (None, None) => x.as_f64() == y.as_f64(),
        _ => false,
    }
}

/// Whether a JSON number is an integer, as JSON Schema's `integer` reads
/// it (`1.0` is one).
pub(crate) fn is_integer(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

fn finish(members: Vec<Ty>, empty: Ty, many: impl FnOnce(Vec<Ty>) -> Ty) -> Ty {
    // Short lists (nearly all of them) are deduplicated by comparison; long
    // ones through a set of hashes, so a 10,000-member union stays linear.
    let mut unique: Vec<Ty> = Vec::with_capacity(members.len());
    if members.len() <= 16 {
        for ty in members {
            if !unique.contains(&ty) {
                unique.push(ty);
            }
        }
    } else {
        // The first member with each hash: a member whose hash was seen is
        // compared with that one, and only when they differ (two types
        // whose hashes collide) with every member kept, so that many
        // copies of one member cost one comparison each.
        let mut first: HashMap<u64, usize> = HashMap::with_capacity(members.len());
        for ty in members {
            let kept = match first.entry(hash_of(&ty)) {
                Entry::Vacant(slot) => {
                    slot.insert(unique.len());
                    false
                }
                Entry::Occupied(at) => unique[*at.get()] == ty || unique.contains(&ty),
            };
            if !kept {
                unique.push(ty);
            }
        }
    }
    match unique.len() {
        0 => empty,
        1 => unique.pop().unwrap_or(empty),
        _ => many(unique),
    }
}

/// Bytes of text that weigh as much as one type in [`weight`].
const BYTES_PER_WEIGHT: usize = 16;

/// What copying `ty` costs, in types: each type it holds (itself
/// included) counts one, and its text (keys, descriptions, notes and
/// string literals) one for every [`BYTES_PER_WEIGHT`] bytes, so that a
/// budget for copies bounds the text they print too.
pub(crate) fn weight(ty: &Ty) -> usize {
    weight_within(ty, usize::MAX).unwrap_or(usize::MAX)
}

/// [`weight`], when at most `limit`; it stops counting past that.
pub(crate) fn weight_within(ty: &Ty, limit: usize) -> Option<usize> {
    weigh(ty, limit, false)
}

fn weigh(ty: &Ty, limit: usize, objects_named: bool) -> Option<usize> {
    fn count(ty: &Ty, left: &mut usize, objects_named: bool) -> bool {
        let text = match ty {
            Ty::Lit(Lit::Str(s)) => s.len(),
            _ => 0,
        };
        let Some(rest) = left.checked_sub(1 + text / BYTES_PER_WEIGHT) else {
            return false;
        };
        *left = rest;
        if objects_named && matches!(ty, Ty::Object(_)) {
            return true;
        }
        let mut within = true;
        super::share::each_child(ty, &mut |child, step| {
            if let super::share::Step::Property(prop) = step {
                let text = prop.name.len()
                    + prop.doc.text.as_ref().map_or(0, String::len)
                    + prop.doc.notes.iter().map(|(_, v)| v.len()).sum::<usize>();
                match left.checked_sub(text / BYTES_PER_WEIGHT) {
                    Some(rest) => *left = rest,
                    None => within = false,
                }
            }
            within = within && count(child, left, objects_named);
        });
        within
    }
    let mut left = limit;
    count(ty, &mut left, objects_named).then(|| limit - left)
}

fn hash_of(ty: &Ty) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prop(name: &str, ty: Ty) -> Prop {
        Prop {
            name: name.to_owned(),
            ty,
            required: false,
            doc: Doc::default(),
        }
    }

    fn object(props: Vec<Prop>, extra: Extra) -> Ty {
        Ty::Object(Object { props, extra })
    }

    /// A definition of `ty`, named and placed nowhere.
    fn def(ty: Ty) -> super::super::Def {
        super::super::Def {
            base: String::new(),
            key: String::new(),
            ty,
            doc: Doc::default(),
            tool: String::new(),
            pointer: String::new(),
            named: None,
        }
    }

    /// `"on" | "off"`.
    fn on_off() -> Ty {
        Ty::Union(vec![
            Ty::Lit(Lit::Str("on".into())),
            Ty::Lit(Lit::Str("off".into())),
        ])
    }

    #[test]
    fn types_stay_small() {
        // Every node of every schema is one; an intersection's origin is
        // rare and kept out of line.
        assert!(
            std::mem::size_of::<Ty>() <= 48,
            "{}",
            std::mem::size_of::<Ty>()
        );
    }

    #[test]
    fn names_lend_and_borrow_literals_in_a_printed_intersection() {
        let flags = on_off();
        let lender = object(
            vec![prop("own", Ty::Bool)],
            Extra::Values(Box::new(flags.clone())),
        );
        let lister = object(
            vec![prop("b", Ty::Str), prop("own", Ty::Str)],
            Extra::Unspecified,
        );
        // 0: the lender; 1: a name of it; 2: the lister.
        let defs = [def(lender.clone()), def(Ty::Named(0)), def(lister.clone())];
        let lent = |members: &[Ty]| -> Vec<Vec<(String, Ty)>> {
            match lent_through_names(members, &defs) {
                Lent::Nothing => Vec::new(),
                Lent::Objects(objects) => (objects.into_iter())
                    .map(|o| o.props.into_iter().map(|p| (p.name, p.ty)).collect())
                    .collect(),
                Lent::TooLarge | Lent::Partly(_) => panic!("too large: {members:?}"),
                Lent::InUnion(_) => panic!("in a union: {members:?}"),
                Lent::Cut => panic!("cut short: {members:?}"),
            }
        };
        let b_lent = vec![vec![("b".to_owned(), flags.clone())]];
        // Through a chain of names to the lender, or to the lister; the
        // key the lender lists itself keeps its own type.
        assert_eq!(lent(&[Ty::Named(1), lister.clone()]), b_lent);
        assert_eq!(lent(&[lender.clone(), Ty::Named(2)]), b_lent);
        // With no name, the lowering lent already; nor is there anything
        // to lend without a lender, or without a fellow.
        assert!(lent(&[lender.clone(), lister]).is_empty());
        assert!(lent(&[Ty::Named(2), Ty::Named(2)]).is_empty());
        assert!(lent(&[Ty::Named(1), Ty::Str]).is_empty());
        // A name that leads nowhere (or around) is not followed.
        let looped = [def(Ty::Named(1)), def(Ty::Named(0))];
        let nothing = |members: &[Ty], defs: &[super::super::Def]| {
            matches!(lent_through_names(members, defs), Lent::Nothing)
        };
        assert!(nothing(&[Ty::Named(0), lender.clone()], &looped));
        assert!(nothing(&[Ty::Named(7), lender.clone()], &looped));
        // What one place may write is bounded, by keys and by the size of
        // the literals: a name's keys are written again at every place.
        let listing = |keys: usize| {
            let props = (0..keys)
                .map(|i| prop(&format!("k{i:03}"), Ty::Str))
                .collect();
            def(object(props, Extra::Unspecified))
        };
        let per_key = weight_within(&flags, usize::MAX).unwrap() + 1;
        let fits = LENT_PER_PLACE / per_key;
        for (keys, large) in [(fits, false), (fits + 1, true), (LENT_SCANNED + 1, true)] {
            let defs = [listing(keys)];
            let lent = lent_through_names(&[lender.clone(), Ty::Named(0)], &defs);
            match lent {
                Lent::Objects(objects) if !large => assert_eq!(objects[0].props.len(), keys),
                Lent::TooLarge if large => {}
                other => panic!("{keys} keys: {other:?}"),
            }
        }
        // A lender that lists most of the keys itself lends the rest; its
        // own keys count toward what one place reads (each place reads
        // them again), so past that it lends nothing and says so.
        let own_and = |own: usize, more: usize| {
            let props = (0..own)
                .map(|i| prop(&format!("k{i:03}"), Ty::Bool))
                .collect();
            let lender = object(props, Extra::Values(Box::new(Ty::Lit(Lit::Bool(true)))));
            let listed = listing(own + more);
            lent_through_names(&[lender, Ty::Named(0)], &[listed])
        };
        let half = LENT_SCANNED / 2;
        assert!(matches!(own_and(half - 10, 10), Lent::Objects(o) if o[0].props.len() == 10));
        assert!(matches!(own_and(half, 10), Lent::TooLarge));
        let many: Vec<Ty> = (0..LENT_PER_PLACE)
            .map(|i| Ty::Lit(Lit::Str(format!("v{i}"))))
            .collect();
        let wide = object(Vec::new(), Extra::Values(Box::new(Ty::Union(many))));
        let lent = lent_through_names(&[wide, Ty::Named(0)], &[listing(1)]);
        assert!(matches!(lent, Lent::TooLarge), "{lent:?}");
    }

    #[test]
    fn lenders_in_named_intersections_lend_and_those_in_unions_are_told() {
        let flags = on_off();
        let lender = object(Vec::new(), Extra::Values(Box::new(flags.clone())));
        let listing = |name: &str| object(vec![prop(name, Ty::Str)], Extra::Unspecified);
        let origin = Box::new(Origin::default());
        // 0: the lender; 1: the lender and a lister of `zone`, as one
        // named intersection; 2: a lister of `label`; 3: the lender or a
        // lister of `preset`, as a named union; 4: a name of 1.
        let defs = [
            def(lender.clone()),
            def(Ty::Inter(
                vec![Ty::Named(0), listing("zone")],
                origin.clone(),
            )),
            def(listing("label")),
            def(Ty::Union(vec![Ty::Named(0), listing("preset")])),
            def(Ty::Named(1)),
        ];
        let lent_keys = |objects: &[Object]| -> Vec<String> {
            let mut keys: Vec<String> = (objects.iter())
                .flat_map(|o| o.props.iter().map(|p| p.name.clone()))
                .collect();
            keys.sort();
            keys
        };
        // Through a named intersection, and through a name of one.
        for outer in [Ty::Named(1), Ty::Named(4)] {
            match lent_through_names(&[outer, Ty::Named(2)], &defs) {
                Lent::Objects(objects) => assert_eq!(lent_keys(&objects), ["label", "zone"]),
                other => panic!("{other:?}"),
            }
        }
        // A lender that is one choice of a union, named or not, lends
        // nothing and is told, where the other members list keys.
        let inline_union = Ty::Union(vec![Ty::Named(0), listing("preset")]);
        for union in [Ty::Named(3), inline_union] {
            let lent = lent_through_names(&[union.clone(), Ty::Named(2)], &defs);
            assert!(
                matches!(&lent, Lent::InUnion(o) if o.is_empty()),
                "{lent:?}"
            );
            let alone = lent_through_names(&[union, Ty::Str], &defs);
            assert!(matches!(alone, Lent::Nothing), "{alone:?}");
        }
        // Beside a lender that lends, the union is still told; that lender
        // lends also the key the union's other choice lists.
        let both = lent_through_names(&[Ty::Named(3), Ty::Named(1), Ty::Named(2)], &defs);
        match both {
            Lent::InUnion(objects) => {
                assert_eq!(lent_keys(&objects), ["label", "preset", "zone"]);
            }
            other => panic!("{other:?}"),
        }
        // A union each of whose choices lends, none listing the key, lends
        // it the literals of all its choices, and is not told.
        let other_flags = Ty::Union(vec![
            Ty::Lit(Lit::Str("x".into())),
            Ty::Lit(Lit::Str("on".into())),
        ]);
        let other_lender = |own: &str| {
            object(
                vec![prop(own, Ty::Bool)],
                Extra::Values(Box::new(other_flags.clone())),
            )
        };
        let every_choice = Ty::Union(vec![Ty::Named(0), other_lender("b")]);
        match lent_through_names(&[every_choice, Ty::Named(2)], &defs) {
            Lent::Objects(objects) => {
                assert_eq!(lent_keys(&objects), ["label"]);
                let expected = union(vec![flags.clone(), other_flags.clone()]);
                assert_eq!(objects[0].props[0].ty, expected);
            }
            other => panic!("{other:?}"),
        }
        // One such union reached through two names lends once.
        let mut twice = defs.to_vec();
        twice.push(def(Ty::Union(vec![Ty::Named(0), other_lender("b")])));
        twice.push(def(Ty::Named(5)));
        match lent_through_names(&[Ty::Named(5), Ty::Named(6), Ty::Named(2)], &twice) {
            Lent::Objects(objects) => assert_eq!(lent_keys(&objects), ["label"]),
            other => panic!("{other:?}"),
        }
        // A key every choice of another union lists is listed, as if a
        // member listed it, and so is one that only some choices list: a
        // value of any choice holds the lender's literals there.
        let both_list = Ty::Union(vec![
            object(
                vec![prop("a", Ty::Unknown), prop("label", Ty::Str)],
                Extra::Unspecified,
            ),
            object(
                vec![prop("b", Ty::Unknown), prop("label", Ty::Num)],
                Extra::Unspecified,
            ),
        ]);
        let only_label = Ty::Union(vec![
            object(vec![prop("label", Ty::Str)], Extra::Unspecified),
            object(
                vec![prop("label", Ty::Num), prop("b", Ty::Str)],
                Extra::Unspecified,
            ),
        ]);
        // (The union of lenders lists `b` itself, so it does not lend it.)
        for (lending, keys) in [
            (Ty::Named(5), ["label"].as_slice()),
            (Ty::Named(0), ["b", "label"].as_slice()),
        ] {
            match lent_through_names(&[lending.clone(), only_label.clone()], &twice) {
                Lent::Objects(objects) => assert_eq!(lent_keys(&objects), keys),
                other => panic!("{other:?}"),
            }
            // `a` and `b`, which one choice each lists, are lent too.
            let mut with_a = keys.to_vec();
            with_a.insert(0, "a");
            match lent_through_names(&[lending, both_list.clone()], &twice) {
                Lent::Objects(objects) => assert_eq!(lent_keys(&objects), with_a),
                other => panic!("{other:?}"),
            }
        }
        // The same union inline and through a name lends one object.
        let inline_too = Ty::Union(vec![Ty::Named(0), other_lender("b")]);
        match lent_through_names(&[inline_too, Ty::Named(5), Ty::Named(2)], &twice) {
            Lent::Objects(objects) => assert_eq!(lent_keys(&objects), ["label"]),
            other => panic!("{other:?}"),
        }
        // Keys only some choices list are lent too: the lender beside the
        // union gives them its literals in a value of either choice (where
        // a choice types the key otherwise, it admits no value there).
        let as_literals = Ty::Union(vec![
            object(vec![prop("label", flags.clone())], Extra::Unspecified),
            object(vec![prop("count", Ty::Int)], Extra::Unspecified),
        ]);
        match lent_through_names(&[Ty::Named(0), as_literals], &twice) {
            Lent::Objects(objects) => assert_eq!(lent_keys(&objects), ["count", "label"]),
            other => panic!("{other:?}"),
        }
        // Past what one place reads of the keys choices list, none of those
        // is lent, and that is told.
        let wide_union = Ty::Union(
            (0..=SOME_KEYS)
                .map(|i| object(vec![prop(&format!("k{i}"), Ty::Str)], Extra::Unspecified))
                .collect(),
        );
        let lent = lent_through_names(&[Ty::Named(0), wide_union.clone()], &twice);
        assert!(matches!(&lent, Lent::Partly(o) if o.is_empty()), "{lent:?}");
        // What the other members list is still lent there.
        match lent_through_names(&[Ty::Named(0), wide_union, Ty::Named(2)], &twice) {
            Lent::Partly(objects) => assert_eq!(lent_keys(&objects), ["label"]),
            other => panic!("{other:?}"),
        }
        // So are keys every choice lists, where those only some list are
        // too many to write.
        let some_too_many = Ty::Union(
            (0..=LENT_PER_PLACE)
                .map(|i| {
                    let own = prop(&format!("k{i}"), Ty::Str);
                    object(vec![own, prop("label", Ty::Str)], Extra::Unspecified)
                })
                .collect(),
        );
        match lent_through_names(&[Ty::Named(0), some_too_many], &twice) {
            Lent::Partly(objects) => assert_eq!(lent_keys(&objects), ["label"]),
            other => panic!("{other:?}"),
        }
        // A union each of whose choices lends keeps lending the keys the
        // others list, where those only some choices list do not fit.
        let lending_union = Ty::Union(vec![Ty::Named(0), other_lender("b")]);
        let some_many = Ty::Union(vec![
            object(
                (0..LENT_PER_PLACE / 4)
                    .map(|i| prop(&format!("k{i}"), Ty::Str))
                    .collect(),
                Extra::Unspecified,
            ),
            object(vec![prop("room", Ty::Str)], Extra::Unspecified),
        ]);
        match lent_through_names(&[lending_union, some_many, Ty::Named(2)], &twice) {
            Lent::Partly(objects) => assert_eq!(lent_keys(&objects), ["label"]),
            other => panic!("{other:?}"),
        }
        // Inside one choice of another union, such a union constrains that
        // choice only: it lends nothing to the place, which is told.
        let inside = Ty::Union(vec![
            Ty::Inter(vec![listing("zone"), Ty::Named(5)], origin.clone()),
            listing("preset"),
        ]);
        let lent = lent_through_names(&[inside, Ty::Named(2)], &twice);
        assert!(
            matches!(&lent, Lent::InUnion(o) if o.is_empty()),
            "{lent:?}"
        );
        // Literals too many to write there lend nothing, and are told.
        let many = |prefix: &str| {
            let literals = (0..40).map(|i| Ty::Lit(Lit::Str(format!("{prefix}{i}"))));
            object(
                Vec::new(),
                Extra::Values(Box::new(Ty::Union(literals.collect()))),
            )
        };
        let too_many = Ty::Union(vec![many("a"), many("b")]);
        let lent = lent_through_names(&[too_many, Ty::Named(2)], &defs);
        assert!(
            matches!(&lent, Lent::InUnion(o) if o.is_empty()),
            "{lent:?}"
        );
        // Where one choice lists the key, the others still refuse it there.
        let one_lists = Ty::Union(vec![Ty::Named(0), other_lender("label")]);
        let lent = lent_through_names(&[one_lists, Ty::Named(2)], &defs);
        assert!(
            matches!(&lent, Lent::InUnion(o) if o.is_empty()),
            "{lent:?}"
        );
        // A choice with two lenders lends what both admit, which is not
        // read: the union is told, as before.
        let two_in_one = Ty::Union(vec![
            Ty::Named(0),
            Ty::Inter(vec![other_lender("b"), Ty::Named(0)], origin.clone()),
        ]);
        let lent = lent_through_names(&[two_in_one, Ty::Named(2)], &defs);
        assert!(matches!(&lent, Lent::InUnion(_)), "{lent:?}");
        // Nor where the others type the key so that no literal widens: as
        // the same literals, or as another kind; a string, or any value,
        // widens it.
        let typed = |ty: Ty| object(vec![prop("label", ty)], Extra::Unspecified);
        for (ty, told) in [
            (flags.clone(), false),
            (Ty::Int, false),
            (Ty::Union(vec![Ty::Int, Ty::Null]), false),
            (Ty::Union(vec![Ty::Int, Ty::Str]), true),
            (Ty::Unknown, true),
        ] {
            let lent = lent_through_names(&[Ty::Named(3), typed(ty.clone())], &defs);
            assert_eq!(matches!(lent, Lent::InUnion(_)), told, "{ty:?}: {lent:?}");
        }
        // A union without a lender is nothing to tell.
        let plain = Ty::Union(vec![listing("a"), listing("b")]);
        assert!(matches!(
            lent_through_names(&[plain, Ty::Named(2)], &defs),
            Lent::Nothing
        ));
        // A lender whose choice lists the key itself refuses nothing there,
        // nor one whose choice is an intersection that lists it beside it.
        let lists_label = Ty::Union(vec![
            object(
                vec![prop("label", Ty::Str)],
                Extra::Values(Box::new(flags.clone())),
            ),
            listing("preset"),
        ]);
        let lends_label = Ty::Union(vec![
            Ty::Inter(vec![Ty::Named(0), Ty::Named(2)], origin.clone()),
            listing("preset"),
        ]);
        for union in [lists_label, lends_label] {
            let lent = lent_through_names(&[union, Ty::Named(2)], &defs);
            assert!(matches!(lent, Lent::Nothing), "{lent:?}");
        }
        // A union the place holds inline is its own to read, however
        // many its choices.
        let mut choices: Vec<Ty> = (0..2 * LENT_SCANNED).map(|_| listing("x")).collect();
        choices.push(Ty::Named(0));
        let lent = lent_through_names(&[Ty::Union(choices), Ty::Named(2)], &defs);
        assert!(matches!(lent, Lent::InUnion(_)), "{lent:?}");
        // Through names, only so deep and so many are read: past that the
        // place is cut short, and whether that may refuse a literal is
        // whether a member reaches a lender at all.
        let chain = |links: usize, lends: bool| {
            let first = if lends { lender.clone() } else { listing("a") };
            let mut defs = vec![def(first)];
            for i in 0..links {
                defs.push(def(Ty::Inter(
                    vec![Ty::Named(i), listing("z")],
                    origin.clone(),
                )));
            }
            defs.push(def(listing("label")));
            let members = [Ty::Named(links), Ty::Named(links + 1)];
            let lending = lending_defs(&defs);
            let reaches = reaches_lender(&members, &lending);
            (lent_through_names(&members, &defs), reaches)
        };
        assert!(matches!(chain(5, true), (Lent::Objects(_), true)));
        assert!(matches!(chain(LENT_DEPTH, true), (Lent::Objects(_), true)));
        assert!(matches!(chain(LENT_DEPTH + 1, true), (Lent::Cut, true)));
        assert!(matches!(chain(LENT_DEPTH + 1, false), (Lent::Cut, false)));
        let wide = |read: usize| {
            let mut wide: Vec<Ty> = vec![Ty::Named(0)];
            wide.extend((1..read).map(|_| Ty::Str));
            let defs = [
                def(lender.clone()),
                def(Ty::Inter(wide, origin.clone())),
                def(listing("label")),
            ];
            lent_through_names(&[Ty::Named(1), Ty::Named(2)], &defs)
        };
        assert!(matches!(wide(LENT_SCANNED), Lent::Objects(_)));
        assert!(matches!(wide(LENT_SCANNED + 1), Lent::Cut));
        // Two names of one lender lend once.
        let lent = lent_through_names(&[Ty::Named(0), Ty::Named(0), Ty::Named(2)], &defs);
        assert!(
            matches!(&lent, Lent::Objects(o) if o.len() == 1),
            "{lent:?}"
        );
    }

    #[test]
    fn lenders_are_found_back_along_names_and_around_loops() {
        let lender = object(Vec::new(), Extra::Values(Box::new(on_off())));
        let origin = Box::new(Origin::default());
        let inter = |members: Vec<Ty>| Ty::Inter(members, origin.clone());
        // 0 and 1 name each other, and 1 names 2, the lender; 3 names 0
        // through a union; 4 holds the lender only as a property's type, and
        // 5 names nothing that lends.
        let defs = [
            def(inter(vec![Ty::Named(1), Ty::Str])),
            def(inter(vec![Ty::Named(0), Ty::Named(2)])),
            def(lender.clone()),
            def(Ty::Union(vec![Ty::Null, Ty::Named(0)])),
            def(object(vec![prop("p", lender)], Extra::Unspecified)),
            def(inter(vec![Ty::Named(4), Ty::Named(5)])),
        ];
        let lending = lending_defs(&defs);
        assert_eq!(lending, [true, true, true, true, false, false]);
        assert!(reaches_lender(
            &[Ty::Str, Ty::Union(vec![Ty::Named(3)])],
            &lending
        ));
        assert!(!reaches_lender(&[Ty::Named(4), Ty::Named(9)], &lending));
    }

    #[test]
    fn long_lists_dedup_too() {
        let mut members: Vec<Ty> = (0..40)
            .map(|i| Ty::Lit(Lit::Str(format!("m{}", i % 20))))
            .collect();
        members.push(Ty::Str);
        match union(members) {
            Ty::Union(unique) => assert_eq!(unique.len(), 21),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn union_flattens_dedups_and_absorbs() {
        assert_eq!(union(vec![]), Ty::Never);
        assert_eq!(union(vec![Ty::Str, Ty::Never]), Ty::Str);
        assert_eq!(
            union(vec![Ty::Str, Ty::Union(vec![Ty::Null, Ty::Str])]),
            Ty::Union(vec![Ty::Str, Ty::Null])
        );
        assert_eq!(union(vec![Ty::Str, Ty::Unknown]), Ty::Unknown);
    }

    #[test]
    fn an_intersection_of_scalars_is_what_every_member_admits() {
        let o = Origin::default;
        let num = |n: serde_json::Value| match n {
            serde_json::Value::Number(n) => Ty::Lit(Lit::Num(n)),
            other => panic!("{other}"),
        };
        let s = |s: &str| Ty::Lit(Lit::Str(s.to_owned()));
        let u = |members: Vec<Ty>| Ty::Union(members);
        let cases = [
            (vec![Ty::Int, Ty::Num], Ty::Int),
            (vec![Ty::Num, Ty::Int], Ty::Int),
            (
                vec![u(vec![Ty::Num, Ty::Null]), u(vec![Ty::Null, Ty::Num])],
                u(vec![Ty::Num, Ty::Null]),
            ),
            (
                vec![Ty::Str, u(vec![s("x"), num(serde_json::json!(3))])],
                s("x"),
            ),
            (
                vec![u(vec![Ty::Str, Ty::Int]), u(vec![Ty::Num, Ty::Null])],
                Ty::Int,
            ),
            // `1.0` is an integer and the same number as `1`; 2^53 + 1 is
            // not the double 2^53.
            (
                vec![
                    Ty::Int,
                    u(vec![
                        num(serde_json::json!(1.0)),
                        num(serde_json::json!(1.5)),
                    ]),
                ],
                num(serde_json::json!(1.0)),
            ),
            (
                vec![
                    u(vec![
                        num(serde_json::json!(1)),
                        num(serde_json::json!(9_007_199_254_740_993_u64)),
                    ]),
                    u(vec![
                        num(serde_json::json!(1.0)),
                        num(serde_json::json!(9_007_199_254_740_992.0)),
                    ]),
                ],
                num(serde_json::json!(1)),
            ),
            (
                vec![Ty::Bool, Ty::Lit(Lit::Bool(true))],
                Ty::Lit(Lit::Bool(true)),
            ),
        ];
        for (members, want) in cases {
            assert_eq!(intersection(members.clone(), o()), want, "{members:?}");
        }
        // Nothing in common, or something not a scalar: as written.
        for members in [
            vec![Ty::Str, Ty::Num],
            vec![Ty::Str, Ty::Named(0)],
            vec![u(vec![Ty::Str, Ty::Array(Box::new(Ty::Str))]), Ty::Str],
        ] {
            assert!(
                matches!(intersection(members.clone(), o()), Ty::Inter(..)),
                "{members:?}"
            );
        }
        // Too many pairs to compare: as written.
        let long = |from: usize| u((from..from + 100).map(|i| s(&i.to_string())).collect());
        assert!(matches!(
            intersection(vec![long(0), long(50)], o()),
            Ty::Inter(..)
        ));
        assert_eq!(
            intersection(vec![long(0), u(vec![s("7"), s("x")])], o()),
            s("7")
        );
    }

    #[test]
    fn arrays_in_an_intersection_are_one_array_of_what_all_items_admit() {
        let array = |item: Ty| Ty::Array(Box::new(item));
        let o = Origin::default;
        assert_eq!(
            intersection(vec![array(Ty::Num), array(Ty::Int)], o()),
            array(Ty::Int)
        );
        // Other members stay beside the merged array, in its place.
        assert_eq!(
            intersection(
                vec![Ty::Named(3), array(Ty::Named(0)), array(Ty::Named(1))],
                o()
            ),
            Ty::Inter(
                vec![
                    Ty::Named(3),
                    array(Ty::Inter(vec![Ty::Named(0), Ty::Named(1)], Box::new(o())))
                ],
                Box::new(o())
            )
        );
        // An array of anything stays beside the others.
        assert_eq!(
            intersection(
                vec![array(Ty::Unknown), array(Ty::Num), array(Ty::Int)],
                o()
            ),
            Ty::Inter(vec![array(Ty::Unknown), array(Ty::Int)], Box::new(o()))
        );
        // A typed array with an implied one: merged, and out of the record.
        let implied = Origin {
            implied: vec![array(Ty::Int)],
            ..o()
        };
        match intersection(vec![array(Ty::Num), array(Ty::Int)], implied) {
            Ty::Array(item) => assert_eq!(*item, Ty::Int),
            other => panic!("{other:?}"),
        }
        // Implied arrays alone let other kinds through: left as they are.
        let both = Origin {
            implied: vec![array(Ty::Num), array(Ty::Int)],
            ..o()
        };
        match intersection(vec![array(Ty::Num), array(Ty::Int)], both) {
            Ty::Inter(members, origin) => {
                assert_eq!(members.len(), 2);
                assert_eq!(origin.implied.len(), 2);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn arrays_beside_one_tuple_join_its_positions() {
        let o = Origin::default;
        let array = |item: Ty| Ty::Array(Box::new(item));
        let lits = || Ty::Union(vec![Ty::Lit(Lit::Bool(true)), Ty::Str]);
        let tuple = |items: Vec<Ty>, required: usize, rest: Option<Ty>| {
            Ty::Tuple(Tuple {
                items,
                required,
                rest: rest.map(Box::new),
            })
        };
        // A position that does not come out as the rest does (`boolean`
        // meets the items as `true`): the tuple stays.
        assert_eq!(
            intersection(
                vec![
                    array(lits()),
                    tuple(vec![Ty::Unknown, Ty::Bool], 0, Some(Ty::Unknown))
                ],
                o()
            ),
            Ty::Inter(
                vec![
                    array(lits()),
                    tuple(vec![Ty::Unknown, Ty::Bool], 0, Some(Ty::Unknown))
                ],
                Box::new(o())
            )
        );
        // Optional positions that come out as the rest does: an array.
        assert_eq!(
            intersection(
                vec![
                    array(lits()),
                    tuple(vec![Ty::Unknown], 0, Some(Ty::Unknown))
                ],
                o()
            ),
            array(lits())
        );
        // A required position, no rest, or positions of other types: the
        // tuple stays (Python declares it as a tuple).
        for t in [
            tuple(vec![Ty::Unknown], 1, Some(Ty::Unknown)),
            tuple(vec![Ty::Unknown], 0, None),
            tuple(vec![Ty::Str], 0, Some(Ty::Unknown)),
        ] {
            assert!(
                matches!(
                    intersection(vec![t.clone(), array(lits())], o()),
                    Ty::Inter(..)
                ),
                "{t:?}"
            );
        }
        // Two tuples stay as they are.
        let two = vec![
            tuple(vec![Ty::Str], 0, None),
            tuple(vec![Ty::Num], 0, None),
            array(Ty::Str),
        ];
        assert!(matches!(intersection(two, o()), Ty::Inter(..)));
    }

    /// An object whose other keys hold literals lists, as optional keys of
    /// those literals, the keys its fellow objects list; other values are
    /// not lent.
    #[test]
    fn literal_values_are_lent_to_keys_other_members_list() {
        let flags = on_off();
        let listing = object(
            vec![prop("level", Ty::Str), prop("z", Ty::Num)],
            Extra::Unspecified,
        );
        let lender = object(
            vec![prop("a", Ty::Bool)],
            Extra::Values(Box::new(flags.clone())),
        );
        let Ty::Inter(members, _) = intersection(vec![lender, listing.clone()], Origin::default())
        else {
            panic!()
        };
        let Ty::Object(lent) = &members[0] else {
            panic!()
        };
        let keys: Vec<(&str, &Ty)> = lent
            .props
            .iter()
            .map(|p| (p.name.as_str(), &p.ty))
            .collect();
        assert_eq!(keys, [("a", &Ty::Bool), ("level", &flags), ("z", &flags)]);
        assert_eq!(members[1], listing);
        // Strings do not widen: nothing to lend.
        let strings = object(vec![], Extra::Values(Box::new(Ty::Str)));
        let Ty::Inter(members, _) = intersection(vec![strings.clone(), listing], Origin::default())
        else {
            panic!()
        };
        assert_eq!(members[0], strings);
    }

    #[test]
    fn intersection_drops_unknown_and_absorbs_never() {
        let o = Origin::default;
        assert_eq!(intersection(vec![], o()), Ty::Unknown);
        assert_eq!(intersection(vec![Ty::Str, Ty::Unknown], o()), Ty::Str);
        assert_eq!(intersection(vec![Ty::Str, Ty::Never], o()), Ty::Never);
        assert_eq!(
            intersection(
                vec![
                    Ty::Named(0),
                    Ty::Inter(vec![Ty::Named(1), Ty::Named(0)], Box::new(o()))
                ],
                o()
            ),
            Ty::Inter(vec![Ty::Named(0), Ty::Named(1)], Box::new(o()))
        );
    }
}
