//! IR to [`Py`] trees: every decision Python's type system forces is made
//! here, before anything is printed.

use crate::canonical::{json_string, python_string};
use crate::ident::pascal_case;
use crate::ident::python::is_keyword_param;
use crate::print::inline::Inlining;
use crate::schema::{
    Def, Degradation, Doc, Extra, Lit, Object, Origin, Prop, Tuple, Ty, for_report, weight_within,
};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// Most alternatives an `allOf` over unions may expand into before it
/// falls to the escape hatch.
pub(super) const MAX_MERGED_ALTERNATIVES: usize = 16;

/// How much `allOf` merges may copy in one render, in [`weight_within`] units: a
/// merged TypedDict repeats the properties of every part, their keys,
/// docs and types, so one large definition merged into many places would
/// make the stub grow with their product; past this budget each further
/// merge is the escape hatch.
pub(super) const MAX_MERGED: usize = 1 << 18;

/// A Python type expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Py {
    Any,
    Never,
    None,
    Bool,
    Int,
    Float,
    Str,
    /// `Literal[...]` of already-printed atoms.
    Literal(Vec<String>),
    List(Box<Py>),
    /// `tuple[A, B]`; empty is `tuple[()]`.
    Tuple(Vec<Py>),
    /// `tuple[T, ...]`.
    TupleOf(Box<Py>),
    /// `dict[str, V]`.
    Dict(Box<Py>),
    /// `Sequence[T]`: a list a parameter only reads (see [`Py::for_reading`]).
    Seq(Box<Py>),
    /// `Mapping[str, V]`: a dict a parameter only reads.
    Map(Box<Py>),
    Union(Vec<Py>),
    /// A TypedDict made for a nested object, by index.
    Class(usize),
    /// A definition, by id (a class or an alias).
    Def(usize),
}

pub(super) enum DefKind {
    Class(usize),
    Alias(Py),
}

/// A TypedDict to print. Names and docs are borrowed from the IR.
#[derive(Debug, PartialEq)]
pub(super) struct Class<'a> {
    pub(super) base: String,
    pub(super) key: String,
    pub(super) fields: Vec<Field<'a>>,
    pub(super) doc: &'a Doc,
}

impl Class<'_> {
    /// Whether the class is a `$defs` definition's (its key starts `d:`),
    /// which keeps the definition's name.
    pub(super) fn is_definition(&self) -> bool {
        self.key.starts_with("d:")
    }
}

#[derive(Debug, PartialEq, Eq, Hash)]
pub(super) struct Field<'a> {
    pub(super) name: &'a str,
    pub(super) ty: Py,
    pub(super) required: bool,
    /// `ReadOnly[...]`: a field of a class the arguments read covariantly
    /// (see [`Reading`]).
    pub(super) read_only: bool,
    pub(super) doc: &'a Doc,
}

/// A property as a class lists it: one object's, or several merged.
#[derive(Clone, Copy)]
pub(super) struct PropView<'a> {
    name: &'a str,
    ty: &'a Ty,
    required: bool,
    doc: &'a Doc,
    /// Merged from parts that give it types with no common Python type.
    conflict: bool,
}

impl<'a> PropView<'a> {
    pub(super) fn of(prop: &'a Prop) -> Self {
        PropView {
            name: &prop.name,
            ty: &prop.ty,
            required: prop.required,
            doc: &prop.doc,
            conflict: false,
        }
    }
}

/// The doc of a class made for a nested object: none.
pub(super) static NO_DOC: Doc = Doc {
    text: None,
    notes: Vec::new(),
};

/// The type of a merged key whose parts disagree.
static UNKNOWN: Ty = Ty::Unknown;

pub(super) struct Method<'a> {
    pub(super) name: &'a str,
    /// The method's name, if the tool is one (its own name, or the alias
    /// of a name that cannot be a method); else it is reached by subscript.
    pub(super) method: Option<&'a str>,
    /// The docs of the definitions the keyword parameters were taken from
    /// (and of links a shortened chain skipped), when those definitions
    /// are not printed: their words go to the method, in the chain's order.
    pub(super) args_docs: Vec<&'a Doc>,
    pub(super) description: Option<&'a str>,
    pub(super) args: Args<'a>,
    pub(super) output: Py,
}

/// How a tool takes its arguments.
#[derive(Debug, PartialEq)]
pub(super) enum Args<'a> {
    /// One keyword parameter per property (`*, path: str, head: int = ...`),
    /// and `**name: V` when other keys take values of type `V`. Chosen when
    /// the tool is a method and its arguments are one object whose every
    /// key can be a parameter.
    Keywords {
        params: Vec<Field<'a>>,
        rest: Option<Py>,
    },
    /// One dict (`args: T`), which may be left out when `optional`.
    Dict { ty: Py, optional: bool },
}

impl Py {
    /// The types directly inside this one (not those of the classes and
    /// definitions it names).
    pub(super) fn parts(&self) -> &[Py] {
        match self {
            Py::List(inner)
            | Py::TupleOf(inner)
            | Py::Dict(inner)
            | Py::Seq(inner)
            | Py::Map(inner) => std::slice::from_ref(inner),
            Py::Tuple(items) | Py::Union(items) => items,
            Py::Any
            | Py::Never
            | Py::None
            | Py::Bool
            | Py::Int
            | Py::Float
            | Py::Str
            | Py::Literal(_)
            | Py::Class(_)
            | Py::Def(_) => &[],
        }
    }

    /// [`Py::parts`], to change.
    pub(super) fn parts_mut(&mut self) -> &mut [Py] {
        match self {
            Py::List(inner)
            | Py::TupleOf(inner)
            | Py::Dict(inner)
            | Py::Seq(inner)
            | Py::Map(inner) => std::slice::from_mut(inner),
            Py::Tuple(items) | Py::Union(items) => items,
            Py::Any
            | Py::Never
            | Py::None
            | Py::Bool
            | Py::Int
            | Py::Float
            | Py::Str
            | Py::Literal(_)
            | Py::Class(_)
            | Py::Def(_) => &mut [],
        }
    }

    /// The type as a parameter takes it. `list` and `dict` are invariant
    /// in their items, so `list[float]` refuses a variable the program
    /// typed `list[int]`, though every JSON integer is a number, and
    /// `list[A | B]` refuses a `list[A]`. A parameter only reads its
    /// argument, so where the items have narrower types a program may hold
    /// (a float, a union, a container of those, or a class that reads its
    /// own fields so: see [`Reading`]), it takes the read-only, covariant
    /// `Sequence` or `Mapping` instead; a tuple passes too, and the sandbox
    /// sends it as an array. Not where an item may be a string: `str` is
    /// itself a `Sequence[str]`, so a lone string would then pass where the
    /// schema wants an array.
    ///
    /// `bytes` and `range` are sequences of numbers too, so the checkers let
    /// them through where the sandbox refuses them (with a message). The
    /// union `list[float] | list[int]` would not, but mypy then fails to
    /// type a literal such as `[(0, 1.5)]` from the parameter's type.
    pub(super) fn for_reading(self, reading: &Reading) -> Py {
        let read = |py: Py| py.for_reading(reading);
        match self {
            // A list that stays a list is invariant: its items keep their
            // exact type, or a result's own list would no longer fit.
            Py::List(item) if reading.list_reads_as_sequence(&item) => {
                Py::Seq(Box::new(read(*item)))
            }
            Py::Dict(value) if reading.dict_reads_as_mapping(&value) => {
                Py::Map(Box::new(read(*value)))
            }
            Py::TupleOf(item) => Py::TupleOf(Box::new(read(*item))),
            Py::Tuple(items) => Py::Tuple(items.into_iter().map(read).collect()),
            Py::Union(members) => reading.merge_sequences(members.into_iter().map(read).collect()),
            other => other,
        }
    }
}

/// How deep [`Reading::holds_class`] follows aliases into aliases.
const ALIAS_HOPS: usize = 8;

/// Which classes and aliases the arguments read covariantly, and what
/// [`Py::for_reading`] needs to know of definitions.
///
/// A TypedDict's fields are invariant, so a class only the arguments use
/// may not simply take `Sequence` fields (a result's object with a `list`
/// there would no longer fit it when a program passes it back), nor keep
/// a `float` field that a result's `int` should fill. Its fields are
/// `ReadOnly[...]` (PEP 705), which makes them covariant: such a class is
/// *read-only* here, and so is an alias whose body changes. Holding a
/// read-only class changes a type too: a `list` of it would again refuse
/// the result's own class, so it reads covariantly in turn, up to the
/// arguments.
pub(super) struct Reading<'k> {
    /// By node: the classes, then the definitions (a definition that is a
    /// class is that class's node).
    read_only: Vec<bool>,
    classes: usize,
    def_kinds: &'k [DefKind],
    /// By definition: whether a lone `str` may be of it.
    def_str: Vec<bool>,
    /// By definition: whether a program may hold its values as a narrower
    /// type ([`Reading::has_narrower`] of its body).
    def_narrower: Vec<bool>,
}

impl<'k> Reading<'k> {
    /// Nothing read-only: what a type says alone decides.
    pub(super) fn plain(def_kinds: &'k [DefKind]) -> Self {
        Reading {
            read_only: Vec::new(),
            classes: 0,
            def_kinds,
            def_str: defs_admitting_str(def_kinds),
            def_narrower: defs_with_narrower(def_kinds),
        }
    }

    /// The same reading with the nodes marked in `read_only` (by node;
    /// `classes` of them are classes) read-only.
    pub(super) fn with(self, read_only: Vec<bool>, classes: usize) -> Self {
        Reading {
            read_only,
            classes,
            ..self
        }
    }

    /// Whether node `at` is read-only.
    pub(super) fn node_read_only(&self, at: usize) -> bool {
        self.read_only.get(at).copied().unwrap_or(false)
    }

    /// Whether [`Py::for_reading`] would change `py`: whether it has a
    /// `list` or `dict` that reads as `Sequence` or `Mapping`.
    pub(super) fn changes(&self, py: &Py) -> bool {
        match py {
            Py::List(item) => self.list_reads_as_sequence(item),
            Py::Dict(value) => self.dict_reads_as_mapping(value),
            Py::TupleOf(item) => self.changes(item),
            Py::Tuple(items) | Py::Union(items) => items.iter().any(|i| self.changes(i)),
            _ => false,
        }
    }

    /// A parameter's union `members` (read already), with its lists and
    /// tuples one `Sequence` of all their items when two or more are, an
    /// item is a TypedDict, and none may be a string.
    /// mypy types a literal (`[{"a": "s"}]`, `({"a": "s"},)`) from such a
    /// union of sequences only when its items need nothing from the
    /// parameter's type, and a dict literal needs it to be a TypedDict:
    /// `Sequence[A] | list[int]` and `tuple[A] | tuple[A, int]` refuse what
    /// `Sequence[A | int]` takes. The merged type admits more (mixed items,
    /// other lengths); the check before a run and the tool still judge those.
    fn merge_sequences(&self, members: Vec<Py>) -> Py {
        let sequence =
            |py: &Py| matches!(py, Py::Seq(_) | Py::List(_) | Py::Tuple(_) | Py::TupleOf(_));
        let sequences: Vec<&Py> = members.iter().filter(|m| sequence(m)).collect();
        // A `Sequence` of items that may be strings would take a lone
        // string; a `list` would refuse the tuples the union takes.
        let merge = sequences.len() >= 2
            && sequences.iter().any(|m| self.holds_class(m, ALIAS_HOPS))
            && !sequences
                .iter()
                .any(|m| m.parts().iter().any(|item| self.admits_str(item)));
        if !merge {
            return Py::Union(members);
        }
        let mut items = Vec::new();
        let mut out = Vec::with_capacity(members.len());
        let mut at = None;
        // The merged sequence stands where the first one did.
        for member in members {
            match member {
                Py::Seq(item) | Py::List(item) | Py::TupleOf(item) => {
                    at.get_or_insert(out.len());
                    items.push(*item);
                }
                Py::Tuple(elements) => {
                    at.get_or_insert(out.len());
                    items.extend(elements);
                }
                other => out.push(other),
            }
        }
        let item = py_union(items);
        out.insert(at.unwrap_or(0).min(out.len()), Py::Seq(Box::new(item)));
        py_union(out)
    }

    /// Whether `py` holds a TypedDict: a class, or a definition that is
    /// one or (within `hops` aliases) whose body holds one.
    fn holds_class(&self, py: &Py, hops: usize) -> bool {
        match py {
            Py::Class(_) => true,
            Py::Def(id) => match self.def_kinds.get(*id) {
                Some(DefKind::Class(_)) => true,
                Some(DefKind::Alias(body)) if hops > 0 => self.holds_class(body, hops - 1),
                _ => false,
            },
            other => other
                .parts()
                .iter()
                .any(|part| self.holds_class(part, hops)),
        }
    }

    /// Whether a `list` of `item` reads as a `Sequence`: its items may be
    /// narrower, and none may be a lone string.
    fn list_reads_as_sequence(&self, item: &Py) -> bool {
        self.has_narrower(item) && !self.admits_str(item)
    }

    /// Whether a `dict` of `value` reads as a `Mapping`: its values may be
    /// narrower, or may be anything. A TypedDict (a result's object, say)
    /// is no `dict` to the checkers, only a `Mapping[str, object]`, so a
    /// free-form `dict[str, Any]` would refuse every one.
    fn dict_reads_as_mapping(&self, value: &Py) -> bool {
        matches!(value, Py::Any) || self.has_narrower(value)
    }

    /// The node a class or definition is, if `py` is one.
    pub(super) fn node(&self, py: &Py) -> Option<usize> {
        node_of(py, self.classes, self.def_kinds)
    }

    /// Whether the node `py` names is read-only.
    pub(super) fn is_read_only(&self, py: &Py) -> bool {
        self.node(py).is_some_and(|n| self.node_read_only(n))
    }

    /// Whether a program is likely to hold its values as a narrower type
    /// than this one (an `int` for a `float`, one member of a union, a
    /// container of those, or an object of another class: a result's
    /// class with more keys, say), so that a container of it typed exactly
    /// would refuse the program's own. An alias counts when its body
    /// does, or when reading changes it (see [`Reading`]).
    fn has_narrower(&self, py: &Py) -> bool {
        match py {
            Py::Def(id) => {
                self.def_narrower.get(*id).copied().unwrap_or(false) || self.is_read_only(py)
            }
            other => kind_has_narrower(other),
        }
    }

    /// Whether a lone `str` may be of this type: `str` and `Any`, a union
    /// with one of those, or an alias of such a type.
    pub(super) fn admits_str(&self, py: &Py) -> bool {
        admits_str_by(py, &self.def_str)
    }
}

/// Whether a lone `str` may be of `py`, given that of each definition.
fn admits_str_by(py: &Py, def_str: &[bool]) -> bool {
    match py {
        Py::Str | Py::Any => true,
        Py::Union(members) => members.iter().any(|m| admits_str_by(m, def_str)),
        Py::Def(id) => def_str.get(*id).copied().unwrap_or(true),
        _ => false,
    }
}

/// Whether a lone `str` may be of each definition: an alias whose body
/// admits one, directly or through other aliases (a cycle of aliases with
/// no string in it admits none). One pass over the aliases' bodies, then
/// each alias's verdict spreads to the aliases that name it.
fn defs_admitting_str(def_kinds: &[DefKind]) -> Vec<bool> {
    let mut named_by: Vec<Vec<usize>> = vec![Vec::new(); def_kinds.len()];
    let mut todo = Vec::new();
    for (id, kind) in def_kinds.iter().enumerate() {
        let DefKind::Alias(body) = kind else { continue };
        let mut parts = vec![body];
        while let Some(part) = parts.pop() {
            match part {
                Py::Union(members) => parts.extend(members),
                Py::Def(named) if *named < def_kinds.len() => named_by[*named].push(id),
                Py::Str | Py::Any | Py::Def(_) => todo.push(id),
                _ => {}
            }
        }
    }
    marked_with_namers(todo, &named_by)
}

/// The definitions in `todo`, and every alias that names a marked one
/// (`named_by` lists them), transitively: each marked once.
fn marked_with_namers(todo: Vec<usize>, named_by: &[Vec<usize>]) -> Vec<bool> {
    marked_along(todo, named_by, &vec![false; named_by.len()])
}

/// The nodes in `todo`, and every node `up` lists for a marked one,
/// transitively, each marked once; a node `kept_out` marks is never
/// marked, nor reached through.
pub(super) fn marked_along(
    mut todo: Vec<usize>,
    up: &[Vec<usize>],
    kept_out: &[bool],
) -> Vec<bool> {
    let mut marked = vec![false; up.len()];
    todo.retain(|&at| !kept_out[at]);
    while let Some(at) = todo.pop() {
        if !std::mem::replace(&mut marked[at], true) {
            todo.extend(up[at].iter().filter(|&&next| !kept_out[next]));
        }
    }
    marked
}

/// Whether a program may hold values of `py`'s kind as a narrower type
/// ([`Reading::has_narrower`]), for any type but a definition's name.
fn kind_has_narrower(py: &Py) -> bool {
    match py {
        Py::Float
        | Py::Union(_)
        | Py::List(_)
        | Py::Seq(_)
        | Py::Dict(_)
        | Py::Map(_)
        | Py::Tuple(_)
        | Py::TupleOf(_)
        | Py::Class(_) => true,
        Py::Any
        | Py::Never
        | Py::None
        | Py::Bool
        | Py::Int
        | Py::Str
        | Py::Literal(_)
        | Py::Def(_) => false,
    }
}

/// Whether a program may hold the values of each definition as a narrower
/// type: a class (one with more keys), and an alias whose body is a float,
/// a union, a container or a class, directly or through other aliases. One
/// pass over the aliases' bodies, then each verdict spreads to the aliases
/// that name it, as in [`defs_admitting_str`].
fn defs_with_narrower(def_kinds: &[DefKind]) -> Vec<bool> {
    let mut named_by: Vec<Vec<usize>> = vec![Vec::new(); def_kinds.len()];
    let mut todo = Vec::new();
    for (id, kind) in def_kinds.iter().enumerate() {
        match kind {
            DefKind::Class(_) => todo.push(id),
            DefKind::Alias(Py::Def(named)) if *named < def_kinds.len() => named_by[*named].push(id),
            DefKind::Alias(body) if kind_has_narrower(body) => todo.push(id),
            DefKind::Alias(_) => {}
        }
    }
    marked_with_namers(todo, &named_by)
}

/// The node a class or definition is: classes are `0..classes`, and a
/// definition `id` is `classes + id`, or its class's node.
pub(super) fn node_of(py: &Py, classes: usize, def_kinds: &[DefKind]) -> Option<usize> {
    match py {
        Py::Class(c) => Some(*c),
        Py::Def(id) => match def_kinds.get(*id)? {
            DefKind::Class(c) => Some(*c),
            DefKind::Alias(_) => Some(classes + id),
        },
        _ => None,
    }
}

impl Args<'_> {
    /// The arguments with each parameter's type as it reads its argument
    /// ([`Py::for_reading`]).
    pub(super) fn for_reading(self, reading: &Reading) -> Self {
        match self {
            Args::Keywords { params, rest } => Args::Keywords {
                params: params
                    .into_iter()
                    .map(|p| Field {
                        ty: p.ty.for_reading(reading),
                        ..p
                    })
                    .collect(),
                rest: rest.map(|r| r.for_reading(reading)),
            },
            Args::Dict { ty, optional } => Args::Dict {
                ty: ty.for_reading(reading),
                optional,
            },
        }
    }

    /// Every type the arguments name, to renumber classes in.
    pub(super) fn types_mut(&mut self) -> impl Iterator<Item = &mut Py> {
        let (params, one): (&mut [Field<'_>], Option<&mut Py>) = match self {
            Args::Keywords { params, rest } => (params, rest.as_mut()),
            Args::Dict { ty, .. } => (&mut [], Some(ty)),
        };
        params.iter_mut().map(|p| &mut p.ty).chain(one)
    }
}

/// A name as a class's key holds it (a tool's, a property's): in full up
/// to 64 bytes, else its start and a hash of the whole. Every class below
/// a property copies its key, so keys stay short however long the names,
/// and names that differ keep keys that differ.
pub(super) fn key_part(name: &str) -> std::borrow::Cow<'_, str> {
    const FULL: usize = 64;
    if name.len() <= FULL {
        return name.into();
    }
    let head = name.floor_char_boundary(FULL / 2);
    // FNV-1a: the same on every machine and in every run.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{}~{hash:016x}", &name[..head]).into()
}

/// Turns IR into [`Py`], creating a class for each object with properties.
pub(super) struct Convert<'a> {
    pub(super) defs: &'a [Def],
    /// One-expression mode: no classes, definitions inlined.
    pub(super) standalone: bool,
    /// In one-expression mode, the definitions being spelled out in place.
    inlining: Option<Inlining>,
    /// What `allOf` merges may still copy ([`MAX_MERGED`]).
    pub(super) merge_budget: usize,
    /// What merging each object costs, by its address ([`Convert::merge_cost`]).
    merge_costs: HashMap<usize, usize>,
    /// The intersections being merged into classes now, by address, each
    /// with whether it was met again inside its own merge (it then refers
    /// to itself through a reference).
    merging: Vec<(usize, bool)>,
    pub(super) classes: Vec<Class<'a>>,
    pub(super) degradations: Vec<Degradation>,
    /// Which degradations [`Convert::place_under`] has moved under a
    /// property (by index; shorter than `degradations` when the rest are
    /// not).
    placed: Vec<bool>,
}

impl<'a> Convert<'a> {
    pub(super) fn new(defs: &'a [Def], standalone: bool) -> Self {
        Convert {
            defs,
            standalone,
            inlining: standalone.then(|| Inlining::new(defs)),
            merge_budget: MAX_MERGED,
            merge_costs: HashMap::new(),
            merging: Vec::new(),
            classes: Vec::new(),
            degradations: Vec::new(),
            placed: Vec::new(),
        }
    }

    /// Whether a call may leave out this argument: a TypedDict, inline or
    /// named, with no required key.
    pub(super) fn all_optional(&self, py: &Py, def_kinds: &[DefKind]) -> bool {
        let class = match py {
            Py::Class(i) => Some(&self.classes[*i]),
            Py::Def(id) => match def_kinds.get(*id) {
                Some(DefKind::Class(i)) => Some(&self.classes[*i]),
                _ => None,
            },
            _ => None,
        };
        class.is_some_and(|c| c.fields.iter().all(|f| !f.required))
    }

    pub(super) fn degrade(&mut self, origin: &Origin, reason: &str) -> Py {
        self.widen(origin, reason, Py::Any)
    }

    /// Records that the type at `origin` is printed as the wider `to`.
    fn widen(&mut self, origin: &Origin, reason: &str, to: Py) -> Py {
        self.record(origin, reason);
        to
    }

    /// Records each of the merged `props` ([`merge_objects`]) whose parts
    /// gave it types that could not be merged.
    fn record_conflicts(&mut self, props: &[PropView<'a>], origin: &Origin) {
        for prop in props.iter().filter(|p| p.conflict) {
            let reason = format!(
                "allOf members give the key {} different types; it is typed Any",
                json_string(prop.name)
            );
            self.record(origin, &reason);
        }
    }

    /// What merging `parts` copies, in [`weight_within`] units: each property,
    /// with its key, doc and type. Counted up to what the budget has left
    /// (a merge past it is refused whatever its cost), and remembered per
    /// object, so that refusing many merges of one large object costs
    /// little each time.
    fn merge_cost<'o>(&mut self, parts: impl Iterator<Item = &'o Object>) -> usize {
        let mut cost = 0usize;
        for part in parts {
            let at = part as *const Object as usize;
            let one = match self.merge_costs.get(&at) {
                Some(&known) => known,
                None => {
                    let limit = self.merge_budget.saturating_add(1);
                    let one = (part.props.iter())
                        .map(|p| {
                            let text = p.name.len() + p.doc.text.as_ref().map_or(0, String::len);
                            1 + text / 16 + weight_within(&p.ty, limit).unwrap_or(limit)
                        })
                        .fold(0, usize::saturating_add);
                    // Only a full count is the object's own.
                    if one <= self.merge_budget {
                        self.merge_costs.insert(at, one);
                    }
                    one
                }
            };
            cost = cost.saturating_add(one);
        }
        cost
    }

    /// Records a degradation at `origin`.
    fn record(&mut self, origin: &Origin, reason: &str) {
        self.degradations.push(Degradation {
            tool: for_report(&origin.tool),
            pointer: for_report(&origin.pointer),
            reason: reason.to_owned(),
        });
    }

    pub(super) fn class(
        &mut self,
        props: impl ExactSizeIterator<Item = PropView<'a>>,
        base: &str,
        key: &str,
        doc: &'a Doc,
        origin: &Origin,
    ) -> usize {
        let fields = self.fields(props, base, key, origin);
        self.classes.push(Class {
            base: base.to_owned(),
            key: key.to_owned(),
            fields,
            doc,
        });
        self.classes.len() - 1
    }

    /// The fields of `props`, whose nested classes are named from `base`
    /// and `key` and the property's name.
    pub(super) fn fields(
        &mut self,
        props: impl ExactSizeIterator<Item = PropView<'a>>,
        base: &str,
        key: &str,
        origin: &Origin,
    ) -> Vec<Field<'a>> {
        props
            .map(|prop| {
                let recorded = self.degradations.len();
                let ty = self.conv_part(
                    prop.ty,
                    || {
                        (
                            format!("{base}{}", pascal_case(prop.name)),
                            format!("{key}/{}", key_part(prop.name)),
                        )
                    },
                    origin,
                );
                self.place_under(recorded, &origin.pointer, prop.name);
                Field {
                    name: prop.name,
                    ty,
                    required: prop.required,
                    read_only: false,
                    doc: prop.doc,
                }
            })
            .collect()
    }

    /// Moves the degradations recorded since `recorded` at `pointer`
    /// under its property `name`: a record made while converting a
    /// property's type points at that property. Records already moved under
    /// a nested property move with it; records with a place of their own
    /// (an intersection's) stay. Nothing is built unless something was
    /// recorded.
    fn place_under(&mut self, recorded: usize, pointer: &str, name: &str) {
        if recorded == self.degradations.len() {
            return;
        }
        self.placed.resize(self.degradations.len(), false);
        // As the records hold it.
        let pointer = for_report(pointer);
        for (d, placed) in self
            .degradations
            .iter_mut()
            .zip(&mut self.placed)
            .skip(recorded)
        {
            let rest = match d.pointer.strip_prefix(pointer.as_str()) {
                Some("") => "",
                Some(rest) if *placed => rest,
                _ => continue,
            };
            // Each part cut first, so that a long key is not copied whole
            // into every record below it.
            let mut moved = pointer.clone();
            crate::schema::push_segment(&mut moved, "properties");
            crate::schema::push_segment(&mut moved, &for_report(name));
            moved.push_str(rest);
            d.pointer = for_report(&moved);
            *placed = true;
        }
    }

    /// A method's arguments: keyword parameters when `keywords` (the tool
    /// is a method) and its arguments are one object whose every key can
    /// be a parameter, else one dict of type `ty`.
    pub(super) fn args(
        &mut self,
        ty: &'a Ty,
        keywords: bool,
        base: &str,
        key: &str,
        origin: &Origin,
    ) -> Args<'a> {
        // Objects merged by `allOf` (one object each) give their keys as
        // parameters too, as the class they would merge into has them.
        if keywords
            && !self.standalone
            && let Some(parts) = self.merged_parts(ty)
        {
            let props = merge_objects(&parts);
            let copied = self.merge_cost(parts.iter().copied());
            // Other keys must suit every member: none if one is closed,
            // the values' type if members that type them agree on it, any
            // if a member is any object (as its index signature in
            // TypeScript lets them through).
            let mut typed = parts.iter().filter_map(|o| match &o.extra {
                Extra::Values(v) => Some(v.as_ref()),
                _ => None,
            });
            let rest = match typed.next() {
                _ if parts.iter().any(|o| o.extra == Extra::Closed) => Some(None),
                Some(v) => typed.all(|w| w == v).then_some(Some(v)),
                None => Some(
                    (props.is_empty() || parts.iter().any(|o| is_any_object(o)))
                        .then_some(&UNKNOWN),
                ),
            };
            if let Some(rest) = rest
                && copied <= self.merge_budget
                && props.iter().all(|p| is_keyword_param(p.name))
            {
                self.merge_budget -= copied;
                self.record_conflicts(&props, origin);
                let params = self.fields(props.into_iter(), base, key, origin);
                let rest = rest.map(|v| {
                    self.conv_part(v, || (format!("{base}Value"), format!("{key}{{}}")), origin)
                });
                return Args::Keywords { params, rest };
            }
        }
        // An object spelled out, or a definition's (a shape several tools
        // share is one definition, and each tool still lists its keys).
        let object = self.object_of(ty);
        match object {
            Some(obj)
                if keywords
                    && !self.standalone
                    && obj.props.iter().all(|p| is_keyword_param(&p.name)) =>
            {
                let params = self.fields(obj.props.iter().map(PropView::of), base, key, origin);
                // Keys beyond the properties: any, for an object that lists
                // none and says nothing of others; none, for one that lists
                // some (as TypeScript and a TypedDict print it).
                let rest = match &obj.extra {
                    Extra::Unspecified if obj.props.is_empty() => Some(Py::Any),
                    Extra::Unspecified | Extra::Closed => None,
                    Extra::Values(v) => Some(self.conv_part(
                        v,
                        || (format!("{base}Value"), format!("{key}{{}}")),
                        origin,
                    )),
                };
                Args::Keywords { params, rest }
            }
            _ => Args::Dict {
                ty: self.conv(ty, base, key, origin),
                optional: false,
            },
        }
    }

    /// The objects an `allOf` merges, when `ty` is one (spelled out or
    /// through a few references) that merges into one object.
    fn merged_parts(&self, ty: &'a Ty) -> Option<Vec<&'a Object>> {
        match self.resolved(ty)? {
            Ty::Inter(members, _) => {
                let mut combos = merge_combos(members, self.defs, 0, &mut { MERGE_WORK }).ok()?;
                (combos.len() == 1).then(|| combos.swap_remove(0))
            }
            _ => None,
        }
    }

    /// The object `ty` is, spelled out or through a few references to
    /// definitions.
    pub(super) fn object_of(&self, ty: &'a Ty) -> Option<&'a Object> {
        match self.resolved(ty)? {
            Ty::Object(obj) => Some(obj),
            _ => None,
        }
    }

    /// `ty` with up to eight references to definitions followed (`None`
    /// past them, or for a reference to no definition).
    fn resolved(&self, mut ty: &'a Ty) -> Option<&'a Ty> {
        for _ in 0..8 {
            match ty {
                Ty::Named(id) => ty = &self.defs.get(*id)?.ty,
                other => return Some(other),
            }
        }
        None
    }

    pub(super) fn conv(&mut self, ty: &'a Ty, base: &str, key: &str, origin: &Origin) -> Py {
        match ty {
            Ty::Unknown => Py::Any,
            Ty::Never => Py::Never,
            Ty::Null => Py::None,
            Ty::Bool => Py::Bool,
            Ty::Int => Py::Int,
            Ty::Num => Py::Float,
            Ty::Str => Py::Str,
            Ty::Lit(Lit::Str(s)) => Py::Literal(vec![python_string(s)]),
            Ty::Lit(Lit::Bool(b)) => {
                Py::Literal(vec![if *b { "True" } else { "False" }.to_owned()])
            }
            Ty::Lit(Lit::Num(n)) => match (n.as_i64(), n.as_u64()) {
                // mypy reads `-9223372036854775808` as the negation of a
                // number past the signed 64-bit range, and refuses it.
                (Some(i), _) if i != i64::MIN => Py::Literal(vec![i.to_string()]),
                // mypy takes only 64-bit signed integers in `Literal`.
                (Some(_), _) | (None, Some(_)) => self.widen(
                    origin,
                    "an integer literal outside what mypy takes in Literal (-2^63+1 to 2^63-1) is widened to int",
                    Py::Int,
                ),
                // `Literal` takes no floats.
                _ => self.widen(
                    origin,
                    "a number literal written as a float (2.5, 2.0) is widened to float (Python's Literal takes no floats)",
                    Py::Float,
                ),
            },
            Ty::Array(item) => Py::List(Box::new(self.conv_part(
                item,
                || (format!("{base}Item"), format!("{key}[]")),
                origin,
            ))),
            Ty::Tuple(tuple) => self.tuple(tuple, base, key, origin),
            Ty::Object(obj) => self.object(obj, base, key, origin),
            Ty::Union(members) => {
                let mut out = Vec::with_capacity(members.len());
                for (i, member) in members.iter().enumerate() {
                    let defs = self.defs;
                    let names = || {
                        let member_base = match tag_of(member, defs) {
                            Some(tag) => format!("{base}{}", pascal_case(tag)),
                            None => base.to_owned(),
                        };
                        (member_base, format!("{key}|{i}"))
                    };
                    // A name for any value makes the union any value:
                    // written out, pyright strict would take the union
                    // for a partly unknown type.
                    if names_any(member, defs) {
                        return Py::Any;
                    }
                    out.push(self.conv_part(member, names, origin));
                }
                py_union(out)
            }
            Ty::Inter(members, inter_origin) => self.intersection(members, base, key, inter_origin),
            Ty::Named(id) => {
                let Some(inlining) = &mut self.inlining else {
                    return Py::Def(*id);
                };
                if !inlining.enter(*id) {
                    return Py::Any;
                }
                let defs = self.defs;
                let py = self.conv(&defs[*id].ty, base, key, origin);
                if let Some(inlining) = &mut self.inlining {
                    inlining.leave();
                }
                py
            }
        }
    }

    /// Converts a part of a type. A class made inside it is named from
    /// `names()` (its base and key); they are only built when a class can be
    /// made there, which most parts (strings, numbers, references) cannot.
    fn conv_part(
        &mut self,
        ty: &'a Ty,
        names: impl FnOnce() -> (String, String),
        origin: &Origin,
    ) -> Py {
        if self.makes_class(ty) {
            let (base, key) = names();
            self.conv(ty, &base, &key, origin)
        } else {
            self.conv(ty, "", "", origin)
        }
    }

    /// Whether converting `ty` can make a class, and so needs names.
    fn makes_class(&self, ty: &Ty) -> bool {
        if self.standalone {
            return false;
        }
        match ty {
            Ty::Object(obj) => {
                !obj.props.is_empty()
                    || matches!(&obj.extra, Extra::Values(v) if self.makes_class(v))
            }
            Ty::Array(item) => self.makes_class(item),
            Ty::Tuple(tuple) => {
                tuple.items.iter().any(|t| self.makes_class(t))
                    || tuple.rest.as_deref().is_some_and(|r| self.makes_class(r))
            }
            Ty::Union(members) => members.iter().any(|m| self.makes_class(m)),
            Ty::Inter(..) => true,
            _ => false,
        }
    }

    pub(super) fn object(&mut self, obj: &'a Object, base: &str, key: &str, origin: &Origin) -> Py {
        if obj.props.iter().any(|p| p.name.is_empty()) {
            return self.keyless(origin);
        }
        if obj.props.is_empty() || self.standalone {
            return Py::Dict(Box::new(match &obj.extra {
                Extra::Unspecified => Py::Any,
                Extra::Closed if obj.props.is_empty() => Py::Never,
                Extra::Closed => Py::Any,
                Extra::Values(ty) if obj.props.is_empty() => self.conv_part(
                    ty,
                    || (format!("{base}Value"), format!("{key}{{}}")),
                    origin,
                ),
                Extra::Values(_) => Py::Any,
            }));
        }
        self.other_keys(obj, origin);
        let props = obj.props.iter().map(PropView::of);
        Py::Class(self.class(props, base, key, &NO_DOC, origin))
    }

    /// Records that an object which takes keys beside its properties
    /// (`additionalProperties` or `patternProperties`) becomes a TypedDict,
    /// which takes no others: a checker refuses a call that passes them.
    pub(super) fn other_keys(&mut self, obj: &Object, origin: &Origin) {
        if let Extra::Values(_) = obj.extra {
            self.record(origin, OTHER_KEYS);
        }
    }

    /// An object with an empty key, which no TypedDict may have (pyright
    /// refuses it): a plain dict, recorded.
    fn keyless(&mut self, origin: &Origin) -> Py {
        let reason = "an object with an empty property name has no TypedDict; it is a plain dict";
        self.widen(origin, reason, Py::Dict(Box::new(Py::Any)))
    }

    pub(super) fn tuple(&mut self, tuple: &'a Tuple, base: &str, key: &str, origin: &Origin) -> Py {
        let mut items = Vec::with_capacity(tuple.items.len());
        for (i, item) in tuple.items.iter().enumerate() {
            items.push(self.conv_part(
                item,
                || (format!("{base}Item{i}"), format!("{key}[{i}]")),
                origin,
            ));
        }
        let rest = tuple.rest.as_ref().map(|rest| {
            self.conv_part(rest, || (format!("{base}Item"), format!("{key}[]")), origin)
        });
        match (rest, tuple.lengths(true)) {
            (None, _) if items.len() == tuple.required => Py::Tuple(items),
            (_, Some(lengths)) => {
                py_union(lengths.map(|n| Py::Tuple(items[..n].to_vec())).collect())
            }
            (rest, None) => {
                let mut all = items;
                all.extend(rest);
                Py::TupleOf(Box::new(py_union(all)))
            }
        }
    }

    /// `allOf`: one merged TypedDict per combination of object alternatives.
    pub(super) fn intersection(
        &mut self,
        members: &'a [Ty],
        base: &str,
        key: &str,
        origin: &Origin,
    ) -> Py {
        // A bare `type` beside a reference that the lowering could not apply
        // (a reference to an intersection, say): the reference, whole, as
        // when the `type` is not read.
        if origin.reference_typed
            && let [whole] = (members.iter())
                .filter(|m| m.bare_kind().is_none())
                .collect::<Vec<_>>()
                .as_slice()
        {
            self.record(
                origin,
                "the type beside this reference picks values Python cannot single out; the reference's type is declared whole",
            );
            return self.conv(whole, base, key, origin);
        }
        // Met again inside its own merge: a definition that merges itself
        // (`R` holding `allOf: [R, {...}]`). Each merge would hold the next,
        // without end; the inner copy is `Any` instead, recorded once the
        // outer merge is done, at the intersection's own place.
        let node = members.as_ptr() as usize;
        if let Some(entry) = self.merging.iter_mut().find(|(n, _)| *n == node) {
            entry.1 = true;
            return Py::Any;
        }
        self.merging.push((node, false));
        let py = self.merge_into_classes(members, base, key, origin);
        if let Some((_, true)) = self.merging.pop() {
            self.record(
                origin,
                "allOf that contains itself through a reference; inside it, that copy is Any",
            );
        }
        py
    }

    fn merge_into_classes(
        &mut self,
        members: &'a [Ty],
        base: &str,
        key: &str,
        origin: &Origin,
    ) -> Py {
        let combos = match merge_combos(members, self.defs, 0, &mut { MERGE_WORK }) {
            Ok(combos) => combos,
            Err(NotObjects::Other) => {
                return self.degrade(origin, "allOf over non-object schemas has no Python type");
            }
            Err(NotObjects::TooDeep) => {
                return self.degrade(
                    origin,
                    "allOf reaches its objects through more than 64 references or nested combinations",
                );
            }
            Err(NotObjects::TooMany) => {
                return self.degrade(
                    origin,
                    "allOf expands into too many alternatives or merged objects",
                );
            }
        };
        let copied = self.merge_cost(combos.iter().flatten().copied());
        if copied > self.merge_budget {
            return self.degrade(
                origin,
                "the allOf merges of the whole tool list copy more properties than the Python \
                 stub has room for, and this one is past that, so it is Any",
            );
        }
        self.merge_budget -= copied;
        let mut out = Vec::with_capacity(combos.len());
        for (i, combo) in combos.iter().enumerate() {
            let props = merge_objects(combo);
            self.record_conflicts(&props, origin);
            let key = if combos.len() == 1 {
                key.to_owned()
            } else {
                format!("{key}&{i}")
            };
            // As a merged object with these properties converts.
            let closed = combo.iter().any(|o| o.extra == Extra::Closed);
            out.push(if props.iter().any(|p| p.name.is_empty()) {
                self.keyless(origin)
            } else if props.is_empty() && closed && !self.standalone {
                // No key is allowed: only the empty object.
                Py::Dict(Box::new(Py::Never))
            } else if props.is_empty() || self.standalone {
                Py::Dict(Box::new(Py::Any))
            } else {
                // Other keys are allowed unless a member is closed: when a
                // member types them, or is any object, the class cannot say
                // so, as for one object, and that is recorded.
                if !closed
                    && (combo.iter())
                        .any(|o| matches!(o.extra, Extra::Values(_)) || is_any_object(o))
                {
                    self.record(origin, OTHER_KEYS);
                }
                Py::Class(self.class(props.into_iter(), base, &key, &NO_DOC, origin))
            });
        }
        py_union(out)
    }
}

/// Why a TypedDict refuses keys its object admits.
const OTHER_KEYS: &str =
    "keys beside the listed properties cannot be declared in a TypedDict; a checker refuses them";

/// Whether an object is any object: it lists no keys and says nothing of
/// others (TypeScript's `{ [key: string]: unknown }`).
fn is_any_object(obj: &Object) -> bool {
    obj.extra == Extra::Unspecified && obj.props.is_empty()
}

/// Why a type cannot be merged as objects.
pub(super) enum NotObjects {
    /// Some alternative is no object.
    Other,
    /// Merging would make more than [`MAX_MERGED_ALTERNATIVES`] classes.
    TooMany,
    /// The objects lie more than [`MAX_HOPS`] steps away.
    TooDeep,
}

/// Steps (references, members of unions and intersections) a merge follows
/// to reach its objects. A chain of definitions each an `allOf` of the one
/// before and some keys takes two a level.
const MAX_HOPS: usize = 64;

/// The alternatives a type stands for when it is objects all the way down
/// (an object, a definition of one, a union or an intersection of such),
/// each as the objects that merge into it: `A | (B & C)` gives `[A]` and
/// `[B, C]`. `budget` bounds the objects handled on the way, so nested
/// intersections through references cannot multiply the work.
pub(super) fn object_alternatives<'t>(
    ty: &'t Ty,
    defs: &'t [Def],
    hops: usize,
    budget: &mut usize,
) -> Result<Vec<Vec<&'t Object>>, NotObjects> {
    match ty {
        Ty::Object(obj) => {
            spend(budget, 1)?;
            Ok(vec![vec![obj]])
        }
        Ty::Named(_) if hops >= MAX_HOPS => Err(NotObjects::TooDeep),
        Ty::Named(id) => match defs.get(*id) {
            Some(def) => object_alternatives(&def.ty, defs, hops + 1, budget),
            None => Err(NotObjects::Other),
        },
        Ty::Union(members) => {
            let mut out = Vec::new();
            for m in members {
                out.extend(object_alternatives(m, defs, hops + 1, budget)?);
                // More than an intersection could take: it multiplies.
                if out.len() > MAX_MERGED_ALTERNATIVES {
                    return Err(NotObjects::TooMany);
                }
            }
            Ok(out)
        }
        Ty::Inter(members, _) => merge_combos(members, defs, hops + 1, budget),
        _ => Err(NotObjects::Other),
    }
}

/// Objects one merge may handle, counting each time one is reached or
/// copied into a combination.
const MERGE_WORK: usize = 4096;

/// Takes `n` from `budget`, or fails when it has less.
fn spend(budget: &mut usize, n: usize) -> Result<(), NotObjects> {
    *budget = budget.checked_sub(n).ok_or(NotObjects::TooMany)?;
    Ok(())
}

/// The alternatives of an intersection of `members`: one for each way of
/// picking an alternative of every member, as the objects that merge into
/// it.
pub(super) fn merge_combos<'t>(
    members: &'t [Ty],
    defs: &'t [Def],
    hops: usize,
    budget: &mut usize,
) -> Result<Vec<Vec<&'t Object>>, NotObjects> {
    let mut combos: Vec<Vec<&'t Object>> = vec![Vec::new()];
    for member in members {
        let alts = object_alternatives(member, defs, hops, budget)?;
        if combos.len().saturating_mul(alts.len()) > MAX_MERGED_ALTERNATIVES {
            return Err(NotObjects::TooMany);
        }
        combos = combos
            .iter()
            .flat_map(|combo| alts.iter().map(move |alt| [combo.as_slice(), alt].concat()))
            .collect();
        spend(budget, combos.iter().map(Vec::len).sum())?;
    }
    Ok(combos)
}

/// The properties of one object with every property of every part, sorted
/// by name; a key that several parts give different types becomes the
/// escape hatch. Nothing else is said about other keys.
/// Narrows a merged key by another member's type for it: anything and T
/// is T, and so is T and a type that admits all of T (`integer` within
/// `number`); two other types have no Python intersection, and the key may
/// hold either.
fn narrow<'a>(prop: &mut PropView<'a>, ty: &'a Ty) {
    if *prop.ty == Ty::Unknown {
        prop.ty = ty;
    } else if *ty != Ty::Unknown && prop.ty != ty {
        let both = vec![prop.ty.clone(), ty.clone()];
        match crate::schema::intersection(both, Origin::default()) {
            met if met == *prop.ty => {}
            met if met == *ty => prop.ty = ty,
            _ => {
                prop.ty = &UNKNOWN;
                prop.conflict = true;
            }
        }
    }
}

pub(super) fn merge_objects<'a>(parts: &[&'a Object]) -> Vec<PropView<'a>> {
    let mut props: Vec<PropView<'a>> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for part in parts {
        for prop in &part.props {
            match at.get(prop.name.as_str()).and_then(|&i| props.get_mut(i)) {
                Some(existing) => {
                    narrow(existing, &prop.ty);
                    existing.required |= prop.required;
                    if existing.doc.is_empty() {
                        existing.doc = &prop.doc;
                    }
                }
                None => {
                    at.insert(&prop.name, props.len());
                    props.push(PropView::of(prop));
                }
            }
        }
    }
    // A member that types the keys it does not list types the others'
    // keys too.
    for part in parts {
        if let Extra::Values(values) = &part.extra {
            for prop in props.iter_mut() {
                if part
                    .props
                    .binary_search_by(|p| p.name.as_str().cmp(prop.name))
                    .is_err()
                {
                    narrow(prop, values);
                }
            }
        }
    }
    // A member that lists no keys and admits no others (`{}` with
    // `additionalProperties: false`) leaves only the empty object, as the
    // TypeScript SDK's `& { [key: string]: never }` does. (One that lists
    // keys does not drop the other members' keys, in either SDK: the
    // lowering records that.)
    if parts
        .iter()
        .any(|o| o.extra == Extra::Closed && o.props.is_empty())
    {
        props.clear();
    }
    props.sort_by(|a, b| a.name.cmp(b.name));
    props
}

/// The string a union member is tagged with: its first required property
/// whose type is one string literal (`{"kind": "user", ...}` gives `user`),
/// or the key of an object with one required property (serde's external
/// tagging: `{"Other": ...}` gives `Other`).
pub(super) fn tag_of<'t>(ty: &'t Ty, defs: &'t [Def]) -> Option<&'t str> {
    let obj = match ty {
        Ty::Object(obj) => obj,
        Ty::Named(id) => match &defs[*id].ty {
            Ty::Object(obj) => obj,
            _ => return None,
        },
        _ => return None,
    };
    let literal = obj.props.iter().find_map(|p| match &p.ty {
        Ty::Lit(Lit::Str(s)) if p.required => Some(s.as_str()),
        _ => None,
    });
    match obj.props.as_slice() {
        [only] if literal.is_none() && only.required => Some(only.name.as_str()),
        _ => literal,
    }
}

/// Whether `ty` is a reference to a definition that admits any value: the
/// escape hatch, or a union with such a member (reading at most 256
/// types).
fn names_any(ty: &Ty, defs: &[Def]) -> bool {
    fn any_within(ty: &Ty, defs: &[Def], work: &mut usize, top: bool) -> bool {
        if *work == 0 {
            return false;
        }
        *work -= 1;
        match ty {
            Ty::Named(id) => defs
                .get(*id)
                .is_some_and(|def| any_within(&def.ty, defs, work, false)),
            Ty::Unknown => !top,
            Ty::Union(members) if !top => members.iter().any(|m| any_within(m, defs, work, false)),
            _ => false,
        }
    }
    let mut work = 256;
    any_within(ty, defs, &mut work, true)
}

/// A flat union with its literals gathered into one `Literal[...]`.
/// Duplicates are dropped through hash sets, so a long union stays linear.
pub(super) fn py_union(members: Vec<Py>) -> Py {
    let mut out: Vec<Py> = Vec::with_capacity(members.len());
    let mut seen: HashSet<Py> = HashSet::new();
    let mut literals: Vec<String> = Vec::new();
    let mut seen_literals: HashSet<String> = HashSet::new();
    let mut literal_at: Option<usize> = None;
    let mut stack: Vec<Py> = members.into_iter().rev().collect();
    while let Some(member) = stack.pop() {
        match member {
            Py::Union(inner) => stack.extend(inner.into_iter().rev()),
            Py::Never => {}
            Py::Any => return Py::Any,
            Py::Literal(atoms) => {
                if literal_at.is_none() {
                    literal_at = Some(out.len());
                    // A placeholder, filled in with every literal at the end.
                    out.push(Py::Literal(Vec::new()));
                }
                for atom in atoms {
                    if seen_literals.insert(atom.clone()) {
                        literals.push(atom);
                    }
                }
            }
            other => {
                if seen.insert(other.clone()) {
                    out.push(other);
                }
            }
        }
    }
    if let Some(i) = literal_at {
        out[i] = Py::Literal(literals);
    }
    match out.len() {
        0 => Py::Never,
        1 => out.pop().unwrap_or(Py::Never),
        _ => Py::Union(out),
    }
}
