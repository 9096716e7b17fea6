//! [`Py`] trees and classes printed as stub source.

use super::super::comment::{clean_lines, defuse_python, doc_lines};
use super::convert::{Args, Class, Field, Method, Py};
use crate::GLOBAL;
use crate::canonical::python_string;
use crate::ident::python::{is_annotation_name, is_plain_member};
use crate::schema::Doc;
use foldhash::HashSet;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write;

/// A tool reached only by subscript, as [`Printer::methods`] gives it:
/// its name, its argument and output types, and its docstring's lines.
type Subscripted<'m> = (&'m str, String, String, Vec<std::borrow::Cow<'m, str>>);

pub(super) struct Printer<'a> {
    pub(super) def_names: &'a [String],
    pub(super) class_names: &'a [String],
    pub(super) imports: BTreeSet<&'static str>,
    /// Whether a field was printed `ReadOnly` (imported from
    /// `typing_extensions`: `typing` has it from Python 3.13 only).
    pub(super) read_only: bool,
    pub(super) out: String,
}

impl<'a> Printer<'a> {
    /// A printer with nothing printed yet, naming definitions and classes
    /// as given.
    pub(super) fn new(def_names: &'a [String], class_names: &'a [String]) -> Self {
        Printer {
            def_names,
            class_names,
            imports: BTreeSet::new(),
            read_only: false,
            out: String::new(),
        }
    }

    pub(super) fn ty(&mut self, py: &Py) {
        match py {
            Py::Any => self.import("Any"),
            Py::Never => self.import("Never"),
            Py::None => self.out.push_str("None"),
            Py::Bool => self.out.push_str("bool"),
            Py::Int => self.out.push_str("int"),
            Py::Float => self.out.push_str("float"),
            Py::Str => self.out.push_str("str"),
            Py::Literal(atoms) => {
                self.import("Literal");
                self.out.push('[');
                self.out.push_str(&atoms.join(", "));
                self.out.push(']');
            }
            Py::List(item) => self.wrap("list[", item),
            Py::Dict(value) => self.wrap("dict[str, ", value),
            Py::Seq(item) => {
                self.import("Sequence");
                self.wrap("[", item);
            }
            Py::Map(value) => {
                self.import("Mapping");
                self.wrap("[str, ", value);
            }
            Py::TupleOf(item) => {
                self.out.push_str("tuple[");
                self.ty(item);
                self.out.push_str(", ...]");
            }
            Py::Tuple(items) if items.is_empty() => self.out.push_str("tuple[()]"),
            Py::Tuple(items) => {
                self.out.push_str("tuple[");
                self.join(items, ", ");
                self.out.push(']');
            }
            Py::Union(members) => self.join(members, " | "),
            Py::Class(i) => self.out.push_str(&self.class_names[*i]),
            Py::Def(id) => self.out.push_str(&self.def_names[*id]),
        }
    }

    pub(super) fn import(&mut self, name: &'static str) {
        self.imports.insert(name);
        self.out.push_str(name);
    }

    pub(super) fn wrap(&mut self, open: &str, inner: &Py) {
        self.out.push_str(open);
        self.ty(inner);
        self.out.push(']');
    }

    pub(super) fn join(&mut self, items: &[Py], sep: &str) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(sep);
            }
            self.ty(item);
        }
    }

    /// `py` printed on its own, for quoting.
    pub(super) fn text(&mut self, py: &Py) -> String {
        self.captured(|p| p.ty(py))
    }

    /// What `write` prints, taken aside instead of into the output.
    fn captured(&mut self, write: impl FnOnce(&mut Self)) -> String {
        let saved = std::mem::take(&mut self.out);
        write(self);
        std::mem::replace(&mut self.out, saved)
    }

    /// Writes a field's annotation. In a `total=False` class the required
    /// fields are marked; otherwise the optional ones are.
    fn field_type(&mut self, field: &Field, total: bool) {
        let mark = match (field.required, total) {
            (true, true) | (false, false) => None,
            (false, true) => Some("NotRequired"),
            (true, false) => Some("Required"),
        };
        if let Some(mark) = mark {
            self.imports.insert(mark);
            self.out.push_str(mark);
            self.out.push('[');
        }
        if field.read_only {
            self.read_only = true;
            self.wrap("ReadOnly[", &field.ty);
        } else {
            self.ty(&field.ty);
        }
        if mark.is_some() {
            self.out.push(']');
        }
    }

    /// A field's doc: a longer one is written above the field here, and a
    /// one-line one is returned to trail it.
    fn field_doc<'d>(&mut self, doc: &'d Doc) -> Option<Cow<'d, str>> {
        self.doc_above(doc, "    # ")
    }

    /// A doc of several lines written here after `prefix`, or the line of
    /// a one-line doc returned.
    fn doc_above<'d>(&mut self, doc: &'d Doc, prefix: &str) -> Option<Cow<'d, str>> {
        let mut lines = doc_lines(doc);
        if lines.len() == 1 {
            return lines.pop();
        }
        self.comment_lines(prefix, lines);
        None
    }

    /// `doc` as comment lines at the top level.
    pub(super) fn comments(&mut self, doc: &Doc) {
        self.comment_lines("# ", doc_lines(doc));
    }

    /// Each line after `prefix` (the indent and the comment sign).
    fn comment_lines(&mut self, prefix: &str, lines: Vec<Cow<'_, str>>) {
        for line in lines {
            self.out.push_str(prefix);
            self.out.push_str(&defuse_python(&line));
            self.out.push('\n');
        }
    }

    pub(super) fn alias(&mut self, name: &str, py: &Py, doc: &Doc) {
        self.imports.insert("TypeAlias");
        self.comments(doc);
        let text = self.text(py);
        // Quoted, so it may name types defined further down.
        let _ = writeln!(self.out, "{name}: TypeAlias = {}\n", quote(&text));
    }

    /// A TypedDict, in the functional form when `functional`.
    pub(super) fn class(
        &mut self,
        name: &str,
        class: &Class,
        module_names: &HashSet<&str>,
        functional: bool,
    ) {
        self.imports.insert("TypedDict");
        // Class syntax reads best, but a key that is not a plain name, or one
        // that would shadow a type named in the body, needs the functional form.
        let class_syntax = !functional
            && class
                .fields
                .iter()
                .all(|f| bare_in_class_body(f.name, module_names));
        // Mark whichever of required or optional fields is rarer.
        let optional = class.fields.iter().filter(|f| !f.required).count();
        let total = optional * 2 <= class.fields.len();
        if class_syntax {
            let total_arg = if total { "" } else { ", total=False" };
            let _ = writeln!(self.out, "class {name}(TypedDict{total_arg}):");
            docstring(&mut self.out, doc_lines(class.doc), "    ");
        } else {
            self.comments(class.doc);
            let _ = writeln!(self.out, "{name} = TypedDict({}, {{", python_string(name));
        }
        for field in &class.fields {
            let trailing = self.field_doc(field.doc);
            if class_syntax {
                self.out.push_str("    ");
                self.out.push_str(field.name);
                self.out.push_str(": ");
                self.field_type(field, total);
            } else {
                let ty = self.captured(|p| p.field_type(field, total));
                let _ = write!(
                    self.out,
                    "    {}: {},",
                    python_string(field.name),
                    quote(&ty)
                );
            }
            if let Some(one) = trailing {
                self.out.push_str("  # ");
                self.out.push_str(&defuse_python(&one));
            }
            self.out.push('\n');
        }
        if !class_syntax {
            self.out
                .push_str(if total { "})\n" } else { "}, total=False)\n" });
        }
        self.out.push('\n');
    }

    /// Prints the tools of `methods` that are methods, and gives how many
    /// it printed and, for the others, what their subscript access needs:
    /// name, argument and output types, and docstring lines.
    fn methods<'m>(&mut self, methods: &[Method<'m>]) -> (usize, Vec<Subscripted<'m>>) {
        let mut statements = 0;
        let mut subscripted = Vec::new();
        for m in methods {
            // A tool's description has no notes: its lines are the text's.
            let mut description = m.description.map(clean_lines).unwrap_or_default();
            for &doc in &m.args_docs {
                description.extend(doc_lines(doc));
            }
            if let Some(method) = m.method {
                self.out.push_str("    async def ");
                self.out.push_str(method);
                self.params(&m.args);
                self.out.push_str(" -> ");
                self.ty(&m.output);
                // A body of `...` (after the docstring, if any) marks a
                // stub that returns what it declares, for every checker. A
                // docstring alone is body enough where falling off the end
                // (returning None) fits the declared type.
                if description.is_empty() {
                    self.out.push_str(": ...\n");
                } else {
                    self.out.push_str(":\n");
                    docstring(&mut self.out, description, "        ");
                    if !matches!(m.output, Py::Any | Py::None) {
                        self.out.push_str("        ...\n");
                    }
                }
                statements += 1;
            } else {
                let args = match &m.args {
                    Args::Dict { ty, .. } => self.text(ty),
                    // Not made for a tool that is no method.
                    Args::Keywords { .. } => self.captured(|p| p.import("Any")),
                };
                let output = self.text(&m.output);
                subscripted.push((m.name, args, output, description));
            }
        }
        (statements, subscripted)
    }

    /// Takes in what another printer printed after this one's text.
    pub(super) fn absorb(&mut self, other: Printer<'_>) {
        self.out.push_str(&other.out);
        self.imports.extend(other.imports);
        self.read_only |= other.read_only;
    }

    pub(super) fn tools<'m>(&mut self, methods: &[Method<'m>]) {
        let _ = writeln!(self.out, "class Tools(Protocol):");
        // A long list's methods are printed in two halves at once, each
        // into a printer of its own, joined in order.
        let part = |methods: &[Method<'m>]| {
            let mut p = Printer::new(self.def_names, self.class_names);
            let (statements, subscripted) = p.methods(methods);
            (p, statements, subscripted)
        };
        let at = crate::parallel::split_point(methods.len());
        let ((front, mut statements, mut subscripted), back) =
            crate::parallel::halves(methods, at, part, part);
        self.absorb(front);
        if let Some((back, more, rest)) = back {
            self.absorb(back);
            statements += more;
            subscripted.extend(rest);
        }
        // Subscript access, typed per name, for the tools that cannot be
        // methods (and so are reachable only as tools["name"]), each with
        // its description as the docstring.
        if !subscripted.is_empty() {
            self.imports.insert("Awaitable");
            self.imports.insert("Callable");
            self.imports.insert("Literal");
            let overload = subscripted.len() > 1;
            if overload {
                self.imports.insert("overload");
            }
            for (name, args, output, description) in subscripted {
                if overload {
                    self.out.push_str("    @overload\n");
                }
                let _ = write!(
                    self.out,
                    "    def __getitem__(self, name: Literal[{}]) -> Callable[[{args}], Awaitable[{output}]]",
                    python_string(name)
                );
                if description.is_empty() {
                    self.out.push_str(": ...\n");
                } else {
                    self.out.push_str(":\n");
                    docstring(&mut self.out, description, "        ");
                    // Checkers read an overload's body as a stub whatever
                    // it holds; a lone definition needs the `...`.
                    if !overload {
                        self.out.push_str("        ...\n");
                    }
                }
                statements += 1;
            }
        }
        if statements == 0 {
            self.out.push_str("    pass\n");
        }
        let _ = writeln!(self.out, "\n{GLOBAL}: Tools");
    }
}

impl Printer<'_> {
    /// A method's parameter list, from `(self` to `)`. Keyword parameters
    /// that have docs go one to a line, each doc trailing its parameter
    /// (or above it, when longer than a line).
    fn params(&mut self, args: &Args<'_>) {
        let (params, rest) = match args {
            Args::Dict { ty, optional } => {
                self.out.push_str("(self, args: ");
                self.ty(ty);
                if *optional {
                    self.out.push_str(" = ...");
                }
                self.out.push(')');
                return;
            }
            Args::Keywords { params, rest } => (params, rest),
        };
        let rest = rest.as_ref().map(|ty| (rest_name(params), ty));
        let documented = params.iter().any(|p| !p.doc.is_empty());
        if !documented {
            self.out.push_str("(self");
            if !params.is_empty() {
                self.out.push_str(", *");
            }
            for param in params {
                self.out.push_str(", ");
                self.param(param);
            }
            if let Some((name, ty)) = rest {
                let _ = write!(self.out, ", **{name}: ");
                self.ty(ty);
            }
            self.out.push(')');
            return;
        }
        self.out.push_str("(self, *,\n");
        for param in params {
            let trailing = self.doc_above(param.doc, "        # ");
            self.out.push_str("        ");
            self.param(param);
            self.out.push(',');
            if let Some(one) = trailing {
                self.out.push_str("  # ");
                self.out.push_str(&defuse_python(&one));
            }
            self.out.push('\n');
        }
        if let Some((name, ty)) = rest {
            let _ = write!(self.out, "        **{name}: ");
            self.ty(ty);
            self.out.push_str(",\n");
        }
        self.out.push_str("    )");
    }

    /// `name: T`, and ` = ...` when a call may leave it out.
    fn param(&mut self, param: &Field<'_>) {
        self.out.push_str(param.name);
        self.out.push_str(": ");
        self.ty(&param.ty);
        if !param.required {
            self.out.push_str(" = ...");
        }
    }
}

/// The name of the `**` parameter that takes the keys beyond `params`:
/// `kwargs` when there are none, else `extra`, with underscores added
/// until no parameter has it.
fn rest_name(params: &[Field<'_>]) -> String {
    let mut name = if params.is_empty() { "kwargs" } else { "extra" }.to_owned();
    while params.iter().any(|p| p.name == name) {
        name.push('_');
    }
    name
}

/// Whether `name` can be bound in a class body (as a field or a method):
/// a plain member name that no annotation in the module uses, since a
/// binding in a class body hides that name from every annotation after it
/// (a tool named `str`, `Any` or like a generated TypedDict, say).
fn bare_in_class_body(name: &str, module_names: &HashSet<&str>) -> bool {
    is_plain_member(name) && !is_annotation_name(name) && !module_names.contains(name)
}

/// Writes `lines` as a docstring at `indent`, escaped so nothing in it can
/// end the string early: every backslash and double quote is escaped.
/// Nothing is written for no lines.
pub(super) fn docstring(out: &mut String, lines: Vec<Cow<'_, str>>, indent: &str) {
    let Some((first, rest)) = lines.split_first() else {
        return;
    };
    out.push_str(indent);
    out.push_str("\"\"\"");
    push_escaped(out, first);
    if rest.is_empty() {
        out.push_str("\"\"\"\n");
        return;
    }
    out.push('\n');
    // Later lines start at the margin: inside the string the indent would
    // be text, and it costs tokens per line.
    for line in rest {
        push_escaped(out, line);
        out.push('\n');
    }
    out.push_str(indent);
    out.push_str("\"\"\"\n");
}

/// `line` with every backslash and double quote escaped, for a docstring.
fn push_escaped(out: &mut String, line: &str) {
    let mut rest = line;
    while let Some(at) = rest.find(['\\', '"']) {
        out.push_str(&rest[..at]);
        out.push('\\');
        out.push_str(&rest[at..=at]);
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// `text` as a single-quoted Python string literal.
pub(super) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
