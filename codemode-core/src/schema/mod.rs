//! JSON Schema to the language-neutral type IR.

mod doc;
mod identity;
mod ir;
mod keywords;
mod lower;
mod pointer;
mod share;

pub use ir::{Doc, Extra, Lit, Object, Origin, Prop, Tuple, Ty, union};
#[cfg(feature = "check")]
pub(crate) use lower::lower_for_check;
pub use lower::{Def, Degradation, Lowered, LoweredTool, lower_schema};
pub(crate) use lower::{ToolSource, lower_tools};
