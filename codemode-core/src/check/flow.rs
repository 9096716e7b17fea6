//! Whether the code a walk is in certainly runs, shared by both languages'
//! walks: a missing global used where the code may never run is only a
//! warning.

/// How many constructs whose code may never run enclose the walk (function
/// bodies, branches, loops, handlers, short circuits, defaults), and how
/// many statements that leave (`return`, `throw`/`raise`, `break`,
/// `continue`) it has passed outside nested functions.
#[derive(Default)]
pub(super) struct Flow {
    conditional: usize,
    exits: usize,
}

impl Flow {
    /// Whether the code being walked certainly runs.
    pub(super) fn certain(&self) -> bool {
        self.conditional == 0
    }

    /// Notes a statement that leaves: after it, the rest of its list may
    /// not run.
    pub(super) fn exit(&mut self) {
        self.exits += 1;
    }
}

/// A walk that keeps a [`Flow`].
pub(super) trait Flows: Sized {
    fn flow(&mut self) -> &mut Flow;

    /// Walks `f` as code that may not run.
    fn maybe(&mut self, f: impl FnOnce(&mut Self)) {
        self.flow().conditional += 1;
        f(self);
        self.flow().conditional -= 1;
    }

    /// Walks a nested function (or class) with `f`: its code may not run,
    /// and a `return` in it ends only it.
    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        let exits = self.flow().exits;
        self.maybe(f);
        self.flow().exits = exits;
    }

    /// Walks a statement list, `visit` for each; after a statement that may
    /// leave the list, the rest may not run.
    fn in_turn<'l, T>(&mut self, list: &'l [T], mut visit: impl FnMut(&mut Self, &'l T)) {
        let outer = self.flow().conditional;
        for item in list {
            let exits = self.flow().exits;
            visit(self, item);
            let flow = self.flow();
            if flow.exits > exits && flow.conditional == outer {
                flow.conditional += 1;
            }
        }
        self.flow().conditional = outer;
    }
}
