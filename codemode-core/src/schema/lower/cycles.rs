//! Alias cycles: a definition that must be resolved before itself cannot be
//! written as a type alias, so the reference that closes such a loop is cut.

use super::{Def, Degradation};
use crate::schema::ir::{Ty, intersection, union};

/// A definition that refers to itself where its alias must already be known
/// cannot be written as a type alias: at its top level through unions or
/// intersections (in either language), or, in TypeScript, through a tuple
/// that the checker does not defer (see [`eager`]; a tuple that TypeScript
/// prints as a union of its lengths is judged as that union). Each reference that
/// closes such a loop becomes the escape hatch, in both SDKs alike.
pub(super) fn break_alias_cycles(defs: &mut [Def], degradations: &mut Vec<Degradation>) {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; defs.len()];
    for start in 0..defs.len() {
        if state[start] != NEW {
            continue;
        }
        // Iterative depth-first search over eagerly resolved references.
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(start, eager_refs(&mut defs[start].ty))];
        state[start] = OPEN;
        while let Some((node, edges)) = stack.last_mut() {
            let node = *node;
            match edges.pop() {
                Some(next) if state[next] == OPEN => {
                    cut_eager_ref(&mut defs[node].ty, next);
                    degradations.push(Degradation {
                        tool: defs[node].tool.clone(),
                        pointer: defs[node].pointer.clone(),
                        reason: format!(
                            "definition {:?} refers to itself where its type alias \
                             would have to be resolved first (through unions, \
                             intersections or tuples only)",
                            defs[node].base
                        ),
                    });
                    // The cut may have let TypeScript defer what was eager.
                    *edges = eager_refs(&mut defs[node].ty);
                }
                Some(next) if state[next] == NEW => {
                    state[next] = OPEN;
                    let edges = eager_refs(&mut defs[next].ty);
                    stack.push((next, edges));
                }
                Some(_) => {}
                None => {
                    state[node] = DONE;
                    stack.pop();
                }
            }
        }
    }
}

/// Points every definition that is only another's name at the end of its
/// chain: `D0 = D1`, `D1 = D2`, `D2 = string` become `D0 = D2` and
/// `D1 = D2`. The types are the same, but a checker resolves such a chain
/// one link at a time (mypy gives up after 20 links written before their
/// targets, tsc and pyright overflow their stacks on a few thousand).
/// Run after [`break_alias_cycles`], so no chain of names is a loop; a
/// loop is left as it is all the same. Each definition it points past a
/// link keeps that link in [`Def::named`]. Gives how many links it
/// followed, at most one per definition.
pub(super) fn shorten_alias_chains(defs: &mut [Def]) -> usize {
    /// What a definition that only names another becomes.
    #[derive(Clone, Copy, PartialEq)]
    enum End {
        /// Not walked yet.
        Unknown,
        /// On the chain being walked.
        Walking,
        /// The name of this definition, the end of its chain.
        To(usize),
        /// Left as it is: its chain is a loop, which no end closes.
        Keep,
    }
    // A chain is walked once, and every definition on it learns its end,
    // so the whole is linear.
    let mut ends = vec![End::Unknown; defs.len()];
    let mut chain = Vec::new();
    let mut followed = 0;
    for start in 0..defs.len() {
        if ends[start] != End::Unknown || !matches!(defs[start].ty, Ty::Named(_)) {
            continue;
        }
        chain.clear();
        let mut at = start;
        let end = loop {
            match (ends.get(at), defs.get(at).map(|def| &def.ty)) {
                (Some(End::To(end)), _) => break End::To(*end),
                (Some(End::Keep | End::Walking), _) => break End::Keep,
                (Some(End::Unknown), Some(Ty::Named(next))) => {
                    followed += 1;
                    ends[at] = End::Walking;
                    chain.push(at);
                    at = *next;
                }
                // Not a name (or no such definition): the chain ends here.
                _ => break End::To(at),
            }
        };
        for &link in &chain {
            ends[link] = end;
        }
    }
    for (def, end) in defs.iter_mut().zip(ends) {
        if let End::To(end) = end
            && let Ty::Named(next) = def.ty
            && next != end
        {
            // The first link it named, if an earlier pass shortened it.
            def.named.get_or_insert(next);
            def.ty = Ty::Named(end);
        }
    }
    followed
}

/// The definitions a definition's alias needs resolved before it is, in
/// reverse order (the search pops from the end).
fn eager_refs(ty: &mut Ty) -> Vec<usize> {
    let mut out = Vec::new();
    eager(ty, Resolve::Body, &mut |ty, _| {
        if let Ty::Named(id) = ty {
            out.push(*id);
        }
        false
    });
    out.sort_unstable();
    out.dedup();
    out.reverse();
    out
}

/// Replaces the eager references to `target` in a definition's body with
/// the escape hatch: first those outside tuples' optional and rest elements
/// (taking one out of a union or intersection can let TypeScript defer the
/// tuples around the others), then, if one is still eager, the rest.
fn cut_eager_ref(ty: &mut Ty, target: usize) {
    for inner in [false, true] {
        eager(ty, Resolve::Body, &mut |ty, at| {
            let hit = *ty == Ty::Named(target) && (at == Resolve::Free) == inner;
            if hit {
                *ty = Ty::Unknown;
            }
            hit
        });
        if !eager_refs(ty).contains(&target) {
            return;
        }
    }
}

/// Where a type sits in a TypeScript type alias's body, as the checker sees
/// it when it decides whether to defer an array or tuple type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Resolve {
    /// The alias's body itself: an array or tuple here is always deferred.
    Body,
    /// Reached from the body through unions, intersections, arrays and
    /// tuples' required elements: an array or tuple here is deferred when an
    /// element may name an alias.
    ByAlias,
    /// Below a tuple's optional or rest element: never deferred.
    Free,
}

/// Calls `visit` on each reference that TypeScript resolves while it
/// resolves the alias whose body is `ty` (`at` is [`Resolve::Body`] there).
/// Object types are resolved lazily, so nothing inside one counts; nor does
/// anything inside an array or tuple the checker defers (it defers one when
/// an element may name an alias, unless the array or tuple sits below a
/// tuple's `?` or `...`; a tuple printed as a union of its lengths is a
/// union of tuples with no `?`). `visit` returns whether it changed the type; a
/// union or intersection around a change is built again.
fn eager(ty: &mut Ty, at: Resolve, visit: &mut dyn FnMut(&mut Ty, Resolve) -> bool) -> bool {
    let inner = if at == Resolve::Free {
        Resolve::Free
    } else {
        Resolve::ByAlias
    };
    match ty {
        Ty::Named(_) => visit(ty, at),
        Ty::Union(members) | Ty::Inter(members, _) => {
            let mut changed = false;
            for member in members.iter_mut() {
                changed |= eager(member, inner, visit);
            }
            if changed {
                *ty = match std::mem::replace(ty, Ty::Unknown) {
                    Ty::Union(members) => union(members),
                    Ty::Inter(members, origin) => intersection(members, *origin),
                    other => other,
                };
            }
            changed
        }
        Ty::Array(item) => {
            let deferred = at == Resolve::Body || at == Resolve::ByAlias && may_name_alias(item);
            !deferred && eager(item, inner, visit)
        }
        // Printed as a union of tuples, one per length, in which every
        // element is required: each member is deferred, or not, on its own.
        Ty::Tuple(tuple) if at != Resolve::Free && tuple.lengths(false).is_some() => {
            let mut changed = false;
            for length in tuple.lengths(false).into_iter().flatten() {
                let items = &mut tuple.items[..length];
                if !items.iter().any(may_name_alias) {
                    for item in items {
                        changed |= eager(item, Resolve::ByAlias, visit);
                    }
                }
            }
            changed
        }
        Ty::Tuple(tuple) => {
            let deferred = at == Resolve::Body
                || at == Resolve::ByAlias
                    && tuple
                        .items
                        .iter()
                        .chain(tuple.rest.as_deref())
                        .any(may_name_alias);
            if deferred {
                return false;
            }
            let mut changed = false;
            for (i, item) in tuple.items.iter_mut().enumerate() {
                let at = if i < tuple.required {
                    inner
                } else {
                    Resolve::Free
                };
                changed |= eager(item, at, visit);
            }
            if let Some(rest) = &mut tuple.rest {
                changed |= eager(rest, Resolve::Free, visit);
            }
            changed
        }
        _ => false,
    }
}

/// Whether a type, as an element, may name a type alias: a reference, or a
/// union or intersection holding one (TypeScript does not look into arrays,
/// tuples or objects here).
fn may_name_alias(ty: &Ty) -> bool {
    match ty {
        Ty::Named(_) => true,
        Ty::Union(members) | Ty::Inter(members, _) => members.iter().any(may_name_alias),
        _ => false,
    }
}
