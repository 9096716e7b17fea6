//! A literal as far as the check can see it, and its check against a
//! tool's argument type.
//!
//! Anything the check cannot see (a variable, a call, a spread) is
//! [`Val::Unknown`] and never an error: only what is certain is reported.

use super::{Finding, Style, suggest};
use crate::diagnostic::DiagnosticCode;
use crate::schema::Lowered;
use crate::schema::{Extra, Lit, Object, Ty};
use std::borrow::Cow;

/// How deep through named types a check follows; deeper values pass.
const MAX_DEPTH: usize = 64;

/// A value in the program, as far as it is known.
#[derive(Debug, Clone)]
pub(super) enum Val<'a> {
    /// Not known statically.
    Unknown,
    /// JavaScript `undefined`: the key is left out of the JSON.
    Absent,
    /// `null` / `None`.
    Null,
    /// A value that JSON sends as `null`, and which one it was.
    AsNull(AsNull),
    /// A boolean.
    Bool(bool),
    /// A number, and how the program wrote it.
    Num(f64, Numeral),
    /// A string, with its text when it is known.
    Str(Option<Cow<'a, str>>),
    /// An array literal (a Python list or `tuple`); `open` when a spread
    /// makes its length unknown. Items after the first spread are listed
    /// too, but their positions are not known: only the first `fixed` are
    /// where they stand.
    Arr {
        items: Vec<(usize, Val<'a>)>,
        open: bool,
        fixed: usize,
        tuple: bool,
    },
    /// An object literal; `open` when a spread or a computed key makes its
    /// keys unknown.
    Obj { entries: Vec<Entry<'a>>, open: bool },
}

/// How a number was written: Python tells an `int` from a `float` (`1.0`),
/// and messages name the one the program wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Numeral {
    Int,
    Float,
}

/// Why a value is sent as `null`.
#[derive(Debug, Clone, Copy)]
pub(super) enum AsNull {
    /// A number too large for a double (`1e999`).
    Huge,
    /// `undefined` as an array's item.
    Undefined,
    /// A hole in an array literal (`[, 2]`).
    Hole,
}

/// One key of an object literal.
#[derive(Debug, Clone)]
pub(super) struct Entry<'a> {
    pub(super) key: Cow<'a, str>,
    /// Where the key is.
    pub(super) key_at: usize,
    /// Where the value is.
    pub(super) at: usize,
    pub(super) val: Val<'a>,
}

impl Val<'_> {
    /// What a call that passes no arguments sends: `{}`.
    pub(super) fn no_arguments() -> Self {
        Val::Obj {
            entries: Vec::new(),
            open: false,
        }
    }

    /// The JSON kind, as a noun phrase with its article.
    fn kind(&self, style: Style) -> &'static str {
        match (self, style) {
            (Val::Null, Style::Js) => "null",
            (Val::Null, Style::Py) => "None",
            (Val::AsNull(AsNull::Huge), _) => {
                "a number too large for a double (JSON sends it as null)"
            }
            (Val::AsNull(AsNull::Undefined), _) => "undefined (JSON sends it as null in an array)",
            (Val::AsNull(AsNull::Hole), _) => "an empty slot (JSON sends it as null)",
            (Val::Bool(_), _) => "a boolean",
            (Val::Num(..), Style::Js) => "a number",
            (Val::Num(_, Numeral::Int), Style::Py) => "an int",
            (Val::Num(_, Numeral::Float), Style::Py) => "a float",
            (Val::Str(_), _) => "a string",
            (Val::Arr { .. }, Style::Js) => "an array",
            (Val::Arr { tuple: true, .. }, Style::Py) => "a tuple",
            (Val::Arr { .. }, Style::Py) => "a list",
            (Val::Obj { .. }, Style::Js) => "an object",
            (Val::Obj { .. }, Style::Py) => "a dict",
            (Val::Unknown | Val::Absent, _) => "a value",
        }
    }
}

/// An object literal's entries as its keys are read: a later key replaces
/// an earlier one, and takes its place at the end. Replaced entries are
/// dropped once, at the end, so that a literal of many keys is read in
/// linear time.
#[derive(Default)]
pub(super) struct Entries<'a> {
    list: Vec<Entry<'a>>,
    seen: foldhash::HashSet<Cow<'a, str>>,
}

impl<'a> Entries<'a> {
    pub(super) fn push(&mut self, entry: Entry<'a>) {
        self.seen.insert(entry.key.clone());
        self.list.push(entry);
    }

    /// Forgets every key so far (after a spread).
    pub(super) fn clear(&mut self) {
        self.list.clear();
        self.seen.clear();
    }

    /// Each key's last entry, in the order of those.
    pub(super) fn finish(self) -> Vec<Entry<'a>> {
        if self.seen.len() == self.list.len() {
            return self.list;
        }
        let mut kept = foldhash::HashSet::default();
        let mut last: Vec<Entry<'a>> = (self.list.into_iter().rev())
            .filter(|e| kept.insert(e.key.clone()))
            .collect();
        last.reverse();
        last
    }
}

/// Checks `val` (at byte `at`) against `ty`, pushing what is certainly
/// wrong. `path` names the value for messages (`filters.tags[0]`); `call`
/// names the call (`tools.search()`).
pub(super) struct Checker<'c> {
    pub(super) lowered: &'c Lowered,
    pub(super) style: Style,
    pub(super) call: super::Spelled<'c>,
    pub(super) out: Vec<Finding>,
    /// What is left of the program's work (see `CHECK_WORK`).
    pub(super) work: &'c std::cell::Cell<usize>,
    /// What is left of the program's work for suggestions (see
    /// `SUGGEST_WORK`).
    pub(super) suggest_work: &'c std::cell::Cell<usize>,
    /// The named types each value was checked against already (by the
    /// value's address, and whether as a part of an intersection), with
    /// the least depth it was checked at: the members of an intersection
    /// often reach the same type for the same value, and checking it again
    /// would find the same again, level by level, twice the work at each.
    /// A visit nearer the top checks again, since one further down may
    /// have stopped at the depth limit.
    pub(super) seen: foldhash::HashMap<(usize, usize, bool), usize>,
}

impl Checker<'_> {
    /// Whether `val` is certainly not a `ty`, without reporting.
    fn fails(
        &self,
        ty: &Ty,
        val: &Val<'_>,
        at: usize,
        path: &Path<'_>,
        depth: usize,
    ) -> Vec<Finding> {
        let mut inner = Checker {
            lowered: self.lowered,
            style: self.style,
            call: self.call,
            out: Vec::new(),
            work: self.work,
            suggest_work: self.suggest_work,
            seen: Default::default(),
        };
        inner.check(ty, val, at, path, depth);
        inner.out
    }

    fn push(&mut self, at: usize, code: DiagnosticCode, path: &Path<'_>, text: String) {
        let message = if path.is_root() {
            format!("{}(): {text}", self.call)
        } else {
            format!("{}(): `{}` {text}", self.call, path.show(self.style))
        };
        self.out.push(Finding { at, code, message });
    }

    /// The check of one value.
    pub(super) fn check(
        &mut self,
        ty: &Ty,
        val: &Val<'_>,
        at: usize,
        path: &Path<'_>,
        depth: usize,
    ) {
        if matches!(val, Val::Unknown | Val::Absent) || depth > MAX_DEPTH || !self.spend(1) {
            return;
        }
        match ty {
            Ty::Unknown => {}
            Ty::Never => self.push(
                at,
                DiagnosticCode::InvalidValue,
                path,
                "takes no value: leave it out".to_owned(),
            ),
            Ty::Named(id) => {
                if let Some(def) = self.lowered.defs.get(*id)
                    && self.first_time(*id, val, false, depth)
                {
                    self.check(&def.ty, val, at, path, depth + 1);
                }
            }
            Ty::Union(members) => self.check_union(members, val, at, path, depth),
            Ty::Inter(members, _) => {
                // Each part holds; no part's closed key list is the whole
                // object's, so unknown keys are not judged here.
                for member in members {
                    self.check_part(member, val, at, path, depth + 1);
                }
            }
            Ty::Lit(lit) => self.check_lit(lit, val, at, path),
            _ if !self.kind_fits(ty, val) => self.wrong_type(ty, val, at, path),
            Ty::Int => {
                if let Val::Num(n, _) = val
                    && n.fract() != 0.0
                {
                    self.push(
                        at,
                        DiagnosticCode::WrongType,
                        path,
                        format!("must be {}, not {n}", self.expected(ty, 0)),
                    );
                }
            }
            Ty::Array(item) => {
                if let Val::Arr { items, fixed, .. } = val {
                    for (i, (item_at, item_val)) in items.iter().enumerate().take(*fixed) {
                        self.check(item, item_val, *item_at, &Path::Index(path, i), depth);
                    }
                }
            }
            Ty::Tuple(tuple) => {
                if let Val::Arr {
                    items, open, fixed, ..
                } = val
                {
                    for (i, (item_at, item_val)) in items.iter().enumerate().take(*fixed) {
                        let ty = tuple.items.get(i).or(tuple.rest.as_deref());
                        if let Some(ty) = ty {
                            self.check(ty, item_val, *item_at, &Path::Index(path, i), depth);
                        }
                    }
                    let (min, max) = (
                        tuple.required,
                        tuple.rest.is_none().then_some(tuple.items.len()),
                    );
                    let too_few = !open && items.len() < min;
                    if too_few || max.is_some_and(|m| *fixed > m) {
                        let want = match max {
                            Some(m) if m == min => format!("exactly {m}"),
                            Some(m) => format!("{min} to {m}"),
                            None => format!("at least {min}"),
                        };
                        self.push(
                            at,
                            DiagnosticCode::InvalidValue,
                            path,
                            format!("must have {want} items, not {}", items.len()),
                        );
                    }
                }
            }
            Ty::Object(object) => self.check_object(object, val, at, path, depth, true),
            Ty::Null | Ty::Bool | Ty::Num | Ty::Str => {}
        }
    }

    /// Takes `steps` from the program's work; false (and nothing taken)
    /// when too few are left.
    fn spend(&self, steps: usize) -> bool {
        match self.work.get().checked_sub(steps) {
            Some(left) => {
                self.work.set(left);
                true
            }
            None => false,
        }
    }

    /// Whether `val` meets the named type `id` here for the first time (as
    /// a part of an intersection, or whole).
    fn first_time(&mut self, id: usize, val: &Val<'_>, part: bool, depth: usize) -> bool {
        let key = (id, std::ptr::from_ref(val).addr(), part);
        match self.seen.get(&key) {
            Some(&before) if before <= depth => false,
            _ => {
                self.seen.insert(key, depth);
                true
            }
        }
    }

    /// One part of an intersection: objects without judging unknown keys.
    fn check_part(&mut self, ty: &Ty, val: &Val<'_>, at: usize, path: &Path<'_>, depth: usize) {
        if !self.spend(1) {
            return;
        }
        match ty {
            Ty::Named(id) if depth <= MAX_DEPTH => {
                if let Some(def) = self.lowered.defs.get(*id)
                    && self.first_time(*id, val, true, depth)
                {
                    self.check_part(&def.ty, val, at, path, depth + 1);
                }
            }
            Ty::Object(object) => self.check_object(object, val, at, path, depth, false),
            other => self.check(other, val, at, path, depth),
        }
    }

    fn check_union(
        &mut self,
        members: &[Ty],
        val: &Val<'_>,
        at: usize,
        path: &Path<'_>,
        depth: usize,
    ) {
        if !self.spend(members.len()) {
            // Out of work: taken as it is.
            return;
        }
        let choice = members.iter().all(|m| matches!(m, Ty::Lit(_)));
        if choice {
            // A choice of values: one comparison each, not a check (and its
            // messages) for each of a long enum's values.
            let taken = depth >= MAX_DEPTH
                || members.iter().any(|m| match m {
                    Ty::Lit(lit) => lit_takes(lit, val),
                    _ => false,
                });
            if !taken {
                self.wrong_choice(members, val, at, path);
            }
            return;
        }
        // The findings of the member that explains the value best, and
        // whether its tag is the value's.
        let mut best: Option<(Vec<Finding>, bool)> = None;
        let mut any_kind_fits = false;
        for member in members {
            let failures = self.fails(member, val, at, path, depth + 1);
            if failures.is_empty() {
                return;
            }
            if self.kind_fits_deep(member, val, depth) {
                any_kind_fits = true;
                // The member the value comes closest to explains it best;
                // a member whose tag the value carries comes closest (the
                // first such). Every member is still tried: another may
                // admit the value whatever its tag.
                let tagged = self.tag_matches(member, val, depth);
                let better = match &best {
                    None => true,
                    Some((_, true)) => false,
                    Some((b, false)) => tagged || failures.len() < b.len(),
                };
                if better {
                    best = Some((failures, tagged));
                }
            }
        }
        let best = best.map(|(findings, _)| findings);
        if self.untagged(members, val, path, depth) {
            return;
        }
        match best {
            Some(findings) if any_kind_fits => self.out.extend(findings),
            _ => self.wrong_choice(members, val, at, path),
        }
    }

    /// For a union of objects told apart by one key's literal (a tag),
    /// when `val` has that key with a value no member has: reports the key,
    /// with the values it may take.
    fn untagged(&mut self, members: &[Ty], val: &Val<'_>, path: &Path<'_>, depth: usize) -> bool {
        let Val::Obj { entries, .. } = val else {
            return false;
        };
        for entry in entries {
            let mut allowed: Vec<&Lit> = Vec::new();
            let every_member_tags = members.iter().all(|member| {
                let Some(object) = self.resolve_object(member, depth) else {
                    return false;
                };
                let tag =
                    object
                        .props
                        .iter()
                        .find(|p| p.name == entry.key)
                        .and_then(|p| match &p.ty {
                            Ty::Lit(lit) => Some(lit),
                            _ => None,
                        });
                tag.map(|lit| allowed.push(lit)).is_some()
            });
            if every_member_tags
                && matches!(entry.val, Val::Str(Some(_)) | Val::Num(..))
                && !allowed.iter().any(|lit| lit_equals(lit, &entry.val))
            {
                let tags = Ty::Union(allowed.into_iter().map(|l| Ty::Lit(l.clone())).collect());
                let key_path = Path::Key(path, &entry.key);
                self.wrong_type(&tags, &entry.val, entry.at, &key_path);
                return true;
            }
        }
        false
    }

    /// Whether `member` (through names) is an object with a required
    /// literal-typed key that `val` holds with that literal.
    fn tag_matches(&self, member: &Ty, val: &Val<'_>, depth: usize) -> bool {
        let (Some(object), Val::Obj { entries, .. }) = (self.resolve_object(member, depth), val)
        else {
            return false;
        };
        object.props.iter().any(|prop| {
            let Ty::Lit(lit) = &prop.ty else { return false };
            entries
                .iter()
                .any(|e| e.key == prop.name && lit_equals(lit, &e.val))
        })
    }

    fn resolve_object<'t>(&'t self, ty: &'t Ty, depth: usize) -> Option<&'t Object> {
        match ty {
            Ty::Object(object) => Some(object),
            Ty::Named(id) if depth <= MAX_DEPTH => self
                .lowered
                .defs
                .get(*id)
                .and_then(|d| self.resolve_object(&d.ty, depth + 1)),
            _ => None,
        }
    }

    fn check_object(
        &mut self,
        object: &Object,
        val: &Val<'_>,
        at: usize,
        path: &Path<'_>,
        depth: usize,
        judge_unknown: bool,
    ) {
        let Val::Obj { entries, open } = val else {
            return;
        };
        for entry in entries {
            // JSON leaves out a key whose value is `undefined` or a function.
            if matches!(entry.val, Val::Absent) {
                continue;
            }
            let key_path = Path::Key(path, &entry.key);
            match object
                .props
                .binary_search_by(|p| p.name.as_str().cmp(&entry.key))
            {
                Ok(i) => {
                    if let Some(prop) = object.props.get(i) {
                        self.check(&prop.ty, &entry.val, entry.at, &key_path, depth);
                    }
                }
                Err(_) => match &object.extra {
                    // In JavaScript a value not known may be `undefined`,
                    // and then the key is left out of the JSON.
                    Extra::Closed
                        if judge_unknown
                            && !(self.style == Style::Js && matches!(entry.val, Val::Unknown)) =>
                    {
                        let names: Vec<&str> =
                            object.props.iter().map(|p| p.name.as_str()).collect();
                        let hint = match suggest(&entry.key, &names, self.suggest_work) {
                            Some(near) => format!("; did you mean {near:?}?"),
                            None if names.is_empty() => "; it takes no keys".to_owned(),
                            None if names.len() <= 12 => {
                                format!("; its keys are {}", quote_list(&names))
                            }
                            None => String::new(),
                        };
                        let owner = if path.is_root() {
                            "takes".to_owned()
                        } else {
                            format!("`{}` takes", path.show(self.style))
                        };
                        self.out.push(Finding {
                            at: entry.key_at,
                            code: DiagnosticCode::UnknownKey,
                            message: format!(
                                "{}(): {owner} no key {:?}{hint}",
                                self.call, entry.key
                            ),
                        });
                    }
                    Extra::Values(ty) => self.check(ty, &entry.val, entry.at, &key_path, depth),
                    _ => {}
                },
            }
        }
        if *open {
            return;
        }
        // The keys present, looked up by name when there are many.
        let given = |e: &&Entry<'_>| !matches!(e.val, Val::Absent);
        let many: Option<foldhash::HashSet<&str>> = (entries.len() > 16).then(|| {
            entries
                .iter()
                .filter(given)
                .map(|e| e.key.as_ref())
                .collect()
        });
        for prop in object.props.iter().filter(|p| p.required) {
            // One more than the limit, so that the caller knows some were
            // left out.
            if self.out.len() > super::MAX_FINDINGS {
                break;
            }
            let present = match &many {
                Some(keys) => keys.contains(prop.name.as_str()),
                None => entries.iter().filter(given).any(|e| e.key == prop.name),
            };
            if !present {
                let what = self.expected(&prop.ty, depth);
                // At the root, the arguments: a dict, an object or, in
                // Python, keyword arguments.
                let subject = if path.is_root() {
                    "the arguments lack".to_owned()
                } else {
                    format!("the object `{}` lacks", path.show(self.style))
                };
                // A plain `__proto__:` in a JavaScript object literal sets
                // the prototype instead of the key.
                let hint = if prop.name == "__proto__" && matches!(self.style, super::Style::Js) {
                    "; write it as [\"__proto__\"]: ..., since a plain __proto__: sets the prototype"
                } else {
                    ""
                };
                self.out.push(Finding {
                    at,
                    code: DiagnosticCode::MissingKey,
                    message: format!(
                        "{}(): {subject} the required key {:?} ({what}){hint}",
                        self.call, prop.name
                    ),
                });
            }
        }
    }

    fn check_lit(&mut self, lit: &Lit, val: &Val<'_>, at: usize, path: &Path<'_>) {
        if !same_kind(lit, val) {
            let ty = Ty::Lit(lit.clone());
            self.wrong_type(&ty, val, at, path);
        } else if !lit_takes(lit, val) {
            self.push(
                at,
                DiagnosticCode::InvalidValue,
                path,
                format!("must be {}", self.literal(lit)),
            );
        }
    }

    /// A value that no member of the union `members` takes.
    fn wrong_choice(&mut self, members: &[Ty], val: &Val<'_>, at: usize, path: &Path<'_>) {
        // Literals of one kind read as a choice of values.
        if matches!(val, Val::Str(Some(_)) | Val::Num(..)) {
            let lits: Vec<&Lit> = members
                .iter()
                .filter_map(|m| match m {
                    Ty::Lit(l) => Some(l),
                    _ => None,
                })
                .collect();
            let same = lits.iter().all(|l| {
                matches!(
                    (l, val),
                    (Lit::Str(_), Val::Str(_)) | (Lit::Num(_), Val::Num(..))
                )
            });
            if lits.len() == members.len() && same {
                let shown: Vec<String> = lits.iter().take(12).map(|l| self.literal(l)).collect();
                let more = if lits.len() > 12 { ", …" } else { "" };
                self.push(
                    at,
                    DiagnosticCode::InvalidValue,
                    path,
                    format!("must be one of {}{more}", shown.join(", ")),
                );
                return;
            }
        }
        let expected = self.union_expected(members, 0);
        self.not_of_kind(expected, val, at, path);
    }

    fn wrong_type(&mut self, ty: &Ty, val: &Val<'_>, at: usize, path: &Path<'_>) {
        if let Ty::Union(members) = ty {
            return self.wrong_choice(members, val, at, path);
        }
        let expected = self.expected(ty, 0);
        self.not_of_kind(expected, val, at, path);
    }

    fn not_of_kind(&mut self, expected: String, val: &Val<'_>, at: usize, path: &Path<'_>) {
        let kind = val.kind(self.style);
        self.push(
            at,
            DiagnosticCode::WrongType,
            path,
            format!("must be {expected}, not {kind}"),
        );
    }

    /// Whether the JSON kind of `val` is one `ty` takes (ignoring contents).
    fn kind_fits(&self, ty: &Ty, val: &Val<'_>) -> bool {
        matches!(
            (ty, val),
            (Ty::Unknown, _)
                | (_, Val::Unknown | Val::Absent)
                | (Ty::Null, Val::Null | Val::AsNull(_))
                | (Ty::Bool, Val::Bool(_))
                | (Ty::Str, Val::Str(_))
                | (Ty::Int | Ty::Num, Val::Num(..))
                | (Ty::Array(_) | Ty::Tuple(_), Val::Arr { .. })
                | (Ty::Object(_), Val::Obj { .. })
                | (Ty::Lit(Lit::Str(_)), Val::Str(_))
                | (Ty::Lit(Lit::Num(_)), Val::Num(..))
                | (Ty::Lit(Lit::Bool(_)), Val::Bool(_))
        )
    }

    fn kind_fits_deep(&self, ty: &Ty, val: &Val<'_>, depth: usize) -> bool {
        if !self.spend(1) {
            // Out of work: taken as fitting, as an unchecked value is.
            return true;
        }
        match ty {
            Ty::Named(id) if depth <= MAX_DEPTH => self
                .lowered
                .defs
                .get(*id)
                .is_some_and(|d| self.kind_fits_deep(&d.ty, val, depth + 1)),
            Ty::Union(members) => members.iter().any(|m| self.kind_fits_deep(m, val, depth)),
            Ty::Inter(members, _) => members.iter().all(|m| self.kind_fits_deep(m, val, depth)),
            Ty::Named(_) => true,
            other => self.kind_fits(other, val),
        }
    }

    fn literal(&self, lit: &Lit) -> String {
        match (lit, self.style) {
            (Lit::Str(s), _) => format!("{s:?}"),
            (Lit::Num(n), _) => n.to_string(),
            (Lit::Bool(b), Style::Js) => b.to_string(),
            (Lit::Bool(true), Style::Py) => "True".to_owned(),
            (Lit::Bool(false), Style::Py) => "False".to_owned(),
        }
    }

    /// The type as a short phrase (`a string`, `a number or null`).
    fn expected(&self, ty: &Ty, depth: usize) -> String {
        let py = self.style == Style::Py;
        match ty {
            Ty::Unknown => "any value".to_owned(),
            Ty::Never => "no value".to_owned(),
            Ty::Null if py => "None".to_owned(),
            Ty::Null => "null".to_owned(),
            Ty::Bool => "a boolean".to_owned(),
            Ty::Int if py => "an int".to_owned(),
            Ty::Int => "an integer".to_owned(),
            Ty::Num if py => "a number (int or float)".to_owned(),
            Ty::Num => "a number".to_owned(),
            Ty::Str => "a string".to_owned(),
            Ty::Lit(lit) => self.literal(lit),
            Ty::Array(_) | Ty::Tuple(_) if py => "a list".to_owned(),
            Ty::Array(_) | Ty::Tuple(_) => "an array".to_owned(),
            Ty::Object(_) | Ty::Inter(..) if py => "a dict".to_owned(),
            Ty::Object(_) | Ty::Inter(..) => "an object".to_owned(),
            Ty::Named(id) => match self.lowered.defs.get(*id) {
                Some(def) if depth < 8 => self.expected(&def.ty, depth + 1),
                _ => "a value".to_owned(),
            },
            Ty::Union(members) => self.union_expected(members, depth),
        }
    }

    /// What a union takes, in words: its members' phrases, the first eight
    /// that differ (a long enum is not spelled out, nor all compared).
    fn union_expected(&self, members: &[Ty], depth: usize) -> String {
        let mut phrases: Vec<String> = Vec::new();
        for member in members {
            let phrase = self.expected(member, depth + 1);
            if !phrases.contains(&phrase) {
                if phrases.len() == 8 {
                    phrases.push("…".to_owned());
                    break;
                }
                phrases.push(phrase);
            }
        }
        match phrases.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => phrases.concat(),
        }
    }
}

/// Whether `val` is of the literal's kind (a string, a number, a boolean).
fn same_kind(lit: &Lit, val: &Val<'_>) -> bool {
    matches!(
        (lit, val),
        (Lit::Str(_), Val::Str(_)) | (Lit::Num(_), Val::Num(..)) | (Lit::Bool(_), Val::Bool(_))
    )
}

/// Whether the literal type `lit` takes `val`: the same value, or a string
/// whose content the check cannot see.
fn lit_takes(lit: &Lit, val: &Val<'_>) -> bool {
    same_kind(lit, val) && (lit_equals(lit, val) || matches!(val, Val::Str(None)))
}

fn lit_equals(lit: &Lit, val: &Val<'_>) -> bool {
    match (lit, val) {
        (Lit::Str(a), Val::Str(Some(b))) => a == b.as_ref(),
        (Lit::Num(a), Val::Num(b, _)) => a.as_f64() == Some(*b),
        (Lit::Bool(a), Val::Bool(b)) => a == b,
        _ => false,
    }
}

/// Where a value is inside the arguments, rendered only for a message.
#[derive(Debug, Clone, Copy)]
pub(super) enum Path<'p> {
    /// The argument object itself.
    Root,
    /// A key of an object.
    Key(&'p Path<'p>, &'p str),
    /// An item of an array.
    Index(&'p Path<'p>, usize),
}

impl Path<'_> {
    fn is_root(&self) -> bool {
        matches!(self, Path::Root)
    }

    /// `filters.tags[0]` (JavaScript) or `filters["tags"][0]` (Python).
    fn show(&self, style: Style) -> String {
        match self {
            Path::Root => String::new(),
            Path::Index(parent, i) => format!("{}[{i}]", parent.show(style)),
            Path::Key(parent, key) => {
                let plain = !key.is_empty()
                    && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !key.starts_with(|c: char| c.is_ascii_digit());
                let parent_text = parent.show(style);
                match (plain, parent.is_root(), style) {
                    (true, true, _) => (*key).to_owned(),
                    (true, false, Style::Js) => format!("{parent_text}.{key}"),
                    _ => format!("{parent_text}[{key:?}]"),
                }
            }
        }
    }
}

fn quote_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}
