//! How far an expression with its definitions spelled out in place may
//! expand ([`crate::json_schema_to_type`] prints one type with no names).

use crate::schema::{Def, Ty, each_child};

/// How many definitions deep an expansion may nest; deeper (and any
/// definition inside itself) is the escape hatch.
const MAX_DEPTH: usize = 4;

/// Types that the expansions of one expression may spell out in all. A
/// schema that uses each definition k times, three levels down, would
/// otherwise print k³ copies: one of 15 KB came to 3.8 GB of TypeScript.
const MAX_SPELLED: usize = 1 << 16;

/// The definitions being spelled out now, and what is left to spell.
pub(crate) struct Inlining {
    /// Each definition's size, in types.
    sizes: Vec<usize>,
    left: usize,
    stack: Vec<usize>,
}

impl Inlining {
    pub(crate) fn new(defs: &[Def]) -> Self {
        Inlining {
            sizes: defs.iter().map(|def| size(&def.ty)).collect(),
            left: MAX_SPELLED,
            stack: Vec::new(),
        }
    }

    /// Whether definition `id` may be spelled out here: not inside itself,
    /// not past [`MAX_DEPTH`], and within what is left. If so, it is
    /// entered, and [`leave`](Inlining::leave) must follow.
    pub(crate) fn enter(&mut self, id: usize) -> bool {
        let size = self.sizes.get(id).copied().unwrap_or(usize::MAX);
        if self.stack.contains(&id) || self.stack.len() >= MAX_DEPTH || size > self.left {
            return false;
        }
        self.left -= size;
        self.stack.push(id);
        true
    }

    pub(crate) fn leave(&mut self) {
        self.stack.pop();
    }
}

/// How many types `ty` holds, itself included. (The lowering bounds how
/// deep types nest, so this recursion is bounded too.)
fn size(ty: &Ty) -> usize {
    let mut count = 1;
    each_child(ty, &mut |child, _| count += size(child));
    count
}
