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
///
/// Hashes made [`for_descriptions`](Self::for_descriptions) hold, for a
/// property's type, the type hashed together with the property's doc
/// instead ([`described`](Self::described)), which is all the alias count
/// asks of them: one slot per type keeps the hashes of a long list small.
#[derive(Default)]
pub(super) struct TreeHashes {
    nodes: Vec<Hashed>,
    descriptions: bool,
}

#[derive(Clone, Copy, Default)]
struct Hashed {
    /// The type's hash, or, as a property's type in hashes made for
    /// descriptions, the hash of the type with the property's doc.
    hash: u64,
    /// How many types its subtree holds, itself included.
    size: u32,
}

impl TreeHashes {
    /// Hashes that hold each property's type hashed with its doc.
    pub(super) fn for_descriptions() -> TreeHashes {
        TreeHashes {
            nodes: Vec::new(),
            descriptions: true,
        }
    }

    /// Forgets every tree, keeping the room they took and the kind of
    /// hashes the next ones get.
    pub(super) fn clear_keeping_kind(&mut self) {
        self.nodes.clear();
    }

    /// How many types the trees held hold in all.
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Writes the trees of `from` over those held from `at` on, and gives
    /// whether they fit before `end` (nothing is written if not). A tree's
    /// places are relative to its own start, so it reads the same there.
    pub(super) fn write_at(&mut self, at: usize, end: usize, from: &TreeHashes) -> bool {
        let room = at.checked_add(from.nodes.len()).filter(|&stop| stop <= end);
        match room.and_then(|stop| self.nodes.get_mut(at..stop)) {
            Some(room) => {
                room.copy_from_slice(&from.nodes);
                true
            }
            None => false,
        }
    }

    /// Keeps the first `len` types' hashes, now of the kind `like`'s are.
    pub(super) fn truncate_like(&mut self, len: usize, like: &TreeHashes) {
        self.nodes.truncate(len);
        self.descriptions = like.descriptions;
    }

    /// A copy of the first `len` types' hashes, of the kind `like`'s are.
    pub(super) fn first_of(&self, len: usize, like: &TreeHashes) -> TreeHashes {
        TreeHashes {
            nodes: self.nodes[..len.min(self.nodes.len())].to_vec(),
            descriptions: like.descriptions,
        }
    }

    /// These hashes, then the trees of `from`.
    pub(super) fn with(mut self, from: &TreeHashes) -> TreeHashes {
        self.append_all(from);
        self
    }

    /// Appends the trees of `from`.
    pub(super) fn append_all(&mut self, from: &TreeHashes) {
        self.nodes.extend_from_slice(&from.nodes);
    }

    /// Hashes the tree `ty`.
    pub(super) fn of(&mut self, ty: &Ty) {
        self.nodes.clear();
        self.fill(ty);
    }

    /// Hashes the tree `ty` after those already held, and gives its place.
    pub(super) fn append(&mut self, ty: &Ty) -> usize {
        let at = self.nodes.len();
        self.fill(ty);
        at
    }

    /// The hash of the type at `at`.
    pub(super) fn hash(&self, at: usize) -> u64 {
        debug_assert!(!self.descriptions);
        self.nodes[at].hash
    }

    /// The hash of the property type at `at` with the property's doc, in
    /// hashes made for descriptions.
    pub(super) fn described(&self, at: usize) -> u64 {
        debug_assert!(self.descriptions);
        self.nodes[at].hash
    }

    /// How many types the subtree at `at` holds, itself included.
    pub(super) fn size(&self, at: usize) -> usize {
        self.nodes[at].size as usize
    }

    /// [`each_child`](Self::each_child) for a tree being changed: `f` may
    /// replace a child, whose place stays that of the child hashed.
    pub(super) fn each_child_mut(
        &self,
        ty: &mut Ty,
        at: usize,
        f: &mut impl FnMut(&mut Ty, usize, Option<&mut super::Doc>),
    ) {
        let mut next = at + 1;
        super::each_child_doc_mut(ty, &mut |child, doc| {
            let here = next;
            next += self.size(here);
            f(child, here, doc);
        });
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
                if self.descriptions {
                    self.nodes[here].hash =
                        foldhash::fast::FixedState::default().hash_one((hash, doc));
                }
            }
            state.write_u64(hash);
        });
        let hash = state.finish();
        // A tree of more than 2^32 types would not fit in memory as `Ty`s.
        let size = u32::try_from(self.nodes.len() - at).unwrap_or(u32::MAX);
        // A property's type gets its described hash from the type around
        // it, after this.
        self.nodes[at] = Hashed { hash, size };
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
