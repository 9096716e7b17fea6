//! Printers: one per language family, both reading the same lowered IR.

pub(crate) mod comment;
pub(crate) mod inline;
pub(crate) mod python;
pub(crate) mod typescript;
