//! Which classes and aliases the arguments read covariantly ([`Reading`]),
//! and the argument types rewritten to say so.
//!
//! A node is a class or an alias (a definition that is a class is that
//! class's node). A node a result reaches keeps its exact types: they are
//! what a program holds. Of the others, every class is read-only (its
//! fields would otherwise be invariant, and a result's object whose field
//! is narrower would not fit: an `int` where the class says `float`, a
//! literal where it says `str`, a key required where it is optional), and
//! an alias is when reading its body changes it (a `list[float]` becomes
//! `Sequence[float]`) or when it names a read-only node. One exception
//! keeps a node exact: a
//! `list` whose items may be strings stays a `list` (as a `Sequence`, a lone
//! string would pass), and a `list` of a read-only node would refuse a
//! result's list of its exact twin; so a node such a list holds, and all
//! that node holds, stay exact.

use super::convert::{Args, Class, DefKind, Py, Reading, marked_along, node_of};

/// Reads every argument type ([`Py::for_reading`]), and rewrites the
/// read-only nodes: every field of a read-only class is marked `ReadOnly`
/// and read, and so are aliases' bodies.
pub(super) fn read_arguments(
    classes: &mut [Class<'_>],
    def_kinds: &mut [DefKind],
    signatures: &mut [(Args<'_>, Py)],
) {
    let count = classes.len();
    let reading = read_only_nodes(classes, def_kinds, signatures);
    for (args, _) in signatures.iter_mut() {
        let plain = Args::Dict {
            ty: Py::Any,
            optional: false,
        };
        *args = std::mem::replace(args, plain).for_reading(&reading);
    }
    for (c, class) in classes.iter_mut().enumerate() {
        if !reading.node_read_only(c) {
            continue;
        }
        // Every field: a read-only one is covariant, and also takes a key
        // the result's object has as required where the argument leaves it
        // optional.
        for field in &mut class.fields {
            field.read_only = true;
            field.ty = std::mem::replace(&mut field.ty, Py::Any).for_reading(&reading);
        }
    }
    let bodies: Vec<(usize, Py)> = def_kinds
        .iter()
        .enumerate()
        .filter(|&(id, _)| reading.node_read_only(count + id))
        .filter_map(|(id, kind)| match kind {
            DefKind::Alias(body) => Some((id, body.clone().for_reading(&reading))),
            DefKind::Class(_) => None,
        })
        .collect();
    drop(reading);
    for (id, body) in bodies {
        def_kinds[id] = DefKind::Alias(body);
    }
}

/// Whether `py` names a read-only node (outside other nodes).
fn holds_read_only(py: &Py, reading: &Reading) -> bool {
    let mut found = false;
    each_node(py, &mut |node| found |= reading.is_read_only(node));
    found
}

/// Calls `f` on every class and definition `py` names, not looking inside
/// them.
fn each_node<'p>(py: &'p Py, f: &mut impl FnMut(&'p Py)) {
    each_part(py, &mut |part| {
        if let Py::Class(_) | Py::Def(_) = part {
            f(part);
        }
    });
}

/// Calls `f` on `py` and every type inside it, not looking inside classes
/// and definitions.
fn each_part<'p>(py: &'p Py, f: &mut impl FnMut(&'p Py)) {
    let mut todo = vec![py];
    while let Some(py) = todo.pop() {
        f(py);
        todo.extend(py.parts());
    }
}

/// Calls `f` on each type node `at` holds: a class's fields, an alias's
/// body.
fn each_held<'p>(
    at: usize,
    classes: &'p [Class<'_>],
    def_kinds: &'p [DefKind],
    f: &mut impl FnMut(&'p Py),
) {
    match at.checked_sub(classes.len()) {
        None => classes[at].fields.iter().for_each(|field| f(&field.ty)),
        Some(id) => {
            if let Some(DefKind::Alias(body)) = def_kinds.get(id) {
                f(body);
            }
        }
    }
}

/// The reading with the read-only nodes marked (see the module's doc).
fn read_only_nodes<'k>(
    classes: &[Class<'_>],
    def_kinds: &'k [DefKind],
    signatures: &[(Args<'_>, Py)],
) -> Reading<'k> {
    let n = classes.len() + def_kinds.len();
    let node = |py: &Py| node_of(py, classes.len(), def_kinds);
    // The nodes held by the nodes in `todo`, and so on, each marked once.
    let spread = |mut todo: Vec<usize>, marked: &mut Vec<bool>| {
        while let Some(at) = todo.pop() {
            if std::mem::replace(&mut marked[at], true) {
                continue;
            }
            each_held(at, classes, def_kinds, &mut |ty| {
                each_node(ty, &mut |py| todo.extend(node(py)))
            });
        }
    };
    let mut reached = vec![false; n];
    let mut outputs = Vec::new();
    for (_, output) in signatures {
        each_node(output, &mut |py| outputs.extend(node(py)));
    }
    spread(outputs, &mut reached);

    // Who holds each node no result reaches, and which change when read
    // alone.
    let plain = Reading::plain(def_kinds);
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut seeds: Vec<usize> = Vec::new();
    for at in (0..n).filter(|&at| !reached[at]) {
        let mut changes = false;
        each_held(at, classes, def_kinds, &mut |ty| {
            each_node(ty, &mut |py| {
                if let Some(held) = node(py) {
                    holders[held].push(at);
                }
            });
            changes |= plain.changes(ty);
        });
        // Every class: its fields are invariant unless read-only, so a
        // result's object whose field is narrower (an `int` where the class
        // says `float`, a key required where it is optional, an object
        // with a key more) would not fit.
        if changes || at < classes.len() {
            seeds.push(at);
        }
    }
    if seeds.is_empty() {
        return plain;
    }
    let first = marked_along(seeds.clone(), &holders, &vec![false; n]);

    // The lists that stay lists but hold a read-only node.
    let first_reading = plain.with(first, classes.len());
    let mut pinned: Vec<usize> = Vec::new();
    let mut pin = |ty: &Py| {
        each_part(ty, &mut |part| {
            if let Py::List(item) = part
                && first_reading.admits_str(item)
                && holds_read_only(item, &first_reading)
            {
                each_node(item, &mut |py| pinned.extend(node(py)));
            }
        })
    };
    for (args, _) in signatures {
        match args {
            Args::Keywords { params, rest } => {
                params.iter().for_each(|p| pin(&p.ty));
                rest.iter().for_each(&mut pin);
            }
            Args::Dict { ty, .. } => pin(ty),
        }
    }
    for at in (0..n).filter(|&at| !reached[at]) {
        each_held(at, classes, def_kinds, &mut pin);
    }
    if pinned.is_empty() {
        return first_reading;
    }
    let mut exact = vec![false; n];
    spread(pinned, &mut exact);
    first_reading.with(marked_along(seeds, &holders, &exact), classes.len())
}
