//! Hashes for the counts in [`super`]: every type of a tree hashed once,
//! and map keys that carry their hash.

use super::{Step, each_child};
use crate::schema::Ty;
use std::hash::{BuildHasher, Hash, Hasher};

/// The hashes of every type in one tree, in the order a walk meets them
/// when it enters each type before the types inside it, and those in turn
/// (as [`each_child`] gives them). Each type is hashed once, from the
/// hashes of the types inside it: hashing each afresh would walk its whole
/// subtree again for every object around it. Equal types hash equal, as
/// with their own `Hash`; the maps compare them whole on a match.
#[derive(Default)]
pub(super) struct TreeHashes {
    nodes: Vec<Hashed>,
}

#[derive(Clone, Copy, Default)]
struct Hashed {
    /// The type's hash.
    hash: u64,
    /// As a property's type: the hash of the type with the property's doc.
    described: u64,
    /// How many types its subtree holds, itself included.
    size: usize,
}

impl TreeHashes {
    /// Hashes the tree `ty`.
    pub(super) fn of(&mut self, ty: &Ty) {
        self.nodes.clear();
        self.fill(ty);
    }

    pub(super) fn hash(&self, at: usize) -> u64 {
        self.nodes[at].hash
    }

    pub(super) fn described(&self, at: usize) -> u64 {
        self.nodes[at].described
    }

    pub(super) fn size(&self, at: usize) -> usize {
        self.nodes[at].size
    }

    /// Calls `f` on each type directly inside `ty` (the type at `at`), with
    /// its place in the hashes and how it stands there.
    pub(super) fn each_child<'t>(
        &self,
        ty: &'t Ty,
        at: usize,
        f: &mut impl FnMut(&'t Ty, usize, Step<'t>),
    ) {
        let mut next = at + 1;
        each_child(ty, &mut |child, step| {
            let here = next;
            next += self.size(here);
            f(child, here, step);
        });
    }

    /// Hashes `ty` and the types inside it, and gives its hash.
    fn fill(&mut self, ty: &Ty) -> u64 {
        let at = self.nodes.len();
        self.nodes.push(Hashed::default());
        let mut state = foldhash::fast::FixedState::default().build_hasher();
        std::mem::discriminant(ty).hash(&mut state);
        match ty {
            Ty::Lit(lit) => lit.hash(&mut state),
            Ty::Named(id) => id.hash(&mut state),
            Ty::Tuple(tuple) => {
                (tuple.items.len(), tuple.required, tuple.rest.is_some()).hash(&mut state);
            }
            Ty::Object(obj) => {
                obj.props.len().hash(&mut state);
                std::mem::discriminant(&obj.extra).hash(&mut state);
            }
            Ty::Union(members) | Ty::Inter(members, _) => members.len().hash(&mut state),
            Ty::Unknown
            | Ty::Never
            | Ty::Null
            | Ty::Bool
            | Ty::Int
            | Ty::Num
            | Ty::Str
            | Ty::Array(_) => {}
        }
        each_child(ty, &mut |child, step| {
            let here = self.nodes.len();
            let hash = self.fill(child);
            if let Step::Property(prop) = step {
                let doc = foldhash::fast::FixedState::default().hash_one(&prop.doc);
                (&prop.name, prop.required, doc).hash(&mut state);
                self.nodes[here].described =
                    foldhash::fast::FixedState::default().hash_one((hash, doc));
            }
            state.write_u64(hash);
        });
        let hash = state.finish();
        self.nodes[at] = Hashed {
            hash,
            described: 0,
            size: self.nodes.len() - at,
        };
        hash
    }
}

/// A map key with its hash (from [`TreeHashes`]). Hashing a type walks its
/// whole subtree, and a growing map rehashes every key it holds: with the
/// hash kept beside the key, growing costs no walk.
pub(super) struct Keyed<K> {
    pub(super) hash: u64,
    pub(super) key: K,
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
