//! Identities of `$ref` targets: two definitions share one name exactly when
//! they sit at the same pointer and everything they reach is the same.
//!
//! The cost must stay linear in the input whatever a (possibly hostile)
//! schema does. So nothing here prints or compares whole closures:
//! - every JSON node is hashed once per document, bottom-up (a Merkle hash of
//!   its canonical form: keys sorted);
//! - the `$ref` graph is cut into strongly connected components (iterative
//!   Tarjan). A component's identity hashes its members' pointers and
//!   contents and the identities of the components it reaches, which are
//!   final by then. A recursive type is one component; a chain of a thousand
//!   definitions is a thousand components, each hashed once.
//! - Finding the references inside each target scans its subtree. Nested
//!   targets can make those scans overlap, so a document has a budget of
//!   scanned nodes; past it, its definitions are identified by the whole
//!   document instead, which only shares them less.

use super::keywords::Dialect;
use super::pointer::{local_pointer, on_the_way_to};
use crate::json::Json;
use foldhash::{HashMap, HashMapExt};
use sha2::{Digest, Sha256};

type Hash = [u8; 32];

/// Scanned nodes a document may spend on finding references before its
/// definitions fall back to being identified by the whole document.
const SCAN_BUDGET: usize = 1 << 21;

/// Identities for every document seen in one lowering, keyed by the root's
/// address (documents outlive the walk, so addresses are stable).
#[derive(Default)]
pub(super) struct Identities<'v> {
    docs: HashMap<usize, Document<'v>>,
}

impl<'v> Identities<'v> {
    /// Forgets every document seen, keeping the room they took: a walk
    /// calls it between tools, whose schemas are documents of their own.
    pub(super) fn forget_documents(&mut self) {
        self.docs.clear();
    }

    /// The identity of the definition at `pointer` in `root`, in hex: a
    /// hash of everything it reaches (its pointer included).
    pub(super) fn hash(&mut self, root: &'v Json<'v>, pointer: &str) -> String {
        let doc = self
            .docs
            .entry(root as *const Json as usize)
            .or_insert_with(|| Document::new(root));
        let hash = doc.identity(pointer);
        let mut hex = String::with_capacity(64);
        push_hex(&mut hex, &hash);
        hex
    }
}

struct Document<'v> {
    root: &'v Json<'v>,
    /// Subtree hashes, by node address.
    hashes: HashMap<usize, Hash>,
    /// Final identities, by pointer.
    ids: HashMap<String, Hash>,
    scanned: usize,
    /// The document's dialect: a keyword it lacks is not read, and before
    /// draft 2019-09 a `$ref` is read alone, its siblings left out.
    dialect: Dialect,
}

/// One definition on Tarjan's walk.
struct Visit {
    pointer: String,
    target: Option<usize>,
    succ: Vec<String>,
    /// Whether the target holds a `$ref` with keywords beside it.
    siblings: bool,
    next: usize,
    index: usize,
    low: usize,
    on_stack: bool,
}

impl<'v> Document<'v> {
    fn new(root: &'v Json<'v>) -> Self {
        Document {
            root,
            hashes: HashMap::new(),
            ids: HashMap::new(),
            scanned: 0,
            dialect: Dialect::of(root),
        }
    }

    fn identity(&mut self, pointer: &str) -> Hash {
        if let Some(id) = self.ids.get(pointer) {
            return *id;
        }
        if self.scanned > SCAN_BUDGET {
            return self.whole_document(pointer);
        }
        self.tarjan(pointer);
        match self.ids.get(pointer) {
            Some(id) if self.scanned <= SCAN_BUDGET => *id,
            _ => self.whole_document(pointer),
        }
    }

    /// The fallback identity: the pointer and the whole document.
    fn whole_document(&mut self, pointer: &str) -> Hash {
        let root = self.root;
        let doc = self.subtree_hash(root);
        let mut h = Sha256::new();
        h.update(b"whole\0");
        h.update(pointer.as_bytes());
        h.update([0]);
        h.update(doc);
        h.finalize().into()
    }

    fn tarjan(&mut self, start: &str) {
        let mut visits: Vec<Visit> = Vec::new();
        let mut index_of: HashMap<String, usize> = HashMap::new();
        let mut stack: Vec<usize> = Vec::new();
        let mut calls: Vec<usize> = Vec::new();
        let first = self.visit(start.to_owned(), &mut visits, &mut index_of, &mut stack);
        calls.push(first);
        while let Some(&v) = calls.last() {
            if self.scanned > SCAN_BUDGET {
                return;
            }
            if visits[v].next < visits[v].succ.len() {
                let w = visits[v].succ[visits[v].next].clone();
                visits[v].next += 1;
                if self.ids.contains_key(&w) {
                    continue;
                }
                match index_of.get(&w) {
                    None => {
                        let w = self.visit(w, &mut visits, &mut index_of, &mut stack);
                        calls.push(w);
                    }
                    Some(&w) if visits[w].on_stack => {
                        visits[v].low = visits[v].low.min(visits[w].index);
                    }
                    Some(_) => {}
                }
                continue;
            }
            calls.pop();
            if let Some(&parent) = calls.last() {
                visits[parent].low = visits[parent].low.min(visits[v].low);
            }
            if visits[v].low == visits[v].index {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    visits[w].on_stack = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                self.settle(&visits, &members);
            }
        }
    }

    fn visit(
        &mut self,
        pointer: String,
        visits: &mut Vec<Visit>,
        index_of: &mut HashMap<String, usize>,
        stack: &mut Vec<usize>,
    ) -> usize {
        let root = self.root;
        let target = root.pointer(&pointer);
        let (succ, siblings) = target.map(|t| self.refs_in(t)).unwrap_or_default();
        let i = visits.len();
        visits.push(Visit {
            pointer: pointer.clone(),
            target: target.map(|t| t as *const Json as usize),
            succ,
            siblings,
            next: 0,
            index: i,
            low: i,
            on_stack: true,
        });
        if let Some(t) = target {
            self.subtree_hash(t);
        }
        index_of.insert(pointer, i);
        stack.push(i);
        i
    }

    /// Gives every member of one component its identity.
    fn settle(&mut self, visits: &[Visit], members: &[usize]) {
        let root = self.root;
        let mut own: Vec<(&str, Option<Hash>, bool)> = members
            .iter()
            .map(|&m| {
                let hash = visits[m].target.and_then(|t| self.hashes.get(&t).copied());
                let pointer = visits[m].pointer.as_str();
                // A base named above the definition makes its references
                // resolve elsewhere (lowering leaves them out), which its
                // own text does not show.
                (pointer, hash, on_the_way_to(root, pointer))
            })
            .collect();
        own.sort();
        let mut reached: Vec<Hash> = members
            .iter()
            .flat_map(|&m| visits[m].succ.iter())
            .filter_map(|w| self.ids.get(w).copied())
            .collect();
        reached.sort_unstable();
        reached.dedup();
        let mut h = Sha256::new();
        for (pointer, content, under_a_base) in &own {
            h.update(pointer.as_bytes());
            h.update([0]);
            match content {
                Some(content) => h.update(content),
                None => h.update(b"-"),
            }
            if *under_a_base {
                h.update(b"\x03under a base of its own");
            }
        }
        h.update(b"\x01");
        for id in &reached {
            h.update(id);
        }
        // The same text reads as another type in a dialect that leaves the
        // keywords beside a `$ref` out; where that makes a difference, the
        // definitions are two.
        if !self.dialect.reads_ref_siblings() && members.iter().any(|&m| visits[m].siblings) {
            h.update(b"\x02a $ref read alone");
        }
        let component: Hash = h.finalize().into();
        for (pointer, _, _) in own {
            let mut h = Sha256::new();
            h.update(pointer.as_bytes());
            h.update([0]);
            h.update(component);
            self.ids.insert(pointer.to_owned(), h.finalize().into());
        }
    }

    /// The local references anywhere inside `node`, sorted and unique, and
    /// whether any `$ref` there has keywords beside it.
    fn refs_in(&mut self, node: &Json<'_>) -> (Vec<String>, bool) {
        let mut out = Vec::new();
        let mut siblings = false;
        let mut todo = vec![node];
        while let Some(node) = todo.pop() {
            self.scanned += 1;
            match *node {
                Json::Object(map) => {
                    if let Some(Json::String(r)) = map.get("$ref")
                        && let Some(pointer) = local_pointer(r)
                    {
                        out.push(pointer);
                    }
                    siblings |= super::keywords::beside_a_reference(map);
                    todo.extend(map.iter().map(|(_, v)| v));
                }
                Json::Array(items) => todo.extend(items),
                _ => {}
            }
        }
        out.sort_unstable();
        out.dedup();
        (out, siblings)
    }

    /// The Merkle hash of `node`'s canonical form, computed without recursion
    /// and at most once per node.
    fn subtree_hash(&mut self, node: &Json<'_>) -> Hash {
        let addr = |v: &Json<'_>| v as *const Json as usize;
        if let Some(h) = self.hashes.get(&addr(node)) {
            return *h;
        }
        // (node, children pushed?)
        let mut todo: Vec<(&Json<'_>, bool)> = vec![(node, false)];
        while let Some((v, expanded)) = todo.pop() {
            if self.hashes.contains_key(&addr(v)) {
                continue;
            }
            let children: Vec<&Json<'_>> = match *v {
                Json::Array(items) => items.iter().collect(),
                Json::Object(map) => map.iter().map(|(_, v)| v).collect(),
                _ => Vec::new(),
            };
            if !expanded && !children.is_empty() {
                todo.push((v, true));
                todo.extend(
                    children
                        .into_iter()
                        .filter(|c| !self.hashes.contains_key(&addr(c)))
                        .map(|c| (c, false)),
                );
                continue;
            }
            let mut h = Sha256::new();
            match *v {
                Json::Null => h.update(b"z"),
                Json::Bool(b) => h.update(if b { b"t" } else { b"f" }),
                Json::Number(n) => {
                    h.update(b"n");
                    h.update(n.number().to_string().as_bytes());
                }
                Json::String(s) => {
                    h.update(b"s");
                    h.update(s.as_bytes());
                }
                Json::Array(items) => {
                    h.update(b"a");
                    for item in items {
                        h.update(self.hashes.get(&addr(item)).copied().unwrap_or_default());
                    }
                }
                Json::Object(map) => {
                    h.update(b"o");
                    // Entries are kept sorted by key.
                    for (k, child) in map.iter() {
                        // A keyword the dialect lacks is not read there
                        // (and `dependencies` is read only there): the
                        // same text is another type in another dialect.
                        if self.dialect.reads_otherwise(k) {
                            h.update(b"\x04not a keyword here");
                        }
                        h.update((k.len() as u64).to_le_bytes());
                        h.update(k.as_bytes());
                        match (k, child) {
                            // `required` is a set: its order says nothing,
                            // so two definitions that list it in another
                            // order are one.
                            ("required", Json::Array(items)) => {
                                let mut each: Vec<Hash> = items
                                    .iter()
                                    .map(|item| {
                                        self.hashes.get(&addr(item)).copied().unwrap_or_default()
                                    })
                                    .collect();
                                each.sort_unstable();
                                h.update(b"r");
                                for item in each {
                                    h.update(item);
                                }
                            }
                            _ => {
                                h.update(self.hashes.get(&addr(child)).copied().unwrap_or_default())
                            }
                        }
                    }
                }
            }
            self.hashes.insert(addr(v), h.finalize().into());
        }
        self.hashes.get(&addr(node)).copied().unwrap_or_default()
    }
}

fn push_hex(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
}
