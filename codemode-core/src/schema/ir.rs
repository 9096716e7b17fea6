//! The language-neutral type IR that both printers read.
//!
//! A schema is lowered once into these types; printers decide only how to
//! spell them. Unions and intersections are built through [`union`] and
//! [`intersection`], which keep them flat and free of redundant members.

use foldhash::{HashSet, HashSetExt};
use serde_json::Number;

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
    finish(flat, Ty::Unknown, |members| {
        Ty::Inter(members, Box::new(origin))
    })
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
        let mut seen = HashSet::with_capacity(members.len());
        for ty in members {
            if seen.insert(hash_of(&ty)) || !unique.contains(&ty) {
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

fn hash_of(ty: &Ty) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(ty)
}

#[cfg(test)]
mod tests {
    use super::*;

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
