//! The steps after the walk, on intersections: members of kinds no other
//! member admits are pruned, keywords without `type` are left out or spread
//! over the unions beside them, any object beside a closed member is left
//! out, closed members are recorded, and intersections that multiply out
//! too far are capped.

use super::implied::REF_HOPS;
use super::{Def, Degradation, IMPLIED_LEFT_OUT, LoweredTool, renumber_refs};
use crate::schema::ir::{
    BareKind, Extra, Lit, Object, Origin, Ty, intersection, object_of, union, weight, weight_within,
};
use foldhash::HashSet;

/// The steps after the walk, in order, when it made an intersection.
pub(super) fn settle(
    tools: &mut [LoweredTool],
    defs: &mut Vec<Def>,
    degradations: &mut Vec<Degradation>,
) {
    // Definitions first, so that a reference a tool's intersection spells
    // out is spelt as pruned (within a definition, as read before).
    let mut inlined = false;
    let lowered: Vec<Ty> = defs.iter().map(|def| def.ty.clone()).collect();
    let mut kinds = ValueKinds::new(&lowered);
    for def in defs.iter_mut() {
        prune_disjoint(&mut def.ty, &mut kinds, &mut inlined);
    }
    let lowered: Vec<Ty> = defs.iter().map(|def| def.ty.clone()).collect();
    let mut kinds = ValueKinds::new(&lowered);
    for tool in tools.iter_mut() {
        prune_disjoint(&mut tool.input, &mut kinds, &mut inlined);
        if let Some(output) = &mut tool.output {
            prune_disjoint(output, &mut kinds, &mut inlined);
        }
    }
    let dropped = drop_implied(tools, defs, degradations) || inlined;
    drop_any_object_beside_closed(tools, defs);
    record_closed_members(tools, defs, degradations);
    cap_intersections(tools, defs, degradations);
    if dropped {
        drop_unreachable(tools, defs);
    }
}

/// How many alternatives an `allOf` over unions may multiply out to before
/// it becomes the escape hatch.
const MAX_ALTERNATIVES: usize = 1_000;

/// Replaces each intersection that multiplies out to more than
/// [`MAX_ALTERNATIVES`] alternatives with the escape hatch, and records it.
/// Called only when the lowering made an intersection.
/// Checkers distribute `(A | B) & (C | D)` into four members (TypeScript
/// gives up past 100,000), through named types too, so the count follows
/// references.
fn cap_intersections(
    tools: &mut [LoweredTool],
    defs: &mut [Def],
    degradations: &mut Vec<Degradation>,
) {
    let mut memo: Vec<Option<usize>> = vec![None; defs.len()];
    for id in 0..defs.len() {
        alternatives(&Ty::Named(id), defs, &mut memo, 0);
    }
    let mut cap = |ty: &mut Ty| {
        if let Ty::Inter(_, origin) = &*ty
            && alternatives(ty, &[], &mut memo, 0) > MAX_ALTERNATIVES
        {
            degradations.push(Degradation {
                tool: origin.tool.clone(),
                pointer: origin.pointer.clone(),
                reason: format!(
                    "allOf over anyOf/oneOf makes more than {MAX_ALTERNATIVES} alternatives"
                ),
            });
            *ty = Ty::Unknown;
        }
    };
    visit_every_type(tools, defs, &mut cap);
}

/// Calls `f` on every type in the tools' schemas and the definitions,
/// outer types before those inside them.
fn visit_every_type(tools: &mut [LoweredTool], defs: &mut [Def], f: &mut impl FnMut(&mut Ty)) {
    for tool in tools.iter_mut() {
        crate::schema::share::visit_mut(&mut tool.input, f);
        if let Some(output) = &mut tool.output {
            crate::schema::share::visit_mut(output, f);
        }
    }
    for def in defs.iter_mut() {
        crate::schema::share::visit_mut(&mut def.ty, f);
    }
}

/// Kinds of JSON value, a bit each, for [`prune_disjoint`].
const NULL_KIND: u8 = 1;
const BOOL_KIND: u8 = 2;
const NUMBER_KIND: u8 = 4;
const STRING_KIND: u8 = 8;
const ARRAY_KIND: u8 = 16;
const OBJECT_KIND: u8 = 32;
const EVERY_KIND: u8 = 63;

/// The kinds a type binds (see [`bound_kinds`]), as bits.
fn bound_bits(ty: &Ty, defs: &[Ty]) -> u8 {
    let (objects, arrays) = bound_kinds(ty, defs);
    (if objects { OBJECT_KIND } else { 0 }) | (if arrays { ARRAY_KIND } else { 0 })
}

/// What kinds of JSON value types admit, with what each definition admits
/// remembered, so that every definition is read once.
struct ValueKinds<'d> {
    defs: &'d [Ty],
    memo: Vec<Option<u8>>,
    /// Whether each definition holds an intersection with a bare `type`
    /// beside a reference, once asked ([`ValueKinds::holds_reference_typed`]).
    typed_within: Vec<Option<bool>>,
}

impl<'d> ValueKinds<'d> {
    /// Nothing known yet of the definitions `defs`.
    fn new(defs: &'d [Ty]) -> Self {
        ValueKinds {
            defs,
            memo: vec![None; defs.len()],
            typed_within: vec![None; defs.len()],
        }
    }

    /// The kinds `ty` admits, or more. `implied` holds the members an
    /// intersection around records as implied by their keywords: such a
    /// choice of a union lets every kind it does not bind through. An
    /// intersection's own implied members restrict no kind. A reference
    /// past [`REF_HOPS`], or back to a definition being read, may be
    /// anything.
    fn of(&mut self, ty: &Ty, implied: &HashSet<&Ty>, hops: usize) -> u8 {
        match ty {
            Ty::Unknown => EVERY_KIND,
            Ty::Never => 0,
            Ty::Null => NULL_KIND,
            Ty::Bool | Ty::Lit(Lit::Bool(_)) => BOOL_KIND,
            Ty::Int | Ty::Num | Ty::Lit(Lit::Num(_)) => NUMBER_KIND,
            Ty::Str | Ty::Lit(Lit::Str(_)) => STRING_KIND,
            Ty::Array(_) | Ty::Tuple(_) => ARRAY_KIND,
            Ty::Object(_) => OBJECT_KIND,
            Ty::Union(choices) => choices
                .iter()
                .fold(0, |k, c| k | self.of_choice(c, implied, hops)),
            Ty::Inter(members, origin) => self.of_members(members, origin, hops),
            Ty::Named(id) => {
                let defs = self.defs;
                match (self.memo.get(*id), defs.get(*id)) {
                    (Some(Some(known)), _) => *known,
                    (Some(None), Some(def)) if hops > 0 => {
                        // Read through a cycle, the definition may be anything.
                        self.memo[*id] = Some(EVERY_KIND);
                        let kinds = self.of(def, &HashSet::default(), hops - 1);
                        self.memo[*id] = Some(kinds);
                        kinds
                    }
                    _ => EVERY_KIND,
                }
            }
        }
    }

    /// Whether definition `id`'s body holds an intersection with a bare
    /// `type` beside a reference ([`Origin::reference_typed`]): one the
    /// pruning left, or, inside a definition, one not pruned yet. Spelling
    /// such a body out would copy it, a level deeper each time for one that
    /// refers to itself; the reference stays a reference.
    fn holds_reference_typed(&mut self, id: usize) -> bool {
        fn within(ty: &Ty) -> bool {
            let mut found = matches!(ty, Ty::Inter(_, origin) if origin.reference_typed);
            crate::schema::share::each_child(ty, &mut |child, _| found = found || within(child));
            found
        }
        if let Some(Some(known)) = self.typed_within.get(id) {
            return *known;
        }
        let found = self.defs.get(id).is_none_or(within);
        if let Some(slot) = self.typed_within.get_mut(id) {
            *slot = Some(found);
        }
        found
    }

    /// The kinds a choice of a union admits (see [`Self::of`]).
    fn of_choice(&mut self, choice: &Ty, implied: &HashSet<&Ty>, hops: usize) -> u8 {
        let own = self.of(choice, implied, hops);
        if implied.contains(choice) {
            own | (EVERY_KIND & !bound_bits(choice, self.defs))
        } else {
            own
        }
    }

    /// The kinds every typed member of an intersection admits.
    fn of_members(&mut self, members: &[Ty], origin: &Origin, hops: usize) -> u8 {
        let implied: HashSet<&Ty> = origin.implied.iter().collect();
        (members.iter())
            .filter(|m| !implied.contains(m))
            .fold(EVERY_KIND, |k, m| k & self.of(m, &implied, hops))
    }
}

/// Takes out of the unions inside each intersection the choices of a kind
/// that the typed members refuse: `{...} & ({ x?: string } | string |
/// null)`, where the first member binds objects, is `{...} & { x?: string
/// }`, the same values. Such unions come from keywords that speak of other
/// kinds too (`{"properties": ..., "not": ...}`) beside a typed schema.
/// Members their keywords implied restrict no kind, and keep the kinds they
/// bind (the others they let through anyway). Inner intersections go
/// first, and the record of implied members is pruned the same way, so
/// that it still names the members it names.
///
/// A bare `type` beside a reference ([`Origin::reference_typed`]) picks
/// the reference's values of that kind: a reference to a union (through
/// references alone) is pruned as the union, spelt out (`N & { [key:
/// string]: unknown }` with `N` an object or null is the object), one to
/// any value goes, and then the bare member goes when the rest admit only
/// its kind. Where it cannot (a reference to an intersection, say), the
/// intersection stays, and Python declares the reference whole (recorded).
///
/// Sets `inlined` when it spelt out a reference, which may leave a
/// definition unused.
fn prune_disjoint(ty: &mut Ty, kinds: &mut ValueKinds<'_>, inlined: &mut bool) {
    crate::schema::share::each_child_mut(ty, &mut |child| prune_disjoint(child, kinds, inlined));
    let Ty::Inter(members, origin) = ty else {
        return;
    };
    for entry in &mut origin.implied {
        prune_disjoint(entry, kinds, inlined);
    }
    // No kind at all: the typed members contradict each other, or one of
    // them was read too narrowly; the intersection stays as it was rather
    // than become `never`.
    let allowed = kinds.of_members(members, origin, REF_HOPS);
    if allowed == EVERY_KIND || allowed == 0 {
        return;
    }
    let narrowed = {
        let implied: HashSet<&Ty> = origin.implied.iter().collect();
        let defs = kinds.defs;
        let reference_typed = origin.reference_typed;
        let mut narrow = |ty: &Ty| -> Option<Ty> {
            let choices = match ty {
                Ty::Union(choices) => choices,
                Ty::Named(id) if reference_typed => match resolve(*id, defs) {
                    Some((Ty::Union(_), body)) if kinds.holds_reference_typed(body) => {
                        return None;
                    }
                    Some((Ty::Union(choices), _)) => choices,
                    // Any value, of which the bare member picks its kind.
                    Some((Ty::Unknown, _)) => return Some(Ty::Unknown),
                    _ => return None,
                },
                _ => return None,
            };
            // An implied union keeps the kinds it binds: the others it
            // lets through whatever its choices say.
            let keep = if implied.contains(ty) {
                bound_bits(ty, defs)
            } else {
                0
            };
            let gone: Vec<bool> = (choices.iter())
                .map(|c| {
                    let admitted = kinds.of_choice(c, &implied, REF_HOPS);
                    admitted & allowed == 0 && admitted & keep == 0
                })
                .collect();
            if !gone.contains(&true) {
                return None;
            }
            let kept = (choices.iter().zip(&gone))
                .filter(|(_, gone)| !**gone)
                .map(|(c, _)| c.clone())
                .collect();
            let kept = union(kept);
            // Unless nothing is left, or what it binds changed (and so
            // what it lets through).
            (kept != Ty::Never && (keep == 0 || bound_bits(&kept, defs) == keep)).then_some(kept)
        };
        let members: Vec<Option<Ty>> = members.iter().map(&mut narrow).collect();
        let entries: Vec<Option<Ty>> = if members.iter().all(Option::is_none) {
            Vec::new()
        } else {
            origin.implied.iter().map(&mut narrow).collect()
        };
        (members, entries)
    };
    let (new_members, new_entries) = narrowed;
    let mut changed = false;
    for (member, new) in members.iter_mut().zip(new_members) {
        if let Some(new) = new {
            *inlined |= matches!(member, Ty::Named(_));
            *member = new;
            changed = true;
        }
    }
    for (entry, new) in origin.implied.iter_mut().zip(new_entries) {
        if let Some(new) = new {
            *entry = new;
        }
    }
    if origin.reference_typed {
        changed |= drop_bare_members(members, origin, kinds);
    }
    if !changed {
        return;
    }
    let members = std::mem::take(members);
    let origin = std::mem::take(&mut **origin);
    *ty = intersection(members, origin);
}

/// Leaves out of `members` each bare object or array (`{ [key: string]:
/// unknown }`, `unknown[]`) that another member makes redundant: one that
/// admits values of that kind alone (`type: "object"` beside a reference to
/// an object). A member implied by its keywords counts as the kinds it
/// binds; when every member is bare, none goes. Says whether one went.
fn drop_bare_members(members: &mut Vec<Ty>, origin: &Origin, kinds: &mut ValueKinds<'_>) -> bool {
    let bits = |kind| match kind {
        BareKind::Object => OBJECT_KIND,
        BareKind::Array => ARRAY_KIND,
    };
    let implied: HashSet<&Ty> = origin.implied.iter().collect();
    // A member implied by its keywords is declared as the kinds it binds,
    // which is all the bare member could add to it.
    let admitted: Vec<u8> = (members.iter())
        .map(|m| match implied.contains(m) {
            true => bound_bits(m, kinds.defs),
            false => kinds.of(m, &implied, REF_HOPS),
        })
        .collect();
    let redundant: Vec<bool> = (members.iter().enumerate())
        .map(|(i, m)| {
            m.bare_kind().is_some_and(|kind| {
                (admitted.iter().enumerate())
                    .any(|(j, &other)| j != i && other != 0 && other & !bits(kind) == 0)
            })
        })
        .collect();
    // Every member is bare only when they are one bare type, repeated.
    if !redundant.contains(&false) {
        return false;
    }
    let mut at = 0;
    members.retain(|_| {
        at += 1;
        !redundant[at - 1]
    });
    redundant.contains(&true)
}

/// The body of definition `id`, through references alone (at most
/// [`REF_HOPS`] of them), and the definition it is the body of: `None` past
/// that, or for a missing definition.
fn resolve(mut id: usize, defs: &[Ty]) -> Option<(&Ty, usize)> {
    for _ in 0..REF_HOPS {
        match defs.get(id)? {
            Ty::Named(next) => id = *next,
            body => return Some((body, id)),
        }
    }
    None
}

/// Leaves out of each intersection the members its keywords implied without
/// a `type` (see [`implied_kind`](super::implied_kind)) when the other members together admit
/// values of another kind, and records it. JSON Schema lets those values
/// through such keywords, but an intersection would refuse them: `{"$ref":
/// P, "required": ["x"]}` with `P` a string or null admits `null`, and
/// `P & { x: unknown }` does not. Leaving the member out declares every
/// value the schema admits, and a few it does not.
/// Called only when the lowering made an intersection; says whether it
/// left a member out, which may leave a definition unused.
fn drop_implied(
    tools: &mut [LoweredTool],
    defs: &mut [Def],
    degradations: &mut Vec<Degradation>,
) -> bool {
    let roots = || {
        let inputs = tools.iter().map(|tool| &tool.input);
        let outputs = tools.iter().filter_map(|tool| tool.output.as_ref());
        inputs.chain(outputs).chain(defs.iter().map(|def| &def.ty))
    };
    if !roots().any(has_implied) {
        return false;
    }
    // How many types writing out referenced unions may still copy, once
    // one is (see `distribute`).
    let mut copy_budget = None;
    // The definitions as they were lowered. Implied members count as
    // admitting every other kind wherever they are, so whether a member
    // is dropped elsewhere does not change what a definition admits.
    let lowered: Vec<Ty> = defs.iter().map(|def| def.ty.clone()).collect();
    let mut kinds = Kinds {
        defs: &lowered,
        memo: vec![[None; 2]; lowered.len()],
    };
    let mut changed = false;
    let mut drop = |ty: &mut Ty| {
        let Ty::Inter(members, origin) = &*ty else {
            return;
        };
        if origin.implied.is_empty() {
            return;
        }
        // Sets by hash, so that an allOf of thousands of members stays
        // linear.
        let implied_set: HashSet<&Ty> = origin.implied.iter().collect();
        let (mut implied, mut typed): (Vec<&Ty>, Vec<&Ty>) =
            members.iter().partition(|m| implied_set.contains(m));
        if typed.is_empty() {
            // An implied union lists choices of its own: the rest spreads
            // over them as over a typed union.
            for (at, kind) in spread_candidates(members, &lowered) {
                if let Some(split) =
                    distribute(members, at, kind, origin, &lowered, &mut copy_budget)
                {
                    *ty = split;
                    changed = true;
                    return;
                }
            }
            if let Some(split) = by_kind(members, origin, &lowered) {
                *ty = split;
                changed = true;
                return;
            }
            // Otherwise the unions stand as typed members, beside which
            // the rest may go.
            (typed, implied) = (implied.into_iter())
                .partition(|m| matches!(m, Ty::Union(_)) || union_behind(m, &lowered).is_some());
            if typed.is_empty() {
                return;
            }
        } else if let [one] = typed[..]
            && let Some(at) = members.iter().position(|m| std::ptr::eq(m, one))
            && let Some(kind) = one_kind(implied.iter().copied(), &lowered)
            && let Some(split) = distribute(members, at, kind, origin, &lowered, &mut copy_budget)
        {
            *ty = split;
            changed = true;
            return;
        }
        // Each implied member goes when the typed members together admit
        // values not of a kind it binds.
        let mut other_than = [None::<bool>; 2];
        let mut admits_other = |array: bool| {
            *other_than[usize::from(array)]
                .get_or_insert_with(|| typed.iter().all(|t| kinds.admits_other(t, array)))
        };
        let gone: HashSet<&Ty> = implied
            .into_iter()
            .filter(|m| {
                let (objects, arrays) = bound_kinds(m, &lowered);
                (objects && admits_other(false)) || (arrays && admits_other(true))
            })
            .collect();
        if gone.is_empty() {
            return;
        }
        let kept: Vec<Ty> = members
            .iter()
            .filter(|m| !gone.contains(m))
            .cloned()
            .collect();
        let implied: Vec<Ty> = origin
            .implied
            .iter()
            .filter(|m| !gone.contains(m))
            .cloned()
            .collect();
        let (tool, pointer) = (origin.tool.clone(), origin.pointer.clone());
        degradations.push(Degradation {
            tool: tool.clone(),
            pointer: pointer.clone(),
            reason: IMPLIED_LEFT_OUT.to_owned(),
        });
        let origin = Origin {
            tool,
            pointer,
            implied,
            reference_typed: origin.reference_typed,
        };
        *ty = intersection(kept, origin);
        changed = true;
    };
    visit_every_type(tools, defs, &mut drop);
    changed
}

/// Removes the definitions no tool reaches any longer (a reference left
/// out of an intersection may have been the only use of one), and numbers
/// the rest again in their order.
fn drop_unreachable(tools: &mut [LoweredTool], defs: &mut Vec<Def>) {
    let roots = tools
        .iter()
        .flat_map(|tool| std::iter::once(&tool.input).chain(&tool.output));
    let live = crate::schema::share::reached_defs(roots, defs);
    if live.iter().all(|l| *l) {
        return;
    }
    let mut next = 0;
    let renumbered: Vec<usize> = live
        .iter()
        .map(|l| {
            let id = next;
            next += usize::from(*l);
            id
        })
        .collect();
    let mut at = 0;
    defs.retain(|_| {
        at += 1;
        live[at - 1]
    });
    for tool in tools.iter_mut() {
        renumber_refs(&mut tool.input, &renumbered);
        if let Some(output) = &mut tool.output {
            renumber_refs(output, &renumbered);
        }
    }
    for def in defs.iter_mut() {
        renumber_refs(&mut def.ty, &renumbered);
    }
}

/// Leaves any object (`{"type": "object"}`, which lists no key and says
/// nothing of others) out of an intersection with a member that admits no
/// keys but its own (`additionalProperties: false`), written in place or
/// named: the member forbids the other keys any object would let through,
/// and TypeScript's `{ [key: string]: unknown } & ...` admitted them.
fn drop_any_object_beside_closed(tools: &mut [LoweredTool], defs: &mut [Def]) {
    fn is_any_object(ty: &Ty) -> bool {
        matches!(ty, Ty::Object(obj) if obj.props.is_empty() && obj.extra == Extra::Unspecified)
    }
    let closed: Vec<bool> = (0..defs.len())
        .map(|id| object_of(&Ty::Named(id), defs).is_some_and(|o| o.extra == Extra::Closed))
        .collect();
    let is_closed = |ty: &Ty| match ty {
        Ty::Object(obj) => obj.extra == Extra::Closed,
        Ty::Named(id) => closed.get(*id).copied().unwrap_or(false),
        _ => false,
    };
    visit_every_type(tools, defs, &mut |ty| {
        let Ty::Inter(members, origin) = ty else {
            return;
        };
        if !members.iter().any(is_closed) || !members.iter().any(is_any_object) {
            return;
        }
        members.retain(|m| !is_any_object(m));
        origin.implied.retain(|m| !is_any_object(m));
        if let [only] = members.as_mut_slice() {
            *ty = std::mem::replace(only, Ty::Unknown);
        }
    });
}

/// Records each intersection with a member that admits no keys but its own
/// (`additionalProperties: false` beside properties) while another member
/// lists other keys. JSON Schema applies `additionalProperties` to the
/// member's own properties alone, so the schema forbids those keys; both
/// SDKs admit them, as a schema written so nearly always means (what
/// `unevaluatedProperties: false` says).
fn record_closed_members(tools: &[LoweredTool], defs: &[Def], degradations: &mut Vec<Degradation>) {
    fn visit(ty: &Ty, defs: &[Def], out: &mut Vec<Degradation>) {
        if let Ty::Inter(members, origin) = ty {
            let closed: Vec<&Object> = (members.iter())
                .filter_map(|m| object_of(m, defs))
                .filter(|o| o.extra == Extra::Closed && !o.props.is_empty())
                .collect();
            let forbids = !closed.is_empty() && {
                // Every key the members list, through references,
                // intersections and unions (within a bound of work).
                let mut keys: Vec<&str> = Vec::new();
                let mut budget = KEYS_WORK;
                // A set, not a flag per definition: this runs once per
                // such intersection.
                let mut seen: HashSet<usize> = HashSet::default();
                for member in members.iter() {
                    listed_keys(member, defs, &mut seen, &mut budget, &mut keys);
                }
                closed.iter().any(|closed| {
                    keys.iter().any(|key| {
                        (closed.props)
                            .binary_search_by(|q| q.name.as_str().cmp(key))
                            .is_err()
                    })
                })
            };
            if forbids {
                out.push(Degradation {
                    tool: origin.tool.clone(),
                    pointer: origin.pointer.clone(),
                    reason: "a member with `additionalProperties: false` forbids the keys the \
                             other members list; the SDK admits them, as \
                             `unevaluatedProperties: false` would"
                        .to_owned(),
                });
            }
        }
        crate::schema::share::each_child(ty, &mut |child, _| visit(child, defs, out));
    }
    let roots = tools
        .iter()
        .flat_map(|tool| std::iter::once(&tool.input).chain(tool.output.as_ref()))
        .chain(defs.iter().map(|def| &def.ty));
    for root in roots {
        visit(root, defs, degradations);
    }
}

/// Types [`listed_keys`] reads for one intersection, at most.
const KEYS_WORK: usize = 4096;

/// Adds to `keys` the keys the objects of `ty` list: itself, or through
/// references (each definition once), intersections and unions, while
/// `budget` lasts.
fn listed_keys<'t>(
    ty: &'t Ty,
    defs: &'t [Def],
    seen: &mut HashSet<usize>,
    budget: &mut usize,
    keys: &mut Vec<&'t str>,
) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    match ty {
        Ty::Object(obj) => keys.extend(obj.props.iter().map(|p| p.name.as_str())),
        Ty::Named(id) => {
            if let Some(def) = defs.get(*id)
                && seen.insert(*id)
            {
                listed_keys(&def.ty, defs, seen, budget, keys);
            }
        }
        Ty::Inter(members, _) | Ty::Union(members) => {
            for member in members {
                listed_keys(member, defs, seen, budget, keys);
            }
        }
        _ => {}
    }
}

/// How much (in [`weight`] units) [`drop_implied`] may copy, at least,
/// when it writes out referenced unions.
const INLINE_MIN: usize = 1 << 16;

/// Whether an intersection in `ty` has a member its keywords implied.
fn has_implied(ty: &Ty) -> bool {
    if let Ty::Inter(_, origin) = ty
        && !origin.implied.is_empty()
    {
        return true;
    }
    let mut found = false;
    crate::schema::share::each_child(ty, &mut |child, _| found = found || has_implied(child));
    found
}

/// The kinds an implied member binds, as (objects, arrays): what its
/// keywords made (an object, an array or tuple, possibly with `null`
/// beside it); for a union of `anyOf` members of which some were implied,
/// every kind its members are; for an intersection, the one kind all its
/// members bind. A reference binds what the type it names binds (`defs`
/// holds the definitions as lowered, read through up to [`REF_HOPS`]
/// references). Anything else might be either. Saying a kind too many only
/// leaves the member out more often, which widens the SDK and never makes
/// it refuse a value.
pub(super) fn bound_kinds(ty: &Ty, defs: &[Ty]) -> (bool, bool) {
    let mut work = KINDS_WORK;
    kinds_within(ty, defs, REF_HOPS, &mut work)
}

/// Types [`bound_kinds`] reads for one member, at most.
const KINDS_WORK: usize = 4096;

fn kinds_within(ty: &Ty, defs: &[Ty], hops: usize, work: &mut usize) -> (bool, bool) {
    const EITHER: (bool, bool) = (true, true);
    if *work == 0 {
        return EITHER;
    }
    *work -= 1;
    match ty {
        Ty::Object(_) => (true, false),
        Ty::Array(_) | Ty::Tuple(_) => (false, true),
        Ty::Named(id) => match defs.get(*id) {
            Some(def) if hops > 0 => kinds_within(def, defs, hops - 1, work),
            _ => EITHER,
        },
        Ty::Inter(members, _) => {
            let mut kinds = members.iter().map(|m| kinds_within(m, defs, hops, work));
            match kinds.next() {
                Some(kind @ ((true, false) | (false, true))) if kinds.all(|k| k == kind) => kind,
                _ => EITHER,
            }
        }
        Ty::Union(members) => members.iter().fold((false, false), |(o, a), m| {
            let (mo, ma) = kinds_within(m, defs, hops, work);
            (o || mo, a || ma)
        }),
        _ => (false, false),
    }
}

/// An intersection made only of implied members, of objects and arrays
/// both: the objects' intersection or the arrays', as the keywords of each
/// kind bind only values of that kind. `None` when the members are of one
/// kind, which the SDK declares (as such a schema alone says), or when a
/// member might be either.
fn by_kind(members: &[Ty], origin: &Origin, defs: &[Ty]) -> Option<Ty> {
    let kinds: Vec<bool> = members
        .iter()
        .map(|m| match bound_kinds(m, defs) {
            (true, false) => Some(false),
            (false, true) => Some(true),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if !(kinds.contains(&true) && kinds.contains(&false)) {
        return None;
    }
    let of = |array: bool| {
        let members = members.iter().zip(&kinds).filter(|(_, k)| **k == array);
        let members: Vec<Ty> = members.map(|(m, _)| m.clone()).collect();
        let origin = Origin {
            implied: members.clone(),
            ..origin.clone()
        };
        intersection(members, origin)
    };
    Some(union(vec![of(false), of(true)]))
}

/// `T & I`, with `T` (the one typed member, or an implied union) a union of
/// scalars, objects and arrays, and `I` implied members that bind one kind:
/// the choices of `T` not of that kind as they are, which `I` lets
/// through, or those of it together with `I`: `(null | {...}) & { x:
/// unknown }` is `null | ({...} & { x: unknown })`. When a choice of `T` of
/// another kind is one whose keywords imply its kind (recorded in
/// `origin`), `T` admits every value of this kind, so `I` stands alone for
/// them. Exact, where leaving `I` out would not be. `None` when `T` is not
/// such a union (written in place, or named by a reference).
fn distribute(
    members: &[Ty],
    at: usize,
    kind: (bool, bool),
    origin: &Origin,
    defs: &[Ty],
    copy_budget: &mut Option<usize>,
) -> Option<Ty> {
    let choices = match members.get(at)? {
        Ty::Union(choices) => choices.as_slice(),
        // A reference to a union with choices of the kind spreads as the
        // union would, so that the keys of the implied members stay
        // declared. (Without such choices, the reference alone says the
        // same and keeps its name.) A union whose choices hold such
        // intersections of their own is not copied, so that copies never
        // nest in copies (a chain of them would nest as deep as it is
        // long, and double at each link), nor past the budget for copies:
        // the reference stays and the keywords go, recorded.
        named @ Ty::Named(_) => {
            let choices = union_behind(named, defs)?;
            if !choices.iter().any(|c| value_kind_in(c, defs) == Some(kind))
                || choices.iter().any(has_implied)
            {
                return None;
            }
            // The copies of one walk stay within a few times the size of
            // the definitions they come from.
            let budget = copy_budget.get_or_insert_with(|| {
                let lowered = defs.iter().map(weight).fold(0, usize::saturating_add);
                INLINE_MIN.max(lowered.saturating_mul(4))
            });
            let mut size = 0usize;
            for choice in choices {
                size = size.saturating_add(weight_within(choice, budget.saturating_sub(size))?);
            }
            *budget -= size;
            choices
        }
        _ => return None,
    };
    let implied: HashSet<&Ty> = origin.implied.iter().collect();
    // The union keeps its order: the intersection stands where the first
    // choice of the kind stood.
    let mut out = Vec::with_capacity(choices.len());
    let mut bound = Vec::new();
    let mut first = None;
    let mut admits_all = false;
    for choice in choices {
        // A reference is of the kind its definition is; one to a union
        // might hold either.
        let of = value_kind_in(choice, defs)?;
        if of == kind {
            first.get_or_insert(out.len());
            bound.push(choice.clone());
        } else {
            admits_all |= of != (false, false) && implied.contains(choice);
            out.push(choice.clone());
        }
    }
    let rest = || {
        (members.iter().enumerate())
            .filter(|(i, _)| *i != at)
            .map(|(_, m)| m.clone())
    };
    let at_first = first.unwrap_or(out.len());
    if admits_all {
        // Every value of the kind passes `T`: what `I` admits of it.
        let parts: Vec<Ty> = rest().collect();
        let origin = Origin {
            implied: parts.clone(),
            ..origin.clone()
        };
        out.insert(at_first, intersection(parts, origin));
    } else if first.is_some() {
        // The members in their order, the union's choices of the kind in
        // the union's place.
        let mut bound = Some(union(bound));
        let parts: Vec<Ty> = (members.iter().enumerate())
            .map(|(i, m)| match bound.take_if(|_| i == at) {
                Some(bound) => bound,
                None => m.clone(),
            })
            .collect();
        let origin = Origin {
            implied: rest().collect(),
            ..origin.clone()
        };
        out.insert(at_first, intersection(parts, origin));
    }
    Some(union(out))
}

/// The type a reference names, through references to references (`defs`
/// as lowered, at most [`REF_HOPS`] of them); any other type itself.
fn behind_refs<'t>(mut ty: &'t Ty, defs: &'t [Ty]) -> Option<&'t Ty> {
    for _ in 0..REF_HOPS {
        match ty {
            Ty::Named(id) => ty = defs.get(*id)?,
            other => return Some(other),
        }
    }
    None
}

/// The choices of the union a reference names, through references to
/// references.
fn union_behind<'t>(ty: &'t Ty, defs: &'t [Ty]) -> Option<&'t [Ty]> {
    match behind_refs(ty, defs)? {
        Ty::Union(choices) => Some(choices),
        _ => None,
    }
}

/// The one kind, as (object, array), that every one of `members` binds;
/// `None` when they bind different kinds, or one binds both.
fn one_kind<'t>(mut members: impl Iterator<Item = &'t Ty>, defs: &[Ty]) -> Option<(bool, bool)> {
    let kind = bound_kinds(members.next()?, defs);
    (matches!(kind, (true, false) | (false, true)) && members.all(|m| bound_kinds(m, defs) == kind))
        .then_some(kind)
}

/// The unions among `members` (an intersection of implied members only)
/// that the rest could spread over, with the one kind the rest binds: the
/// rest must bind one kind, so at most two places qualify, or every union
/// when all members bind the same kind.
fn spread_candidates(members: &[Ty], defs: &[Ty]) -> Vec<(usize, (bool, bool))> {
    let class = |m: &Ty| match bound_kinds(m, defs) {
        (true, false) => 0,
        (false, true) => 1,
        _ => 2,
    };
    let mut count = [0usize; 3];
    for m in members {
        count[class(m)] += 1;
    }
    let kind_of = |class: usize| {
        if class == 0 {
            (true, false)
        } else {
            (false, true)
        }
    };
    let mut out = Vec::new();
    for (i, m) in members.iter().enumerate() {
        if !matches!(m, Ty::Union(_)) && union_behind(m, defs).is_none() {
            continue;
        }
        let own = class(m);
        // The kind of every other member, if they share one.
        let mut rest = count;
        rest[own] -= 1;
        let kind = match rest {
            [_, _, other] if other > 0 => None,
            [objects, 0, _] if objects > 0 => Some(kind_of(0)),
            [0, arrays, _] if arrays > 0 => Some(kind_of(1)),
            _ => None,
        };
        if let Some(kind) = kind {
            out.push((i, kind));
        }
    }
    out
}

/// Whether every value of `ty` is a value of `values` (`false` when it
/// cannot tell).
pub(super) fn covers(values: &Ty, ty: &Ty) -> bool {
    match (values, ty) {
        (Ty::Unknown, _) | (_, Ty::Never) => true,
        _ if values == ty => true,
        (_, Ty::Union(members)) => members.iter().all(|m| covers(values, m)),
        (Ty::Union(members), _) => members.iter().any(|m| covers(m, ty)),
        (Ty::Int, Ty::Lit(Lit::Num(n))) => n.is_i64() || n.is_u64(),
        (Ty::Num, Ty::Int | Ty::Lit(Lit::Num(_)))
        | (Ty::Str, Ty::Lit(Lit::Str(_)))
        | (Ty::Bool, Ty::Lit(Lit::Bool(_))) => true,
        _ => false,
    }
}

/// [`covers`] for many types against one `values`. Against a long union,
/// each type is looked up among the members instead of tried against each
/// in turn, so that many keys checked against a long enum stay linear.
pub(super) struct Cover<'t> {
    values: &'t Ty,
    /// A long union's members, and which of `int`, `number`, `string` and
    /// `boolean` are among them (each admits literals of its kind).
    members: Option<(HashSet<&'t Ty>, [bool; 4])>,
}

/// Members a union needs, and types to check against it, before [`Cover`]
/// looks them up in a set.
const COVER_SET_MIN: usize = 16;

impl<'t> Cover<'t> {
    /// For `uses` types to check against `values`: the set is made only
    /// when they are many.
    pub(super) fn new(values: &'t Ty, uses: usize) -> Self {
        let members = match values {
            Ty::Union(members)
                if members.len() > COVER_SET_MIN
                    && uses > COVER_SET_MIN
                    && !members
                        .iter()
                        .any(|m| matches!(m, Ty::Union(_) | Ty::Unknown)) =>
            {
                let has = |kind: &Ty| members.contains(kind);
                let scalars = [has(&Ty::Int), has(&Ty::Num), has(&Ty::Str), has(&Ty::Bool)];
                Some((members.iter().collect(), scalars))
            }
            _ => None,
        };
        Cover { values, members }
    }

    /// Whether every value of `ty` is a value of `values`, as [`covers`]
    /// says.
    pub(super) fn covers(&self, ty: &Ty) -> bool {
        let Some((members, [int, num, string, boolean])) = &self.members else {
            return covers(self.values, ty);
        };
        match ty {
            Ty::Never => true,
            Ty::Union(tys) => tys.iter().all(|t| self.covers(t)),
            _ if members.contains(ty) => true,
            Ty::Lit(Lit::Num(n)) => *num || (*int && (n.is_i64() || n.is_u64())),
            Ty::Int => *num,
            Ty::Lit(Lit::Str(_)) => *string,
            Ty::Lit(Lit::Bool(_)) => *boolean,
            _ => false,
        }
    }
}

/// What kind of value `ty` is, as (object, array): neither for a scalar;
/// for an intersection, the kind of a member that says. `None` when it
/// might be either (a reference, a union, anything).
fn value_kind(ty: &Ty) -> Option<(bool, bool)> {
    match ty {
        Ty::Null | Ty::Bool | Ty::Int | Ty::Num | Ty::Str | Ty::Lit(_) => Some((false, false)),
        Ty::Object(_) => Some((true, false)),
        Ty::Array(_) | Ty::Tuple(_) => Some((false, true)),
        Ty::Inter(members, _) => members
            .iter()
            .find_map(|m| value_kind(m).filter(|kind| *kind != (false, false))),
        _ => None,
    }
}

/// [`value_kind`], through references (`defs` as lowered): a definition
/// of one kind is of that kind, as [`Kinds`] reads it too.
fn value_kind_in(ty: &Ty, defs: &[Ty]) -> Option<(bool, bool)> {
    value_kind(behind_refs(ty, defs)?)
}

/// What the definitions admit, remembered per definition and kind, so
/// that a chain of definitions that refer to each other many ways is read
/// once per definition.
struct Kinds<'d> {
    defs: &'d [Ty],
    /// For each definition: whether it admits a value that is not an
    /// object (`[0]`) and not an array (`[1]`), once known.
    memo: Vec<[Option<bool>; 2]>,
}

impl Kinds<'_> {
    /// Whether `ty` admits a value that is not an array (`array`) or not
    /// an object (otherwise). A member an intersection's keywords implied
    /// lets every other kind through; an intersection admits another kind
    /// when each of its other members does (which can say yes too often,
    /// never no).
    fn admits_other(&mut self, ty: &Ty, array: bool) -> bool {
        match ty {
            Ty::Never => false,
            Ty::Array(_) | Ty::Tuple(_) => !array,
            Ty::Object(_) => array,
            Ty::Union(members) => members.iter().any(|m| self.admits_other(m, array)),
            Ty::Inter(members, origin) => {
                // A set, so that a wide allOf is read in linear time.
                let implied: HashSet<&Ty> = origin.implied.iter().collect();
                members
                    .iter()
                    .filter(|m| !implied.contains(m))
                    .all(|m| self.admits_other(m, array))
            }
            Ty::Named(id) => {
                let Some(slot) = self.memo.get(*id).map(|m| m[usize::from(array)]) else {
                    return false;
                };
                if let Some(known) = slot {
                    return known;
                }
                // A cycle adds nothing while the definition is read.
                self.memo[*id][usize::from(array)] = Some(false);
                let defs = self.defs;
                let admits = self.admits_other(&defs[*id], array);
                self.memo[*id][usize::from(array)] = Some(admits);
                admits
            }
            Ty::Unknown | Ty::Null | Ty::Bool | Ty::Int | Ty::Num | Ty::Str | Ty::Lit(_) => true,
        }
    }
}

/// How many alternatives `ty` stands for once intersections of unions are
/// multiplied out (saturating): a union adds its members', an intersection
/// multiplies them, a reference counts as its definition (memoized in
/// `memo`; `defs` may be empty once every definition is there).
fn alternatives(ty: &Ty, defs: &[Def], memo: &mut [Option<usize>], depth: usize) -> usize {
    // Deep nesting is cut short: it can only count too few.
    if depth > 64 {
        return 1;
    }
    match ty {
        Ty::Union(members) => members.iter().fold(0, |n: usize, m| {
            n.saturating_add(alternatives(m, defs, memo, depth + 1))
        }),
        Ty::Inter(members, _) => members.iter().fold(1, |n: usize, m| {
            n.saturating_mul(alternatives(m, defs, memo, depth + 1))
        }),
        Ty::Named(id) => match memo.get(*id).copied() {
            Some(Some(n)) => n,
            Some(None) => {
                // A cycle counts once until its count is known.
                memo[*id] = Some(1);
                let n = defs
                    .get(*id)
                    .map_or(1, |def| alternatives(&def.ty, defs, memo, depth + 1));
                memo[*id] = Some(n);
                n
            }
            None => 1,
        },
        _ => 1,
    }
}
