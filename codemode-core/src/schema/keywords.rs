//! The keywords the lowering reads, found in one pass over a schema object
//! rather than one search per keyword that might be there.

use crate::json::{Fields, Json};

/// A keyword that decides a schema's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kw {
    Ref,
    AllOf,
    AnyOf,
    OneOf,
    Enum,
    Const,
    Type,
    Nullable,
    Properties,
    Required,
    AdditionalProperties,
    PatternProperties,
    Items,
    PrefixItems,
    AdditionalItems,
    MinItems,
    MaxItems,
}

const COUNT: usize = Kw::MaxItems as usize + 1;

impl Kw {
    /// The keyword as a schema spells it.
    pub(super) const fn name(self) -> &'static str {
        match self {
            Kw::Ref => "$ref",
            Kw::AllOf => "allOf",
            Kw::AnyOf => "anyOf",
            Kw::OneOf => "oneOf",
            Kw::Enum => "enum",
            Kw::Const => "const",
            Kw::Type => "type",
            Kw::Nullable => "nullable",
            Kw::Properties => "properties",
            Kw::Required => "required",
            Kw::AdditionalProperties => "additionalProperties",
            Kw::PatternProperties => "patternProperties",
            Kw::Items => "items",
            Kw::PrefixItems => "prefixItems",
            Kw::AdditionalItems => "additionalItems",
            Kw::MinItems => "minItems",
            Kw::MaxItems => "maxItems",
        }
    }

    fn of(key: &str) -> Option<Kw> {
        match Key::of(key) {
            Key::Kw(kw) => Some(kw),
            _ => None,
        }
    }
}

/// What a key of a schema object is to the lowering, found by one `match`
/// (a schema object's keys are read once each, so this is a hot path).
#[derive(Clone, Copy)]
enum Key {
    Kw(Kw),
    Unevaluated,
    Then,
    Else,
    DependentSchemas,
    If,
    Speaks(Speaks),
    DynamicRef,
    Other,
}

impl Key {
    fn of(key: &str) -> Key {
        match key {
            "$ref" => Key::Kw(Kw::Ref),
            "allOf" => Key::Kw(Kw::AllOf),
            "anyOf" => Key::Kw(Kw::AnyOf),
            "oneOf" => Key::Kw(Kw::OneOf),
            "enum" => Key::Kw(Kw::Enum),
            "const" => Key::Kw(Kw::Const),
            "type" => Key::Kw(Kw::Type),
            "nullable" => Key::Kw(Kw::Nullable),
            "properties" => Key::Kw(Kw::Properties),
            "required" => Key::Kw(Kw::Required),
            "additionalProperties" => Key::Kw(Kw::AdditionalProperties),
            "patternProperties" => Key::Kw(Kw::PatternProperties),
            "items" => Key::Kw(Kw::Items),
            "prefixItems" => Key::Kw(Kw::PrefixItems),
            "additionalItems" => Key::Kw(Kw::AdditionalItems),
            "minItems" => Key::Kw(Kw::MinItems),
            "maxItems" => Key::Kw(Kw::MaxItems),
            "then" => Key::Then,
            "else" => Key::Else,
            "dependentSchemas" => Key::DependentSchemas,
            "if" => Key::If,
            "unevaluatedProperties" => Key::Unevaluated,
            "$dynamicRef" | "$recursiveRef" => Key::DynamicRef,
            _ => match speaks(key) {
                Some(speaks) => Key::Speaks(speaks),
                None => Key::Other,
            },
        }
    }
}

/// The JSON Schema dialect a document is read in: the draft its root's
/// `$schema` names, or draft 2020-12, which MCP takes when it names none
/// (or names a schema that is not one of the drafts').
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(super) enum Dialect {
    /// Draft 3, whose keywords differ too much to read (a boolean
    /// `required` on each property, no `anyOf`, `allOf` or `oneOf`): the
    /// SDK admits any value for such a schema.
    Draft3,
    /// Draft 4 (and the unpublished draft 5): no `const`.
    Draft4,
    /// Draft 6: no `if`, `then` or `else`.
    Draft6,
    /// Draft 7: no `dependentSchemas` or `unevaluatedProperties`, and the
    /// keywords beside a `$ref` are not read.
    Draft7,
    /// Draft 2019-09: no `prefixItems`.
    Draft2019,
    #[default]
    Draft2020,
}

impl Dialect {
    /// The dialect of the document whose root is `root`: its `$schema`
    /// must be a draft's meta-schema (`http://json-schema.org/draft-07/schema#`,
    /// over either scheme, with or without `#`, its hyper-schema too).
    pub(super) fn of(root: &Json<'_>) -> Dialect {
        let Json::Object(fields) = root else {
            return Dialect::Draft2020;
        };
        let Some(named) = fields.get("$schema").and_then(Json::as_str) else {
            return Dialect::Draft2020;
        };
        let Some(path) = (named.strip_prefix("https://"))
            .or_else(|| named.strip_prefix("http://"))
            .and_then(|rest| rest.strip_prefix("json-schema.org/"))
        else {
            return Dialect::Draft2020;
        };
        let drafts = [
            ("draft-03/", Dialect::Draft3),
            ("draft-04/", Dialect::Draft4),
            ("draft-05/", Dialect::Draft4),
            ("draft-06/", Dialect::Draft6),
            ("draft-07/", Dialect::Draft7),
            ("draft/2019-09/", Dialect::Draft2019),
        ];
        (drafts.iter())
            .find(|(draft, _)| path.starts_with(draft))
            .map_or(Dialect::Draft2020, |(_, dialect)| *dialect)
    }

    /// Whether the keywords beside a `$ref` apply too: in every dialect
    /// since draft 2019-09, and not in the drafts before it.
    pub(super) fn reads_ref_siblings(self) -> bool {
        self >= Dialect::Draft2019
    }

    /// Whether `dependencies` is a keyword here: before 2019-09, it holds
    /// what `dependentSchemas` and `dependentRequired` hold since, and its
    /// schemas are conditional branches.
    fn has_dependencies(self) -> bool {
        self <= Dialect::Draft7
    }

    /// Whether this dialect reads `key` otherwise than draft 2020-12 does:
    /// one text is then two types.
    pub(super) fn reads_otherwise(self, key: &str) -> bool {
        self != Dialect::Draft2020
            && (!self.knows(key) || (key == "dependencies" && self.has_dependencies()))
    }

    /// Whether `key`, a keyword of draft 2020-12, is one in this dialect
    /// too. One it lacks is no keyword there, and is not read.
    pub(super) fn knows(self, key: &str) -> bool {
        let since = match key {
            "const" | "contains" | "propertyNames" => Dialect::Draft6,
            "if" | "then" | "else" => Dialect::Draft7,
            "dependentSchemas"
            | "dependentRequired"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "minContains"
            | "maxContains"
            | "contentSchema"
            | "$recursiveRef" => Dialect::Draft2019,
            "prefixItems" | "$dynamicRef" => Dialect::Draft2020,
            _ => return true,
        };
        self >= since
    }
}

/// Whether a schema object holds a `$ref` and, beside it, keywords that
/// decide a type (which apply too where [`Dialect::reads_ref_siblings`]).
pub(super) fn beside_a_reference(fields: Fields<'_>) -> bool {
    fields.get(Kw::Ref.name()).is_some()
        && fields
            .iter()
            .any(|(key, _)| Kw::of(key).is_some_and(|kw| kw != Kw::Ref && kw != Kw::Nullable))
}

/// What a keyword that shapes no type says of the kinds a schema means,
/// when it is one of those that count beside object or array keywords
/// without `type`.
#[derive(Clone, Copy)]
enum Speaks {
    /// It constrains strings or numbers, or every value (`not`, `if`): the
    /// schema is about other kinds of value too.
    OtherKinds,
    /// It is about objects only: beside array keywords, objects are meant
    /// too.
    Objects,
    /// It is about arrays only (`minItems`, `maxItems` and
    /// `additionalItems` are read as keywords, and count too): beside object
    /// keywords, arrays are meant too.
    Arrays,
}

fn speaks(key: &str) -> Option<Speaks> {
    Some(match key {
        "minLength" | "maxLength" | "pattern" | "format" | "minimum" | "maximum"
        | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "not" | "if"
        | "contentEncoding" | "contentMediaType" | "contentSchema" => Speaks::OtherKinds,
        "minProperties"
        | "maxProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "propertyNames"
        | "unevaluatedProperties"
        | "dependencies" => Speaks::Objects,
        "uniqueItems" | "contains" | "minContains" | "maxContains" | "unevaluatedItems" => {
            Speaks::Arrays
        }
        _ => return None,
    })
}

/// A conditional subschema (see [`Keywords::branches`]).
pub(super) struct Branch<'v> {
    /// `then`, `else`, `dependentSchemas` or (before 2019-09)
    /// `dependencies`.
    pub(super) keyword: &'static str,
    /// The key a `dependentSchemas` schema depends on.
    pub(super) key: Option<&'v str>,
    pub(super) schema: &'v Json<'v>,
}

/// The values of a schema object's type keywords.
pub(super) struct Keywords<'v> {
    found: [Option<&'v Json<'v>>; COUNT],
    other_kinds: bool,
    more_object: bool,
    more_array: bool,
    dynamic_ref: bool,
    /// `unevaluatedProperties`, read only where `additionalProperties` is
    /// absent.
    unevaluated: Option<&'v Json<'v>>,
    /// `then`, `else` and `dependentSchemas`, whose `properties` name keys
    /// an object may hold beside its own.
    branches: [Option<&'v Json<'v>>; 3],
    /// Whether `if` is present (it evaluates properties too).
    has_if: bool,
    /// Whether the third branch is `dependencies` (before 2019-09), not
    /// `dependentSchemas`.
    dependencies: bool,
    /// The dialect the keywords were read in.
    dialect: Dialect,
}

impl<'v> Keywords<'v> {
    /// The keywords of `fields`, a schema object of a document in
    /// `dialect`: those the dialect lacks are not read.
    pub(super) fn of(fields: Fields<'v>, dialect: Dialect) -> Self {
        let mut found = [None; COUNT];
        let (mut other_kinds, mut more_object, mut more_array) = (false, false, false);
        let mut dynamic_ref = false;
        let (mut unevaluated, mut branches, mut has_if) = (None, [None; 3], false);
        let mut dependencies = false;
        let mut note = |says: Speaks| match says {
            Speaks::OtherKinds => other_kinds = true,
            Speaks::Objects => more_object = true,
            Speaks::Arrays => more_array = true,
        };
        let every = dialect == Dialect::Draft2020;
        for (key, value) in fields.iter() {
            if !every && !dialect.knows(key) {
                continue;
            }
            let role = match Key::of(key) {
                Key::Speaks(Speaks::Objects)
                    if key == "dependencies" && dialect.has_dependencies() =>
                {
                    dependencies = true;
                    Key::DependentSchemas
                }
                role => role,
            };
            match role {
                Key::Kw(kw) => {
                    found[kw as usize] = Some(value);
                    continue;
                }
                Key::Speaks(says) => {
                    note(says);
                    continue;
                }
                Key::DynamicRef => {
                    dynamic_ref = true;
                    continue;
                }
                Key::Other => continue,
                Key::Unevaluated => unevaluated = Some(value),
                Key::Then => branches[0] = Some(value),
                Key::Else => branches[1] = Some(value),
                Key::DependentSchemas => branches[2] = Some(value),
                Key::If => has_if = true,
            }
            // Only the rare keys with a role of their own come here; they
            // may speak of kinds as well.
            if let Some(says) = speaks(key) {
                note(says);
            }
        }
        more_array |= [Kw::MinItems, Kw::MaxItems, Kw::AdditionalItems]
            .iter()
            .any(|kw| found[*kw as usize].is_some());
        Keywords {
            found,
            other_kinds,
            more_object,
            more_array,
            dynamic_ref,
            unevaluated,
            branches,
            has_if,
            dependencies,
            dialect,
        }
    }

    /// The dialect the keywords were read in, for the schemas they hold.
    pub(super) fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// `unevaluatedProperties`, when present.
    pub(super) fn unevaluated_properties(&self) -> Option<&'v Json<'v>> {
        self.unevaluated
    }

    /// The subschemas whose `properties` name more keys of an object:
    /// `then`, `else`, and each schema of `dependentSchemas`.
    pub(super) fn branches(&self) -> Vec<Branch<'v>> {
        let mut out = Vec::new();
        for (keyword, branch) in ["then", "else"].into_iter().zip(&self.branches) {
            if let Some(schema) = branch {
                out.push(Branch {
                    keyword,
                    key: None,
                    schema,
                });
            }
        }
        if let Some(Json::Object(schemas)) = self.branches[2] {
            let keyword = match self.dependencies {
                true => "dependencies",
                false => "dependentSchemas",
            };
            for (key, schema) in schemas.iter() {
                out.push(Branch {
                    keyword,
                    key: Some(key),
                    schema,
                });
            }
        }
        out
    }

    /// Whether `then`, `else` or `dependentSchemas` (or, before 2019-09,
    /// `dependencies`) is present.
    pub(super) fn has_branches(&self) -> bool {
        self.branches.iter().any(Option::is_some)
    }

    /// Whether keywords other than `properties`, `patternProperties` and
    /// `additionalProperties` may evaluate an object's keys: which keys
    /// `unevaluatedProperties` then applies to depends on the value.
    pub(super) fn evaluates_elsewhere(&self) -> bool {
        self.has_any(&[Kw::Ref, Kw::AllOf, Kw::AnyOf, Kw::OneOf])
            || self.has_if
            || self.has_branches()
            || self.dynamic_ref
    }

    /// Whether the schema has a `$dynamicRef` (or 2019-09's
    /// `$recursiveRef`), which the lowering does not follow.
    pub(super) fn dynamic_ref(&self) -> bool {
        self.dynamic_ref
    }

    /// Whether keywords about objects only, or arrays only, are present
    /// beyond those that shape the SDK's types (see [`Speaks`]), as
    /// (objects, arrays).
    pub(super) fn more_kinds(&self) -> (bool, bool) {
        (self.more_object, self.more_array)
    }

    pub(super) fn get(&self, kw: Kw) -> Option<&'v Json<'v>> {
        self.found[kw as usize]
    }

    /// Whether a keyword constrains strings or numbers, or every value
    /// (see [`Speaks::OtherKinds`]).
    pub(super) fn about_other_kinds(&self) -> bool {
        self.other_kinds
    }

    /// Whether the schema constrains nothing the lowering reads: no type
    /// keyword, and none about a kind (only annotations, or nothing).
    pub(super) fn say_nothing(&self) -> bool {
        self.found.iter().all(Option::is_none)
            && !(self.other_kinds || self.more_object || self.more_array)
    }

    /// Whether no keyword that shapes a type is present (others may be).
    pub(super) fn shapes_nothing(&self) -> bool {
        self.found.iter().all(Option::is_none)
    }

    /// Whether keywords other than `properties` may name or type keys of
    /// an object: `$ref`, `allOf`, `anyOf`, `oneOf` or `patternProperties`.
    pub(super) fn keys_elsewhere(&self) -> bool {
        self.has_any(&[
            Kw::Ref,
            Kw::AllOf,
            Kw::AnyOf,
            Kw::OneOf,
            Kw::PatternProperties,
        ])
    }

    /// Whether any of `kws` is present.
    pub(super) fn has_any(&self, kws: &[Kw]) -> bool {
        kws.iter().any(|&kw| self.get(kw).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_reads_back_under_its_name() {
        for i in 0..COUNT {
            let kw = Kw::of(
                [
                    "$ref",
                    "allOf",
                    "anyOf",
                    "oneOf",
                    "enum",
                    "const",
                    "type",
                    "nullable",
                    "properties",
                    "required",
                    "additionalProperties",
                    "patternProperties",
                    "items",
                    "prefixItems",
                    "additionalItems",
                    "minItems",
                    "maxItems",
                ][i],
            )
            .unwrap();
            assert_eq!(kw as usize, i);
            assert_eq!(Kw::of(kw.name()), Some(kw));
        }
        assert_eq!(Kw::of("description"), None);
    }

    /// A dialect is named by a draft's meta-schema, over either scheme,
    /// with or without its fragment; any other `$schema` is 2020-12.
    #[test]
    fn a_dialect_is_named_by_a_drafts_meta_schema() {
        let of = |schema: &str| {
            let bump = bumpalo::Bump::new();
            let value = serde_json::json!({"$schema": schema});
            let root = crate::json::from_value(&value, &bump);
            Dialect::of(&root)
        };
        for (schema, dialect) in [
            ("http://json-schema.org/draft-03/schema#", Dialect::Draft3),
            ("http://json-schema.org/draft-04/schema#", Dialect::Draft4),
            (
                "http://json-schema.org/draft-04/hyper-schema#",
                Dialect::Draft4,
            ),
            ("https://json-schema.org/draft-05/schema", Dialect::Draft4),
            ("http://json-schema.org/draft-06/schema#", Dialect::Draft6),
            ("http://json-schema.org/draft-07/schema#", Dialect::Draft7),
            ("https://json-schema.org/draft-07/schema", Dialect::Draft7),
            (
                "https://json-schema.org/draft/2019-09/schema",
                Dialect::Draft2019,
            ),
            (
                "https://json-schema.org/draft/2020-12/schema",
                Dialect::Draft2020,
            ),
            // Not a draft's meta-schema, though the text names one.
            (
                "https://example.com/schemas/2019-09-30/tool-input.json",
                Dialect::Draft2020,
            ),
            ("https://example.com/draft-07/schema#", Dialect::Draft2020),
            ("draft-04", Dialect::Draft2020),
            ("", Dialect::Draft2020),
        ] {
            assert_eq!(of(schema), dialect, "{schema}");
        }
        let bump = bumpalo::Bump::new();
        let value = serde_json::json!({"type": "object"});
        let unnamed = crate::json::from_value(&value, &bump);
        assert_eq!(Dialect::of(&unnamed), Dialect::Draft2020);
    }
}
