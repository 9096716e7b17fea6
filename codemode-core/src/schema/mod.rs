//! JSON Schema to the language-neutral type IR.

mod doc;
mod identity;
mod ir;
mod keywords;
mod lower;
mod pointer;
mod share;

#[cfg(test)]
pub(crate) use ir::LENT_PER_PLACE;
pub use ir::{Doc, Extra, Lit, Object, Origin, Prop, Tuple, Ty, union};
pub(crate) use ir::{
    Lent, intersection, lending_defs, lent_through_names, reaches_lender, weight_within,
};
#[cfg(feature = "check")]
pub(crate) use lower::lower_for_check;

/// Whether a subschema below the root of `schema` names a base of its own
/// (`$id`, or draft 4's `id` holding a string), against which the `$ref`s
/// inside it resolve. Walked with a stack, so no depth overflows it.
#[cfg(feature = "check")]
pub(crate) fn has_nested_base(schema: &serde_json::Value) -> bool {
    use serde_json::Value;
    /// Keywords whose value is a schema, or a list of schemas (the maps of
    /// them are `pointer::holds_a_map`'s).
    const ONE: &[&str] = &[
        "additionalProperties",
        "contains",
        "else",
        "if",
        "items",
        "not",
        "propertyNames",
        "then",
        "unevaluatedItems",
        "unevaluatedProperties",
        "additionalItems",
    ];
    const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
    let mut stack: Vec<(&Value, bool)> = vec![(schema, true)];
    while let Some((node, root)) = stack.pop() {
        let Value::Object(map) = node else { continue };
        let base = map.get("$id").is_some() || map.get("id").is_some_and(Value::is_string);
        if base && !root {
            return true;
        }
        for (key, value) in map {
            let key = key.as_str();
            if ONE.contains(&key) && value.is_object() {
                stack.push((value, false));
            }
            if LIST.contains(&key)
                && let Value::Array(items) = value
            {
                stack.extend(items.iter().map(|item| (item, false)));
            }
            if pointer::holds_a_map(key)
                && let Value::Object(entries) = value
            {
                stack.extend(entries.values().map(|item| (item, false)));
            }
        }
    }
    false
}
pub use lower::{Def, Degradation, Lowered, LoweredTool, lower_schema};
pub(crate) use lower::{ToolSource, keep_first_of_each_tool, lower_tools};
pub(crate) use pointer::{for_report, push_segment};
pub(crate) use share::{each_child, reached_defs};
