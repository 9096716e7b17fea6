//! The prepared catalog: a tool list validated, normalised and lowered once,
//! then printed in each language at most once.

use crate::json::from_value;
use crate::language::Language;
use crate::print::{python, typescript};
use crate::render::Rendered;
use crate::run_code::{RunCodeTool, run_code_tool_for};
use crate::schema::{Degradation, Lowered, ToolSource, lower_tools};
use crate::tool::{ToolDef, name_of, normalize, select};
use crate::tool_list::{Arenas, ToolListError, parse_tool_list, read_tools};
use crate::toolset::Toolset;
use bumpalo::Bump;
use std::sync::OnceLock;

/// A tool list prepared for rendering: duplicates dropped (the first
/// declaration of a name wins) and reported, tools a program may not call
/// left out, the rest sorted by name and every schema lowered once. Each
/// language's SDK is printed on first use and kept, so a host that offers
/// `run_code` on every request, or a build that needs the SDK, the
/// `run_code` definitions and the fingerprint, pays for one render per
/// language.
///
/// The free functions ([`render`](fn@crate::render), [`run_code_tool`](crate::run_code_tool),
/// [`fingerprint`](crate::fingerprint)) give the same texts.
///
/// ```
/// use codemode_core::{Catalog, Language, ToolDef, render};
/// use serde_json::json;
///
/// let tools = vec![
///     ToolDef::new("search", json!({"type": "object", "properties": {"q": {"type": "string"}}})),
///     ToolDef::new("fetch", json!({"type": "object"})).with_description("first"),
///     ToolDef::new("fetch", json!({"type": "object"})).with_description("second"),
/// ];
/// let catalog = Catalog::new(tools.clone());
/// assert_eq!(catalog.duplicates(), ["fetch"]);
/// assert_eq!(catalog.tool_names().collect::<Vec<_>>(), ["fetch", "search"]);
/// assert_eq!(catalog.render(Language::Python), render(Language::Python, &tools));
/// assert!(catalog.run_code_tool(Language::TypeScript).description.contains(catalog.render(Language::TypeScript)));
/// assert_eq!(catalog.fingerprint().len(), 64);
/// ```
#[derive(Debug, Clone)]
pub struct Catalog {
    lowered: Lowered,
    duplicates: Vec<String>,
    tools: Tools,
    typescript: OnceLock<Rendered>,
    python: OnceLock<Rendered>,
    fingerprint: OnceLock<String>,
    /// The tools' words, for [`Catalog::search`], made at the first search.
    words: OnceLock<crate::index::SearchIndex>,
    /// The tools' argument types as a check of programs reads them.
    #[cfg(feature = "check")]
    checked: OnceLock<Lowered>,
    /// [`python_method_aliases`](crate::python_method_aliases) of the
    /// tools, for the check.
    #[cfg(feature = "check")]
    python_aliases: OnceLock<Vec<(String, String)>>,
}

impl Catalog {
    /// Prepares `tools`.
    pub fn new(tools: impl IntoIterator<Item = ToolDef>) -> Self {
        let (kept, duplicates) = program_tools(tools.into_iter().collect());
        Catalog::prepared(lower_defs(&kept), duplicates, Tools::Defs(kept))
    }

    /// Prepares the tool list in `text` (named `source` in errors), read as
    /// [`parse_tool_list`] reads it, and gives the same catalog as
    /// `Catalog::new(parse_tool_list(source, text)?)`. It is the fast way
    /// from a file or a server's answer to an SDK: the schemas are read
    /// straight from the text, not built as `serde_json::Value`s first
    /// ([`tools`](Catalog::tools) builds the definitions when first asked).
    ///
    /// ```
    /// use codemode_core::{Catalog, Language, parse_tool_list};
    ///
    /// let text = r#"{"tools": [{"name": "ping", "inputSchema": {"type": "object"}}]}"#;
    /// let catalog = Catalog::parse("list.json", text).unwrap();
    /// let slow = Catalog::new(parse_tool_list("list.json", text).unwrap());
    /// assert_eq!(catalog.render(Language::Python), slow.render(Language::Python));
    /// assert_eq!(catalog.tools().next().unwrap().name, "ping");
    /// let err = Catalog::parse("list.json", "[1]").unwrap_err();
    /// assert_eq!(err.to_string(), "list.json: tool #0: expected an object, found a number");
    /// ```
    pub fn parse(source: &str, text: impl Into<String>) -> Result<Self, ToolListError> {
        let text: String = text.into();
        let (unshared, duplicates) = {
            let mut arenas = Arenas::for_text(&text);
            let listed = read_tools(source, &text, &mut arenas)?;
            // Every tool read from a list has the default policy: a program
            // calls it.
            let (keep, duplicates) = select(&listed, |tool| tool.name, |_| true);
            let unshared = lower_tools(keep.iter().map(|&i| listed[i].source()));
            (unshared, duplicates)
        };
        // The trees are gone: sharing takes its memory from theirs.
        let lowered = unshared.share();
        let tools = Tools::Text {
            text,
            defs: OnceLock::new(),
        };
        Ok(Catalog::prepared(lowered, duplicates, tools))
    }

    fn prepared(lowered: Lowered, duplicates: Vec<String>, tools: Tools) -> Self {
        Catalog {
            lowered,
            duplicates,
            tools,
            typescript: OnceLock::new(),
            python: OnceLock::new(),
            fingerprint: OnceLock::new(),
            words: OnceLock::new(),
            #[cfg(feature = "check")]
            checked: OnceLock::new(),
            #[cfg(feature = "check")]
            python_aliases: OnceLock::new(),
        }
    }

    fn defs(&self) -> &[ToolDef] {
        match &self.tools {
            Tools::Defs(defs) => defs,
            // The text was read once already, so it reads again.
            Tools::Text { text, defs } => {
                defs.get_or_init(|| program_tools(parse_tool_list("", text).unwrap_or_default()).0)
            }
        }
    }

    /// Prepares the tools `toolset` declares now.
    pub fn from_toolset<T: Toolset + ?Sized>(toolset: &T) -> Self {
        Catalog::new(toolset.defs())
    }

    /// The methods the Python SDK declares for tools whose names cannot be
    /// methods, with their tools, by method.
    #[cfg(feature = "check")]
    pub(crate) fn python_aliases(&self) -> &[(String, String)] {
        self.python_aliases.get_or_init(|| {
            crate::python_method_aliases(self.lowered.tools.iter().map(|t| t.name.as_str()))
                .into_iter()
                .map(|(method, tool)| (method, tool.to_owned()))
                .collect()
        })
    }

    /// The tools' argument types as a check reads them
    /// ([`lower_for_check`](crate::schema::lower_for_check)), on first use.
    #[cfg(feature = "check")]
    pub(crate) fn checked(&self) -> &Lowered {
        self.checked.get_or_init(|| {
            let bump = Bump::new();
            // A `$ref` under a nested `$id` resolves against that resource,
            // which the lowering does not follow: such a tool's arguments
            // are not judged.
            let anything = crate::json::Json::Bool(true);
            crate::schema::lower_for_check(self.defs().iter().map(|tool| {
                let source = source(tool, &bump);
                ToolSource {
                    output: None,
                    input: if crate::schema::has_nested_base(&tool.input_schema) {
                        &anything
                    } else {
                        source.input
                    },
                    ..source
                }
            }))
        })
    }

    /// The tools in the SDK, sorted by name.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &ToolDef> {
        self.defs().iter()
    }

    /// The tools as lowered, sorted by name: their names and descriptions
    /// without building [`ToolDef`]s from the text.
    pub(crate) fn lowered_tools(&self) -> &[crate::schema::LoweredTool] {
        &self.lowered.tools
    }

    /// The named types the lowered tools refer to.
    #[cfg(test)]
    pub(crate) fn lowered_defs(&self) -> &[crate::schema::Def] {
        &self.lowered.defs
    }

    /// The tools' words, made once.
    pub(crate) fn search_index(&self) -> &crate::index::SearchIndex {
        self.words.get_or_init(|| {
            crate::index::SearchIndex::of_tools(&self.lowered.tools, &self.lowered.defs)
        })
    }

    /// The names of the tools in the SDK, sorted.
    pub fn tool_names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.lowered.tools.iter().map(|t| t.name.as_str())
    }

    /// How many tools the SDK declares.
    pub fn len(&self) -> usize {
        self.lowered.tools.len()
    }

    /// Whether the SDK declares no tool.
    pub fn is_empty(&self) -> bool {
        self.lowered.tools.is_empty()
    }

    /// Names declared more than once, sorted; only each one's first
    /// declaration is in the SDK.
    pub fn duplicates(&self) -> &[String] {
        &self.duplicates
    }

    /// The SDK text for a program in `language` (JavaScript and TypeScript
    /// share one).
    pub fn render(&self, language: Language) -> &str {
        &self.rendered(language).text
    }

    /// The SDK text and its degradations.
    pub fn rendered(&self, language: Language) -> &Rendered {
        match language {
            Language::JavaScript | Language::TypeScript => &self.typescript,
            Language::Python => &self.python,
        }
        .get_or_init(|| print(language, &self.lowered, None))
    }

    /// The SDK text of these tools as part of a larger tool set, `among`
    /// (every name in it): in Python, the methods for dashed names are
    /// chosen in that set, as the sandbox serving it chooses them, and the
    /// error class (which the index declares) is left out.
    pub(crate) fn render_among(&self, language: Language, among: &[&str]) -> String {
        print(language, &self.lowered, Some(among)).text
    }

    /// Every schema node that fell to the escape hatch in `language`'s SDK,
    /// sorted by tool and pointer. Python's include TypeScript's, and the
    /// cases only Python cannot express.
    pub fn degradations(&self, language: Language) -> &[Degradation] {
        &self.rendered(language).degradations
    }

    /// The `run_code` tool for a program in `language`, with this SDK.
    pub fn run_code_tool(&self, language: Language) -> RunCodeTool {
        run_code_tool_for(language, self.render(language))
    }

    /// The fingerprint of the tool set, as [`fingerprint`](crate::fingerprint)
    /// computes it.
    pub fn fingerprint(&self) -> &str {
        self.fingerprint.get_or_init(|| {
            crate::render::fingerprint_texts(
                Some(self.render(Language::TypeScript)),
                Some(self.render(Language::Python)),
            )
        })
    }
}

impl From<Vec<ToolDef>> for Catalog {
    fn from(tools: Vec<ToolDef>) -> Self {
        Catalog::new(tools)
    }
}

/// Where a catalog's tool definitions come from.
#[derive(Debug, Clone)]
enum Tools {
    /// Given as definitions: the ones in the SDK, sorted.
    Defs(Vec<ToolDef>),
    /// Read from a tool list's text: built from it when first asked for.
    Text {
        text: String,
        defs: OnceLock<Vec<ToolDef>>,
    },
}

/// The tools an SDK declares, moved out of `tools` ([`normalize`]'s rule),
/// and the names declared more than once.
fn program_tools(tools: Vec<ToolDef>) -> (Vec<ToolDef>, Vec<String>) {
    let (keep, duplicates) = select(&tools, name_of, |tool| tool.policy.from_program());
    let mut slots: Vec<Option<ToolDef>> = tools.into_iter().map(Some).collect();
    let kept = keep
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect();
    (kept, duplicates)
}

/// Lowers the tools an SDK declares ([`normalize`]).
pub(crate) fn lower_borrowed(tools: &[ToolDef]) -> Lowered {
    lower_defs(&normalize(tools))
}

/// Lowers `tools` as given, reading each one's schemas into an arena as
/// the lowering reaches it.
fn lower_defs<T: std::borrow::Borrow<ToolDef>>(tools: &[T]) -> Lowered {
    let unshared = {
        let bump = Bump::new();
        lower_tools(tools.iter().map(|tool| source(tool.borrow(), &bump)))
    };
    unshared.share()
}

/// A tool as the lowering reads it, its schemas read into `bump`.
fn source<'v>(tool: &'v ToolDef, bump: &'v Bump) -> ToolSource<'v> {
    let output = tool.output_schema.as_ref();
    ToolSource {
        name: &tool.name,
        description: tool.description.as_deref(),
        input: bump.alloc(from_value(&tool.input_schema, bump)),
        output: output.map(|schema| &*bump.alloc(from_value(schema, bump))),
        footprint: Default::default(),
    }
}

/// Prints a lowered tool set (part of the tool set `among`, when given,
/// whose index declared the error class: the text then leaves it out).
/// The one place degradations are merged: the lowering's, with those only
/// TypeScript has, or with those of Python's own conversion.
pub(crate) fn print(language: Language, lowered: &Lowered, among: Option<&[&str]>) -> Rendered {
    let error_class = among.is_none();
    match language {
        Language::JavaScript | Language::TypeScript => {
            let (text, printed) = typescript::render(lowered, error_class);
            let mut degradations = lowered.degradations.clone();
            if !lowered.typescript_degradations.is_empty() || !printed.is_empty() {
                degradations.extend(lowered.typescript_degradations.iter().cloned());
                degradations.extend(crate::schema::keep_first_of_each_tool(printed, language));
                degradations.sort();
                degradations.dedup();
            }
            Rendered { text, degradations }
        }
        Language::Python => {
            let own: Vec<&str>;
            let among = match among {
                Some(among) => among,
                None => {
                    own = lowered.tools.iter().map(|t| t.name.as_str()).collect();
                    &own
                }
            };
            let (text, extra) = python::render(lowered, among, error_class);
            let mut degradations = lowered.degradations.clone();
            degradations.extend(crate::schema::keep_first_of_each_tool(extra, language));
            degradations.sort();
            degradations.dedup();
            Rendered { text, degradations }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::sequentially;
    use serde_json::{Value, json};

    #[test]
    fn long_lists_split_across_threads_render_as_one_pass_does() {
        crate::parallel::two_threads();
        // Enough tools, classes and definitions to be split, with shared and
        // clashing definitions, nested objects and names Python must quote;
        // a closed object and a described property in every tool's own
        // type, so that each sharing pass that works per tool has work in
        // both halves.
        let tools: Vec<ToolDef> = (0..150)
            .map(|i| {
                let person = if i % 4 == 0 {
                    json!({"type": "object", "properties": {"id": {"type": "integer"}}})
                } else {
                    json!({"type": "object", "properties": {"name": {"type": "string"}, "next": {"$ref": "#/$defs/Person"}}})
                };
                let mut input = json!({
                    "$defs": {"Person": person},
                    "type": "object",
                    "properties": {
                        "who": {"$ref": "#/$defs/Person"},
                        "opts": {"type": "object", "properties": {"deep": {"type": "boolean", "description": "a\nb"}, "class": {"type": "string"}}},
                        "odd": {"type": "quaternion"},
                        "filter": {"type": "object", "additionalProperties": false, "properties": {"field": {"type": "string"}, "value": {"type": "string"}}},
                        "target": {"type": "string", "description": "The exact reference of the element to act on, from the page snapshot."}
                    },
                    "required": ["who"]
                });
                // A key of its own, so that no two inputs are one shared type
                // and the described property stays in each tool's own type.
                input["properties"][format!("own_{i}")] = json!({"type": "integer"});
                ToolDef::new(
                    if i % 7 == 0 { format!("tool-{i}") } else { format!("tool_{i}") },
                    input,
                )
                .with_description(format!("Tool {i}."))
                .with_output_schema(json!({"type": "array", "items": {"$ref": "#/$defs/Person"}, "$defs": {"Person": {"type": "string"}}}))
            })
            .collect();
        let split = Catalog::new(tools.clone());
        halves_render_as_whole(&split, tools);
        assert!(!split.degradations(Language::Python).is_empty());
    }

    #[test]
    fn shapes_repeated_only_in_the_second_half_are_shared() {
        // The counts of repeated objects and of described properties take
        // each half's tools as soon as that half is hashed; what repeats
        // only among the second half's tools must still be counted.
        crate::parallel::two_threads();
        let tools: Vec<ToolDef> = (0..200)
            .map(|i| {
                let mut input = json!({"type": "object", "properties": {}});
                input["properties"][format!("own_{i}")] = json!({"type": "integer"});
                if i >= 150 {
                    input["properties"]["late"] = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
                    input["properties"]["note"] = json!({"type": "string", "description": "Said only by the later tools, and long enough to earn a name."});
                }
                ToolDef::new(format!("tool_{i:03}"), input)
            })
            .collect();
        let split = Catalog::new(tools.clone());
        let whole = halves_render_as_whole(&split, tools);
        let typescript = text_in(&whole, Language::TypeScript);
        assert!(typescript.contains("type Late = {"), "{typescript}");
        assert!(typescript.contains("type Note = string;"), "{typescript}");
    }

    #[test]
    fn tools_reached_by_subscript_in_both_halves_render_as_one_pass_does() {
        // Python prints the methods in halves; a tool whose name can be no
        // method (`+`) is declared by subscript after all of them, from
        // either half, in name order, as overloads when there are two or
        // more in all (here one in each half).
        crate::parallel::two_threads();
        let tools: Vec<ToolDef> = (0..200)
            .map(|i| {
                let name = if i == 10 || i == 150 {
                    format!("tool_{i:03}+")
                } else {
                    format!("tool_{i:03}")
                };
                ToolDef::new(name, json!({"type": "object"})).with_description(format!("Tool {i}."))
            })
            .collect();
        let split = Catalog::new(tools.clone());
        let whole = halves_render_as_whole(&split, tools);
        let python = text_in(&whole, Language::Python);
        let first = python.find(r#"Literal["tool_010+"]"#);
        let last = python.find(r#"Literal["tool_150+"]"#);
        assert!(first.is_some() && first < last, "{python}");
        assert_eq!(python.matches("    @overload\n").count(), 2, "{python}");
    }

    /// The text in `language` among renders made in [`Language::ALL`]'s
    /// order.
    fn text_in(rendered: &[Rendered], language: Language) -> &str {
        let found = Language::ALL
            .iter()
            .zip(rendered)
            .find(|(l, _)| **l == language);
        found.map_or("", |(_, rendered)| rendered.text.as_str())
    }

    /// Asserts that `split` (made on two threads) renders as a catalog of
    /// `tools` made in one pass does, in each language; gives the latter.
    fn halves_render_as_whole(split: &Catalog, tools: Vec<ToolDef>) -> Vec<Rendered> {
        let whole = sequentially(|| {
            let catalog = Catalog::new(tools);
            Language::ALL.map(|lang| catalog.rendered(lang).clone())
        });
        for (lang, whole) in Language::ALL.into_iter().zip(&whole) {
            assert!(split.rendered(lang) == whole, "{lang:?}: the halves differ");
        }
        whole.into()
    }

    #[test]
    fn a_body_keeps_its_first_degradations_by_place_and_says_there_are_more() {
        // Each tool's schema has 130 properties that cannot be expressed,
        // and names a definition with 120 more: past 100, each body keeps
        // its first 100 by place and one line that says there are more,
        // whatever the order of the keys, in halves or whole.
        crate::parallel::two_threads();
        let props = |count: usize, reversed: bool| -> String {
            let mut keys: Vec<String> = (0..count)
                .map(|i| format!("\"p{i:03}\": {{\"enum\": [{{}}]}}"))
                .collect();
            if reversed {
                keys.reverse();
            }
            keys.join(", ")
        };
        let list = |reversed: bool| -> String {
            let tools: Vec<String> = (0..70)
                .map(|i| {
                    format!(
                        "{{\"name\": \"t{i:02}\", \"inputSchema\": {{\"type\": \"object\", \
                         \"$defs\": {{\"Wide\": {{\"type\": \"object\", \"properties\": {{{}}}}}}}, \
                         \"properties\": {{\"w\": {{\"$ref\": \"#/$defs/Wide\"}}, {}}}}}}}",
                        props(120, reversed),
                        props(130, reversed)
                    )
                })
                .collect();
            format!("[{}]", tools.join(", "))
        };
        let catalog = Catalog::parse("list.json", list(false)).unwrap();
        let reversed = Catalog::parse("list.json", list(true)).unwrap();
        for lang in Language::ALL {
            let found = catalog.degradations(lang);
            assert_eq!(found, reversed.degradations(lang), "{lang:?}");
            let more: Vec<&str> = (found.iter())
                .filter(|d| d.reason.starts_with("more nodes"))
                .map(|d| d.pointer.as_str())
                .collect();
            // One for each tool's schema, one for the definition all share.
            assert_eq!(more.len(), 71, "{lang:?}");
            assert!(more.contains(&"/inputSchema/$defs/Wide"), "{more:?}");
            let t00 = |prefix: &str| {
                (found.iter())
                    .filter(|d| d.tool == "t00" && d.pointer.starts_with(prefix))
                    .count()
            };
            assert_eq!(t00("/inputSchema/properties/p"), 100);
            assert_eq!(t00("/inputSchema/$defs/Wide/properties/p"), 100);
            assert!(found.iter().any(|d| d.pointer.ends_with("/p099/enum/0")));
            assert!(!found.iter().any(|d| d.pointer.ends_with("/p100/enum/0")));
        }
        let tools = parse_tool_list("list.json", &list(false)).unwrap();
        halves_render_as_whole(&Catalog::new(tools.clone()), tools);
    }

    #[test]
    fn degradations_of_one_sdk_do_not_push_out_those_of_both() {
        // 150 properties that only the TypeScript SDK declares wider (an
        // index signature beside keys of another type), and one that
        // neither can express: the Python report keeps that one; TypeScript's
        // keeps its first 100 of its own kind beside it, and says there are
        // more. (Python records the 150 objects' other keys in its own
        // conversion, and keeps the first 100 of those, and a line.)
        let mut props: serde_json::Map<String, Value> = (0..150)
            .map(|i| {
                let wider = json!({"type": "object", "properties": {"k": {"type": "string"}},
                                   "additionalProperties": {"type": "integer"}});
                (format!("o{i:03}"), wider)
            })
            .collect();
        props.insert("z".into(), json!({"enum": [{}]}));
        let catalog = Catalog::new(vec![ToolDef::new(
            "t",
            json!({"type": "object", "properties": props}),
        )]);
        let more = |lang| {
            (catalog.degradations(lang).iter())
                .filter(|d| d.reason.starts_with("more nodes"))
                .count()
        };
        let z =
            |lang| (catalog.degradations(lang).iter()).any(|d| d.pointer.ends_with("/z/enum/0"));
        assert!(z(Language::Python) && z(Language::TypeScript));
        assert_eq!((more(Language::Python), more(Language::TypeScript)), (1, 1));
        assert_eq!(catalog.degradations(Language::TypeScript).len(), 102);
        assert_eq!(catalog.degradations(Language::Python).len(), 102);
    }

    #[test]
    fn python_records_keep_the_first_hundred_of_each_tool() {
        // Keys that `allOf` members type differently: TypeScript declares
        // both, Python records each key (typed Any). 150 in one tool, 3 in
        // another: the first keeps 100 by place and one line saying there
        // are more, at the first it leaves out; the second keeps its 3.
        let conflicts = |n: usize| -> Value {
            let props: serde_json::Map<String, Value> = (0..n)
                .map(|i| {
                    let both = json!({"allOf": [
                        {"type": "object", "properties": {"k": {"type": "string"}}},
                        {"type": "object", "properties": {"k": {"type": "integer"}}}]});
                    (format!("p{i:03}"), both)
                })
                .collect();
            json!({"type": "object", "properties": props})
        };
        let catalog = Catalog::new(vec![
            ToolDef::new("many", conflicts(150)),
            ToolDef::new("few", conflicts(3)),
        ]);
        let python = catalog.degradations(Language::Python);
        let of = |tool: &str| python.iter().filter(|d| d.tool == tool).count();
        assert_eq!((of("many"), of("few")), (101, 3), "{python:#?}");
        let more: Vec<&str> = (python.iter())
            .filter(|d| d.reason.starts_with("more nodes"))
            .map(|d| d.pointer.as_str())
            .collect();
        assert_eq!(more, ["/inputSchema/properties/p100"]);
        assert!(catalog.degradations(Language::TypeScript).is_empty());
    }

    #[test]
    fn intersections_lowered_in_halves_are_those_lowered_whole() {
        // The second half's definitions are numbered anew when the halves
        // are joined, and so are the references its intersections record
        // as binding one kind: `R` here, beside a type that admits null.
        crate::parallel::two_threads();
        let tools: Vec<ToolDef> = (0..200)
            .map(|i| {
                let defs = if i < 100 {
                    json!({format!("First{i}"): {"type": "object", "properties": {"n": {"type": "integer"}}}})
                } else {
                    json!({"R": {"required": ["x"]}})
                };
                let p = if i < 100 {
                    json!({"$ref": format!("#/$defs/First{i}")})
                } else {
                    json!({"type": ["object", "null"], "$ref": "#/$defs/R"})
                };
                ToolDef::new(
                    format!("tool_{i:03}"),
                    json!({"type": "object", "$defs": defs, "properties": {"p": p}}),
                )
            })
            .collect();
        let split = Catalog::new(tools.clone());
        let whole = sequentially(|| Catalog::new(tools).rendered(Language::TypeScript).clone());
        let line = |text: &str| -> String {
            let found = text.lines().find(|l| l.contains("tool_150("));
            found.unwrap_or_default().trim().to_owned()
        };
        assert_eq!(
            line(&split.rendered(Language::TypeScript).text),
            line(&whole.text)
        );
        assert!(
            split.rendered(Language::TypeScript) == &whole,
            "the halves differ"
        );
        assert_eq!(
            line(&whole.text),
            "tool_150(args?: { p?: R & { [key: string]: unknown } | null }): Promise<unknown>;"
        );
    }

    #[test]
    fn open_unions_read_alike_in_halves_and_whole() {
        // Objects whose `anyOf` admits any value beside a reference to a
        // large object list its keys up to one allowance per union, which
        // depends on nothing lowered before it, so the halves decide as one
        // pass does.
        crate::parallel::two_threads();
        let big: serde_json::Map<String, Value> = (0..100)
            .map(|j| (format!("k{j}"), json!({"type": "string"})))
            .collect();
        let small: serde_json::Map<String, Value> = (0..5)
            .map(|j| (format!("s{j}"), json!({"type": "string"})))
            .collect();
        let tools: Vec<ToolDef> = (0..64)
            .map(|i| {
                let props: serde_json::Map<String, Value> = (0..40)
                    .map(|p| {
                        let target = if p % 2 == 0 { "Big" } else { "Small" };
                        let open = json!({"type": "object", "anyOf": [{}, {"$ref": format!("#/$defs/{target}")}]});
                        (format!("p{p}"), open)
                    })
                    .collect();
                let defs = json!({"Big": {"type": "object", "properties": big}, "Small": {"type": "object", "properties": small}});
                ToolDef::new(
                    format!("t{i:03}"),
                    json!({"type": "object", "$defs": defs, "properties": props}),
                )
            })
            .collect();
        let split = Catalog::new(tools.clone());
        let whole = halves_render_as_whole(&split, tools);
        for (lang, whole) in Language::ALL.into_iter().zip(whole) {
            // The small object's keys are listed; the large one's are past
            // the allowance, which is recorded.
            let listed = |key: &str| {
                let text = &whole.text;
                text.contains(&format!("{key}?: unknown"))
                    || text.contains(&format!("{key}: ReadOnly[Any]"))
            };
            assert!(listed("s4") && !listed("k99"), "{}", whole.text);
            assert!(
                whole
                    .degradations
                    .iter()
                    .any(|d| d.reason.contains("did not read every key")),
                "{lang:?}"
            );
        }
    }

    #[test]
    fn members_judged_past_their_allowance_do_not_depend_on_the_rest_of_the_list() {
        // Members that reach a cycle of `allOf` references through keywords
        // without `type` exhaust what judging them may read. Each tool's
        // bodies have an allowance of their own, so 64 equal tools render
        // equal types, one after another and in halves alike.
        crate::parallel::two_threads();
        let defs: serde_json::Map<String, Value> = (0..40)
            .map(|i| {
                let next = json!({"$ref": format!("#/$defs/C{}", (i + 1) % 40)});
                let own = json!({"properties": {format!("c{i}"): {"type": "string"}}});
                (format!("C{i}"), json!({"allOf": [next, own]}))
            })
            .collect();
        let props: serde_json::Map<String, Value> = (0..30)
            .map(|p| {
                let members: Vec<Value> = (0..8)
                    .map(|j| json!({"$ref": format!("#/$defs/C{}", (p + j) % 40)}))
                    .collect();
                (
                    format!("p{p}"),
                    json!({"type": ["string", "object"], "anyOf": members}),
                )
            })
            .collect();
        let input = json!({"type": "object", "$defs": defs, "properties": props});
        let tools: Vec<ToolDef> = (0..64)
            .map(|i| ToolDef::new(format!("t{i:03}"), input.clone()))
            .collect();
        let split = Catalog::new(tools.clone());
        let whole = halves_render_as_whole(&split, tools);
        for (lang, whole) in Language::ALL.into_iter().zip(whole) {
            // Every tool's arguments are one shared type.
            let first = whole.text.lines().find(|l| l.contains("t000("));
            let last = whole.text.lines().find(|l| l.contains("t063("));
            let args = |line: Option<&str>| {
                let line = line.unwrap_or_default();
                line.split_once('(').map(|(_, rest)| rest.to_owned())
            };
            assert_eq!(args(first), args(last), "{lang:?}");
            assert!(args(first).is_some(), "{lang:?}");
        }
    }

    #[test]
    fn a_base_named_above_a_definition_makes_it_another_definition() {
        // Two tools hold the same definition at the same pointer, but in
        // the first a schema above it names a base (`$id`), against which
        // its reference resolves: there the reference is left out, in the
        // second it is followed. They are two definitions, and the second
        // tool's stays exact, in one pass and in halves alike.
        crate::parallel::two_threads();
        let tool = |name: &str, base: bool| {
            let mut p = json!({"$defs": {"X": {"type": "object", "properties": {"q": {"$ref": "#/$defs/Y"}}}}});
            if base {
                p["$id"] = json!("urn:example:p");
            }
            ToolDef::new(
                name,
                json!({"type": "object", "$defs": {"Y": {"type": "string", "description": "A y."}},
                       "properties": {"r": {"$ref": "#/properties/p/$defs/X"}, "p": p}}),
            )
        };
        let mut tools = vec![tool("a_based", true)];
        tools.extend((0..62).map(|i| ToolDef::new(format!("m_{i:02}"), json!({"type": "object"}))));
        tools.push(tool("zz_target", false));
        let split = Catalog::new(tools.clone());
        let whole = halves_render_as_whole(&split, tools);
        let ts = &whole[0].text;
        assert!(ts.contains("type X = { q?: unknown };"), "{ts}");
        assert!(ts.contains("type X2 = { q?: Y };"), "{ts}");
        assert!(
            ts.contains("zz_target(args?: { p?: unknown; r?: X2 })"),
            "{ts}"
        );
    }

    #[test]
    fn long_lists_read_in_halves_are_the_lists_read_whole() {
        crate::parallel::two_threads();
        let tools: Vec<Value> = (0..300)
            .map(|i| {
                json!({
                    "name": format!("tool_{:03}", 300 - i),
                    "description": "words ".repeat(150),
                    "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "enum": [i]}}},
                })
            })
            .collect();
        let text = json!({"tools": tools, "nextCursor": null}).to_string();
        assert!(text.len() > 64 * 4096, "long enough to be read in halves");
        let halves = Catalog::parse("list.json", text.as_str()).unwrap();
        let whole = sequentially(|| Catalog::parse("list.json", text.as_str()).unwrap());
        for lang in Language::ALL {
            assert_eq!(halves.rendered(lang), whole.rendered(lang), "{lang:?}");
        }
        assert_eq!(
            halves.tools().collect::<Vec<_>>(),
            whole.tools().collect::<Vec<_>>()
        );
        // Bad input is reported as a pass over the whole text reports it.
        let mut bad = text.clone();
        bad.insert(text.len() / 2, '\u{1}');
        let tail_bad = format!("{}x", &text[..text.len() - 1]);
        let shape = text.replacen(r#""inputSchema""#, r#""input""#, 2);
        for bad in [bad, tail_bad, shape] {
            let err = Catalog::parse("list.json", bad.as_str()).unwrap_err();
            let one_pass = sequentially(|| Catalog::parse("list.json", bad.as_str()).unwrap_err());
            assert_eq!(err, one_pass);
        }
    }
}
