//! JSON Schema to the language-neutral type IR.

mod ir;
mod lower;

pub use ir::{DefId, Doc, Extra, Lit, Object, Origin, Prop, Tuple, Ty, intersection, union};
pub(crate) use lower::pascal_case;
pub use lower::{
    Def, Degradation, Lowered, LoweredTool, MAX_DEPTH, MAX_LIST_NESTING, lower_schema, lower_tools,
};
