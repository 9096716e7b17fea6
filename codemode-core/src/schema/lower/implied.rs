//! Keywords without `type`: which kinds of value (objects, arrays) they
//! bind, and whether a member of a combinator lets every other kind through.

use crate::json::Json;
use crate::schema::ir::{Extra, Object, Ty, union};
use crate::schema::keywords::{Dialect, Keywords, Kw};
use crate::schema::pointer::local_pointer;
use foldhash::{HashMap, HashSet};

/// Whether `map` describes an object or an array by its keywords alone,
/// without `type`, `enum` or `const`. JSON Schema applies such keywords only
/// to values of that kind and lets every other value through; the SDK
/// declares the kind, which is what such schemas mean on their own.
pub(super) fn implied_kind(map: &Keywords<'_>) -> bool {
    !map.has_any(&[Kw::Type, Kw::Enum, Kw::Const])
        && !map.about_other_kinds()
        && (map.has_any(&OBJECT_KEYWORDS) || map.has_any(&ARRAY_KEYWORDS))
}

/// How many references [`Implied`] follows from a member, and
/// [`bound_kinds`](super::intersections::bound_kinds) through definitions.
pub(super) const REF_HOPS: usize = 64;

/// How deep [`Implied`] looks into combinators inside a member.
pub(super) const NEST: usize = 64;

/// Schemas [`Implied`] may read in a walk for each schema the walk lowers
/// (see [`Walk::implied_work`](super::Walk::implied_work)).
pub(super) const IMPLIED_PER_NODE: usize = 16;

/// Keys of a schema read that cost one more unit of work: reading scans
/// them all, and memos last only a body (see `Walk::start_body`), so many
/// bodies reading one wide schema pay for it each time.
const KEYS_PER_UNIT: usize = 16;

/// Bytes of a reference that cost one more unit of work (decoding it and
/// walking its pointer).
const BYTES_PER_UNIT: usize = 64;

/// Schemas read, at most, to tell whether one member lets other kinds
/// through; past it, the member counts as one that may bind either kind
/// (see [`Implied::past_a_limit`]).
const IMPLIED_WORK: usize = 1024;

/// What [`Implied`] found of each schema a reference reached, by the
/// document's and the schema's addresses: the kinds it binds, and whether
/// a limit was reached reading it.
pub(super) type ImpliedMemo = HashMap<(usize, usize), (Option<(bool, bool)>, bool)>;

/// Whether a member of a combinator lets every value of some kind through,
/// and which kinds it binds: it does when every part of it does and at
/// least one part says something. A part does when its keywords imply its
/// kind (see [`implied_kind`]), when it is a local `$ref` to such a schema
/// (read from `root`, up to [`REF_HOPS`] references), an `allOf` of such
/// members, or an `anyOf` or `oneOf` with such a member (exactly one, for
/// `oneOf`). `nullable` only widens, and keywords beside a `$ref` count
/// only in dialects that apply them.
///
/// It holds the document references resolve in, the work left, whether a
/// limit was reached, and what the walk has found of schemas references
/// reached before ([`Walk::implied_kinds`](super::Walk::implied_kinds) makes one).
pub(super) struct Implied<'r, 'v> {
    root: &'r Json<'v>,
    /// The dialect `root` names (see [`Dialect::of`]).
    dialect: Dialect,
    work: usize,
    /// The walk's work left, across every member it judges.
    total: &'r mut usize,
    pub(super) exhausted: bool,
    /// Whether a reference led back to a schema being read, which makes
    /// what is found on the way depend on where the reading started.
    cycle: bool,
    /// The schemas being read, by address.
    open: HashSet<usize>,
    /// What each schema a reference reached binds, and whether a limit was
    /// reached reading it, by the document's and the schema's addresses:
    /// read once in a walk however many paths reach it.
    memo: &'r mut ImpliedMemo,
}

/// What a schema's own keywords (all but `$ref`) say, for [`Implied`].
pub(super) enum Own {
    /// A part does not let other kinds through.
    Not,
    /// No keyword says anything of the kind.
    Silent,
    /// Every part lets other kinds through; these kinds it binds.
    Binds((bool, bool)),
}

impl<'r, 'v> Implied<'r, 'v> {
    pub(super) fn new(
        root: &'r Json<'v>,
        dialect: Dialect,
        total: &'r mut usize,
        memo: &'r mut ImpliedMemo,
    ) -> Self {
        Implied {
            root,
            dialect,
            work: IMPLIED_WORK,
            total,
            exhausted: false,
            cycle: false,
            open: HashSet::default(),
            memo,
        }
    }

    /// Takes `units` from the member's work and the body's; `false`, taking
    /// nothing, when either has less left.
    fn spend(&mut self, units: usize) -> bool {
        match (self.work.checked_sub(units), self.total.checked_sub(units)) {
            (Some(work), Some(total)) => {
                self.work = work;
                *self.total = total;
                true
            }
            _ => false,
        }
    }

    /// What a part past a limit counts as: one that may bind either kind
    /// and let the others through, so the SDK admits more rather than less.
    fn past_a_limit(&mut self) -> Option<(bool, bool)> {
        self.exhausted = true;
        Some((true, true))
    }

    /// The kinds (objects, arrays) whose values `item`'s keywords bind,
    /// when it lets every value of other kinds through; `None` otherwise.
    pub(super) fn member(
        &mut self,
        item: &Json<'_>,
        refs: usize,
        nest: usize,
    ) -> Option<(bool, bool)> {
        // Reading a schema scans its keys: a wide one costs more.
        let keys = match item {
            Json::Object(fields) => fields.len(),
            _ => 0,
        };
        if !self.spend(1 + keys / KEYS_PER_UNIT) {
            return self.past_a_limit();
        }
        let Json::Object(fields) = item else {
            return None;
        };
        let keywords = Keywords::of(*fields, self.dialect);
        match keywords.get(Kw::Ref) {
            Some(reference) => {
                let target = self.target(reference, refs, nest)?;
                if !self.dialect.reads_ref_siblings() {
                    return Some(target);
                }
                match self.own(&keywords, refs, nest) {
                    Own::Not => None,
                    Own::Silent => Some(target),
                    Own::Binds(own) => Some(either(target, own)),
                }
            }
            None => match self.own(&keywords, refs, nest) {
                Own::Binds(kinds) => Some(kinds),
                _ => None,
            },
        }
    }

    /// [`member`](Implied::member) for the schema `reference` (a `$ref`'s
    /// value) names.
    pub(super) fn target(
        &mut self,
        reference: &Json<'_>,
        refs: usize,
        nest: usize,
    ) -> Option<(bool, bool)> {
        // Decoding and following a reference costs its length.
        let text = reference.as_str()?;
        if !self.spend(text.len() / BYTES_PER_UNIT) {
            return self.past_a_limit();
        }
        let target = local_pointer(text).and_then(|pointer| self.root.pointer(&pointer))?;
        let at = std::ptr::from_ref(target) as usize;
        let key = (std::ptr::from_ref(self.root) as usize, at);
        if let Some(&(kinds, exhausted)) = self.memo.get(&key) {
            self.exhausted |= exhausted;
            return kinds;
        }
        if !self.open.insert(at) {
            // Back to a schema being read: this way binds nothing more.
            self.cycle = true;
            return None;
        }
        let (cycle, exhausted) = (self.cycle, self.exhausted);
        (self.cycle, self.exhausted) = (false, false);
        let kinds = match refs.checked_sub(1) {
            Some(refs) => self.member(target, refs, nest),
            None => self.past_a_limit(),
        };
        self.open.remove(&at);
        // Kept only when it does not depend on where the reading started.
        if !self.cycle {
            self.memo.insert(key, (kinds, self.exhausted));
        }
        self.cycle |= cycle;
        self.exhausted |= exhausted;
        kinds
    }

    /// What the keywords in `keywords` other than `$ref` say.
    pub(super) fn own(&mut self, keywords: &Keywords<'_>, refs: usize, nest: usize) -> Own {
        if keywords.has_any(&[Kw::Type, Kw::Enum, Kw::Const]) || keywords.about_other_kinds() {
            return Own::Not;
        }
        let direct = described_kinds(keywords);
        let mut bound = (direct != (false, false)).then_some(direct);
        for keyword in [Kw::AllOf, Kw::AnyOf, Kw::OneOf] {
            let Some(value) = keywords.get(keyword) else {
                continue;
            };
            let items = match value.as_array() {
                Some(items) if !items.is_empty() => items,
                _ => return Own::Not,
            };
            if nest == 0 {
                let either_kind = self.past_a_limit().unwrap_or_default();
                bound = Some(either(bound.unwrap_or_default(), either_kind));
                continue;
            }
            // A part that says nothing (`{}`, `true`) binds nothing and
            // lets everything through: an `allOf` reads on without it, and
            // an `anyOf` (or a `oneOf` of it alone) with it says nothing.
            let says_nothing = |item: &Json<'_>| match item {
                Json::Bool(true) => true,
                Json::Object(fields) => Keywords::of(*fields, keywords.dialect()).say_nothing(),
                _ => false,
            };
            let silent = items.iter().filter(|item| says_nothing(item)).count();
            let unconstrained = match keyword {
                Kw::AllOf => silent == items.len(),
                Kw::AnyOf => silent > 0,
                _ => silent == 1 && items.len() == 1,
            };
            if unconstrained {
                continue;
            }
            let mut kinds = Vec::with_capacity(items.len());
            for item in items {
                if keyword == Kw::AllOf && says_nothing(item) {
                    continue;
                }
                kinds.push(self.member(item, refs, nest - 1));
            }
            let found = || kinds.iter().flatten().copied();
            let kinds = match keyword {
                Kw::AllOf => kinds
                    .iter()
                    .try_fold((false, false), |all, kinds| Some(either(all, (*kinds)?))),
                Kw::OneOf => {
                    let mut found = found();
                    found.next().filter(|_| found.next().is_none())
                }
                _ => found().reduce(either),
            };
            match kinds {
                Some(kinds) => bound = Some(either(bound.unwrap_or_default(), kinds)),
                None => return Own::Not,
            }
        }
        bound.map_or(Own::Silent, Own::Binds)
    }
}

/// Both kinds of two (objects, arrays) pairs.
pub(super) fn either(a: (bool, bool), b: (bool, bool)) -> (bool, bool) {
    (a.0 || b.0, a.1 || b.1)
}

/// How deep [`members_mention_other_kinds`] looks into combinators.
pub(super) const OTHER_KINDS_DEPTH: usize = 8;

/// Whether a member of the combinators in `map` constrains only strings,
/// numbers or every value (`minLength`, `minimum`, `not`): a schema with no
/// `type`, `enum`, `const`, reference or object or array keyword, whose own
/// keywords do, or a member of whose combinators does (`depth` levels
/// down).
pub(super) fn members_mention_other_kinds(map: &Keywords<'_>, depth: usize) -> bool {
    let Some(depth) = depth.checked_sub(1) else {
        return false;
    };
    let mentions = |item: &Json<'_>| {
        let Json::Object(fields) = item else {
            return false;
        };
        let keywords = Keywords::of(*fields, map.dialect());
        !keywords.has_any(&[Kw::Type, Kw::Enum, Kw::Const, Kw::Ref])
            && described_kinds(&keywords) == (false, false)
            && (keywords.about_other_kinds() || members_mention_other_kinds(&keywords, depth))
    };
    [Kw::AllOf, Kw::AnyOf, Kw::OneOf]
        .into_iter()
        .any(|keyword| {
            (map.get(keyword).and_then(Json::as_array))
                .is_some_and(|items| items.iter().any(mentions))
        })
}

/// The union of `types` and every kind of value but the kinds (objects,
/// arrays) they bind.
pub(super) fn with_every_other_kind(mut types: Vec<Ty>, (objects, arrays): (bool, bool)) -> Ty {
    if !objects {
        types.push(Ty::Object(Object {
            props: Vec::new(),
            extra: Extra::Unspecified,
        }));
    }
    if !arrays {
        types.push(Ty::Array(Box::new(Ty::Unknown)));
    }
    types.extend([Ty::Null, Ty::Bool, Ty::Num, Ty::Str]);
    union(types)
}

/// The kinds (objects, arrays) the keywords in `map` describe without a
/// `type`: those [`OBJECT_KEYWORDS`] and [`ARRAY_KEYWORDS`] name, and,
/// beside them, those other keywords of one kind name too (`minItems`
/// beside `required` means arrays as well). Neither when no keyword that
/// shapes a type is present.
pub(super) fn described_kinds(map: &Keywords<'_>) -> (bool, bool) {
    let object = map.has_any(&OBJECT_KEYWORDS);
    let array = map.has_any(&ARRAY_KEYWORDS);
    if !object && !array {
        return (false, false);
    }
    let (more_object, more_array) = map.more_kinds();
    (object || more_object, array || more_array)
}

/// Keywords that describe an object when no `type` is given: `required`
/// alone too, since an allOf member that only makes another member's keys
/// required is common.
const OBJECT_KEYWORDS: [Kw; 4] = [
    Kw::Properties,
    Kw::Required,
    Kw::AdditionalProperties,
    Kw::PatternProperties,
];

/// Keywords that describe an array when no `type` is given.
const ARRAY_KEYWORDS: [Kw; 2] = [Kw::Items, Kw::PrefixItems];
