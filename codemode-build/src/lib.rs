//! Renders the Code Mode SDK from a build script into `OUT_DIR`, so the
//! prompt prefix is fixed at compile time.
//!
//! A build script cannot see the crate it builds, so put the tools in their
//! own crate and make it both a dependency and a build-dependency of the app.
//! The build script then calls the same `tool_defs()` the app dispatches to:
//!
//! ```no_run
//! // build.rs
//! # mod my_tools { pub struct Tools; impl codemode_core::Toolset for Tools {
//! #   fn defs(&self) -> Vec<codemode_core::ToolDef> { vec![] }
//! #   async fn call(&self, _: &str, _: serde_json::Value) -> Result<serde_json::Value, codemode_core::ToolCallError> { unreachable!() } }
//! #   impl codemode_core::StaticToolset for Tools { fn tool_defs() -> Vec<codemode_core::ToolDef> { vec![] } } }
//! fn main() {
//!     // On bad input this prints `cargo::error=` lines, which fail the build
//!     // with a clear message; there is nothing more to do with the error.
//!     let _ = codemode_build::Sdk::new().toolset::<my_tools::Tools>().emit();
//! }
//! ```
//!
//! ```text
//! // src/main.rs
//! mod sdk {
//!     codemode::include_sdk!();
//! }
//! println!("{}", sdk::TYPESCRIPT);
//! ```
//!
//! `OUT_DIR/codemode/` then holds `sdk.ts`, `sdk.py` and `sdk.rs`, which
//! defines `TYPESCRIPT`, `JAVASCRIPT`, `PYTHON` (for the languages chosen),
//! `TOOL_NAMES`, `FINGERPRINT`, and the `run_code` tool per language in every
//! provider format (`run_code::python::ANTHROPIC`, `run_code::typescript::MCP`, ...).
//!
//! # Tools of MCP servers
//!
//! An MCP server's tools live in another process, but their SDK can be
//! fixed at compile time too: vendor the server's `tools/list` with
//! `codemode snapshot --config mcp.json --out snapshots`, and add it with
//! [`Sdk::mcp_snapshot`]. Its tools join the SDK (under the same prefix an
//! `McpToolset` gives them), and `sdk.rs` gains a module per server,
//! `mcp::<name>`, with `NAME`, `PREFIX`, `SNAPSHOT` and `FINGERPRINT`. Pin the
//! live server to them, so drift is caught at connect:
//!
//! ```text
//! use sdk::mcp::github;
//! let pin = Pin::new("github", github::SNAPSHOT, github::FINGERPRINT)?.with_prefix(github::PREFIX);
//! let tools = McpToolset::builder().servers(&config).pin("github", pin).connect().await?;
//! ```
//!
//! # Without a build-dependency
//!
//! Teams that want every prompt change in code review, or cannot add a
//! build-dependency, can check the rendered text in and keep it current with
//! [`assert_fresh`] in a test.
//!
//! A third way is to compile the tools module into the build script too,
//! with `#[path = "src/tools.rs"] mod tools;` in `build.rs`. It works for a
//! self-contained module, but: the module is compiled twice; everything it
//! uses must also be a build-dependency; `crate::` paths inside it point at
//! the build script, not the app; and it cannot use the rest of the app's
//! code. A separate tools crate has none of these problems.

#![warn(missing_docs)]

use codemode_core::{
    Catalog, Degradation, Language, StaticToolset, ToolDef, ToolFormat, fingerprint,
    fingerprint_texts, parse_tool_list, server_prefix,
};
use std::fmt::{self, Write as _};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why the SDK could not be emitted. Its `Display` is one line per problem.
#[derive(Debug)]
pub enum Error {
    /// `OUT_DIR` is not set: `emit` is meant to run inside a build script.
    NoOutDir,
    /// A tool's declaration is unusable (an empty name, say).
    BadTool(String),
    /// Degradations were found and [`Sdk::deny_degradations`] was set.
    Degraded(Vec<Degradation>),
    /// Writing a file failed.
    Io(PathBuf, std::io::Error),
    /// An MCP snapshot cannot be read or used; the message names the file.
    Snapshot(String),
    /// [`check_fresh`] found the file missing (`existed: false`) or stale,
    /// and has rewritten it.
    Stale {
        /// The file.
        path: PathBuf,
        /// Whether there was a file before.
        existed: bool,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoOutDir => {
                f.write_str("OUT_DIR is not set: call emit() from a build script, or use emit_to()")
            }
            Error::BadTool(message) => f.write_str(message),
            Error::Degraded(list) => {
                write!(
                    f,
                    "{} schema node(s) could not be typed and degradations are denied",
                    list.len()
                )
            }
            Error::Io(path, e) => write!(f, "{}: {e}", path.display()),
            Error::Snapshot(message) => f.write_str(message),
            Error::Stale { path, existed } => {
                let what = if *existed {
                    "was stale"
                } else {
                    "did not exist"
                };
                write!(
                    f,
                    "{} {what} and has been rewritten: review the change and commit it",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for Error {}

/// The rendered texts, before anything is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Artifacts {
    /// The TypeScript SDK (also the JavaScript one), if TypeScript or JavaScript was chosen.
    pub typescript: Option<String>,
    /// The Python SDK, if Python was chosen.
    pub python: Option<String>,
    /// Every tool's name, sorted.
    pub tool_names: Vec<String>,
    /// SHA-256 of the rendered texts, in hex: equal for equal tool sets on
    /// every machine and platform.
    pub fingerprint: String,
    /// Every schema node that fell to the escape hatch, in any language.
    pub degradations: Vec<Degradation>,
    /// Tool names declared more than once, sorted: the SDK keeps each
    /// one's first declaration, and `emit` warns about the rest.
    pub duplicates: Vec<String>,
    /// The MCP servers pinned by [`Sdk::mcp_snapshot`], in name order.
    pub mcp: Vec<PinnedServer>,
}

/// An MCP server's vendored tool list, as [`Sdk::mcp_snapshot`] takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpSnapshot {
    name: String,
    path: PathBuf,
    prefix: Option<String>,
}

impl McpSnapshot {
    /// The snapshot of server `name` (its key in `mcpServers`) in the file
    /// at `path`, relative to the package root: a `tools/list` result, as
    /// `codemode snapshot` writes it.
    pub fn new(name: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        McpSnapshot {
            name: name.into(),
            path: path.into(),
            prefix: None,
        }
    }

    /// The prefix of the server's tools. By default it follows the rule of
    /// `McpToolset`: none when this is the only snapshot, else the server's
    /// name and `_` ([`codemode_core::server_prefix`]).
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }
}

/// A pinned MCP server, as rendered.
#[derive(Debug, Clone, PartialEq)]
pub struct PinnedServer {
    /// The server's name.
    pub name: String,
    /// The module `sdk.rs` declares for it (`mcp::<module>`).
    pub module: String,
    /// The prefix of its tools in the SDK.
    pub prefix: String,
    /// The snapshot's text, as read.
    pub snapshot: String,
    /// The fingerprint of its tools, in its own names
    /// ([`codemode_core::fingerprint`]): what `Pin::new` checks.
    pub fingerprint: String,
    /// Its tools, in its own names.
    pub tools: Vec<ToolDef>,
}

/// Builds the SDK constants of a tool set, in the style of `prost-build`.
///
/// ```
/// use codemode_build::Sdk;
/// use codemode_core::{Language, ToolDef};
/// use serde_json::json;
///
/// let sdk = Sdk::new()
///     .tools(vec![ToolDef::new("ping", json!({"type": "object"})).with_description("Ping.")])
///     .languages([Language::Python]);
/// let artifacts = sdk.render().unwrap();
/// assert!(artifacts.typescript.is_none());
/// assert!(artifacts.python.unwrap().contains("async def ping(self"));
/// assert_eq!(artifacts.fingerprint.len(), 64);
/// ```
#[derive(Debug, Clone)]
pub struct Sdk {
    tools: Vec<ToolDef>,
    snapshots: Vec<McpSnapshot>,
    languages: Vec<Language>,
    deny_degradations: bool,
    rerun_if_changed: Vec<PathBuf>,
    budget: Option<usize>,
}

impl Default for Sdk {
    fn default() -> Self {
        Sdk::new()
    }
}

impl Sdk {
    /// An empty builder for every language.
    pub fn new() -> Self {
        Sdk {
            tools: Vec::new(),
            snapshots: Vec::new(),
            languages: Language::ALL.to_vec(),
            deny_degradations: false,
            rerun_if_changed: vec![PathBuf::from("build.rs")],
            budget: None,
        }
    }

    /// Adds every tool of a [`StaticToolset`] (one whose tools are fixed at
    /// compile time: `#[toolset]` or `tools!`).
    pub fn toolset<T: StaticToolset>(mut self) -> Self {
        self.tools.extend(T::tool_defs());
        self
    }

    /// Adds tools given as declarations (from an MCP server, say).
    pub fn tools(mut self, tools: Vec<ToolDef>) -> Self {
        self.tools.extend(tools);
        self
    }

    /// Adds the tools of an MCP server from its vendored `tools/list`
    /// snapshot, and declares `mcp::<name>` constants for it (see the crate
    /// documentation). The file also reruns the build when it changes.
    pub fn mcp_snapshot(mut self, snapshot: McpSnapshot) -> Self {
        self.rerun_if_changed.push(snapshot.path.clone());
        self.snapshots.push(snapshot);
        self
    }

    /// Reads the snapshots: each server, and every tool with its prefix.
    fn pinned(&self) -> Result<(Vec<PinnedServer>, Vec<ToolDef>), Error> {
        let mut servers: Vec<PinnedServer> = Vec::new();
        let mut tools = self.tools.clone();
        let single = self.snapshots.len() == 1;
        let mut snapshots: Vec<&McpSnapshot> = self.snapshots.iter().collect();
        snapshots.sort_by(|a, b| a.name.cmp(&b.name));
        for snapshot in snapshots {
            let source = snapshot.path.display().to_string();
            let text = std::fs::read_to_string(&snapshot.path)
                .map_err(|e| Error::Snapshot(format!("{source}: cannot read: {e}")))?;
            let listed =
                parse_tool_list(&source, &text).map_err(|e| Error::Snapshot(e.to_string()))?;
            let module = module_name(&snapshot.name);
            if let Some(other) = servers
                .iter()
                .find(|s| s.name == snapshot.name || s.module == module)
            {
                return Err(Error::Snapshot(format!(
                    "MCP servers {:?} and {:?} would share the module `mcp::{module}`: rename one",
                    other.name, snapshot.name
                )));
            }
            let prefix = server_prefix(&snapshot.name, snapshot.prefix.as_deref(), single);
            tools.extend(listed.iter().map(|t| ToolDef {
                name: format!("{prefix}{}", t.name),
                ..t.clone()
            }));
            servers.push(PinnedServer {
                name: snapshot.name.clone(),
                module,
                prefix,
                fingerprint: fingerprint(&listed),
                snapshot: text,
                tools: listed,
            });
        }
        Ok((servers, tools))
    }

    /// The languages to render (all by default).
    pub fn languages(mut self, languages: impl IntoIterator<Item = Language>) -> Self {
        self.languages = languages.into_iter().collect();
        self
    }

    /// Keeps each `run_code` description within `tokens` (as
    /// `codemode::estimate_tokens` counts them): past it, the SDK constants
    /// and the `run_code` tools carry an index of the tools, and `sdk.rs`
    /// gains every tool's declaration (`TYPESCRIPT_DECLARATIONS`,
    /// `PYTHON_DECLARATIONS`), the texts `catalog.describe` answers with at
    /// run time.
    pub fn budget(mut self, tokens: usize) -> Self {
        self.budget = Some(tokens);
        self
    }

    /// Makes any degradation an error (`cargo::error=`) instead of a warning.
    pub fn deny_degradations(mut self, deny: bool) -> Self {
        self.deny_degradations = deny;
        self
    }

    /// The files whose change must rerun the build script (`build.rs` by
    /// default). A change in a dependency, such as the tools crate, reruns it
    /// anyway, because cargo rebuilds the script.
    pub fn rerun_if_changed(mut self, paths: impl IntoIterator<Item = impl Into<PathBuf>>) -> Self {
        self.rerun_if_changed = paths.into_iter().map(Into::into).collect();
        self
    }

    /// Renders everything without writing anything.
    pub fn render(&self) -> Result<Artifacts, Error> {
        Ok(self.prepare()?.0)
    }

    /// Reads the snapshots, checks the names, and renders once through a
    /// catalog, which `emit_to` goes on to ask for the `run_code` tools.
    fn prepare(&self) -> Result<(Artifacts, Catalog), Error> {
        let (mcp, tools) = self.pinned()?;
        for (index, tool) in tools.iter().enumerate() {
            if let Err(problem) = codemode_core::check_tool_name(&tool.name) {
                return Err(Error::BadTool(format!(
                    "tool #{index} ({:?}): {problem}",
                    tool.name
                )));
            }
        }
        let catalog = Catalog::new(tools);
        let wants = |langs: &[Language]| self.languages.iter().any(|l| langs.contains(l));
        let mut degradations = Vec::new();
        let mut render = |lang| {
            let out = catalog.rendered(lang);
            degradations.extend(out.degradations.iter().cloned());
            out.text.clone()
        };
        let typescript = wants(&[Language::TypeScript, Language::JavaScript])
            .then(|| render(Language::TypeScript));
        let python = wants(&[Language::Python]).then(|| render(Language::Python));
        degradations.sort();
        degradations.dedup();
        let artifacts = Artifacts {
            tool_names: catalog.tool_names().map(str::to_owned).collect(),
            fingerprint: fingerprint_texts(typescript.as_deref(), python.as_deref()),
            typescript,
            python,
            degradations,
            duplicates: catalog.duplicates().to_vec(),
            mcp,
        };
        Ok((artifacts, catalog))
    }

    /// Writes `OUT_DIR/codemode/{sdk.ts, sdk.py, sdk.rs}` and prints cargo
    /// directives: `rerun-if-changed`, a warning per degradation, and an
    /// error per problem. Call it from a build script.
    pub fn emit(&self) -> Result<(), Error> {
        let mut out = std::io::stdout().lock();
        let result = match std::env::var_os("OUT_DIR") {
            Some(dir) => self.emit_to(Path::new(&dir), &mut out),
            None => Err(Error::NoOutDir),
        };
        if let Err(e) = &result
            && !matches!(e, Error::Degraded(_))
        {
            let _ = writeln!(
                out,
                "cargo::error=codemode-build: {}",
                one_line(&e.to_string())
            );
        }
        result
    }

    /// Like [`Sdk::emit`], into `out_dir/codemode/`, with the directives
    /// written to `directives`.
    pub fn emit_to(&self, out_dir: &Path, directives: &mut impl Write) -> Result<(), Error> {
        for path in &self.rerun_if_changed {
            let _ = writeln!(directives, "cargo::rerun-if-changed={}", path.display());
        }
        // The snapshots are read once, and each language rendered once.
        let (artifacts, catalog) = self.prepare()?;
        self.report(&artifacts, directives)?;
        let dir = out_dir.join("codemode");
        std::fs::create_dir_all(&dir).map_err(|e| Error::Io(dir.clone(), e))?;
        for (file, text) in self.files(&artifacts, &catalog) {
            let path = dir.join(file);
            write_if_changed(&path, &text).map_err(|e| Error::Io(path, e))?;
        }
        Ok(())
    }

    /// Prints a directive per duplicate name and per degradation; denied
    /// degradations are an error.
    fn report(&self, artifacts: &Artifacts, directives: &mut impl Write) -> Result<(), Error> {
        for name in &artifacts.duplicates {
            let _ = writeln!(
                directives,
                "cargo::warning=codemode: tool {name:?} is declared more than once; the SDK keeps its first declaration",
            );
        }
        let level = if self.deny_degradations {
            "error"
        } else {
            "warning"
        };
        for d in &artifacts.degradations {
            let _ = writeln!(
                directives,
                "cargo::{level}=codemode: tool {:?} at {}: {} (rendered as the escape hatch)",
                d.tool,
                d.pointer,
                one_line(&d.reason)
            );
        }
        if self.deny_degradations && !artifacts.degradations.is_empty() {
            return Err(Error::Degraded(artifacts.degradations.clone()));
        }
        Ok(())
    }

    /// Every file under `OUT_DIR/codemode/`, by name, `sdk.rs` last: a pure
    /// step from the rendered texts to Rust source.
    fn files(&self, artifacts: &Artifacts, catalog: &Catalog) -> Vec<(String, String)> {
        let mut files = Vec::new();
        // Every item allows dead code: an app rarely uses every constant.
        let mut rs = String::from("// Generated by codemode-build. Do not edit.\n\n");
        // Within a budget, the SDK in the prompt may be an index.
        let within = |lang: Language, full: &String| match self.budget {
            Some(budget) => catalog.render_within(lang, budget).into_owned(),
            None => full.clone(),
        };
        if let Some(ts) = &artifacts.typescript {
            files.push(("sdk.ts".to_owned(), within(Language::TypeScript, ts)));
            rs.push_str("/// The TypeScript SDK, for the `run_code` description.\n#[allow(dead_code)]\npub const TYPESCRIPT: &str = include_str!(\"sdk.ts\");\n");
            rs.push_str("/// The JavaScript SDK: the same text as [`TYPESCRIPT`].\n#[allow(dead_code)]\npub const JAVASCRIPT: &str = TYPESCRIPT;\n");
        }
        if let Some(py) = &artifacts.python {
            files.push(("sdk.py".to_owned(), within(Language::Python, py)));
            rs.push_str("/// The Python SDK (a stub module), for the `run_code` description.\n#[allow(dead_code)]\npub const PYTHON: &str = include_str!(\"sdk.py\");\n");
        }
        // The run_code tool per chosen language, in every provider format.
        let mut languages = self.languages.clone();
        languages.sort();
        languages.dedup();
        rs.push_str(
            "\n/// The `run_code` tool definitions, one module per language.\n#[allow(dead_code)]\npub mod run_code {\n",
        );
        for lang in languages.iter().copied() {
            let tool = match self.budget {
                Some(budget) => catalog.run_code_tool_within(lang, budget),
                None => catalog.run_code_tool(lang),
            };
            let _ = writeln!(
                rs,
                "    /// `run_code` for {lang} programs.\n    pub mod {} {{",
                lang.as_str()
            );
            let file = format!("run_code.{}.txt", lang.as_str());
            let _ = writeln!(
                rs,
                "        /// The tool description: instructions, then the SDK.\n        pub const DESCRIPTION: &str = include_str!({file:?});"
            );
            files.push((file, tool.description.clone()));
            for format in ToolFormat::ALL {
                let file = format!("run_code.{}.{}.json", lang.as_str(), format.as_str());
                let json = serde_json::to_string_pretty(&tool.to_format(format))
                    .unwrap_or_default()
                    + "\n";
                let constant = format.as_str().to_uppercase().replace('-', "_");
                let _ = writeln!(
                    rs,
                    "        /// The tool as {} JSON.\n        pub const {constant}: &str = include_str!({file:?});",
                    format.as_str()
                );
                files.push((file, json));
            }
            rs.push_str("    }\n");
        }
        rs.push_str("}\n\n");
        // Each tool's declaration, as the index's `describe` gives it.
        if self.budget.is_some() {
            for (lang, constant) in [
                (Language::TypeScript, "TYPESCRIPT_DECLARATIONS"),
                (Language::Python, "PYTHON_DECLARATIONS"),
            ] {
                let chosen = match lang {
                    Language::Python => artifacts.python.is_some(),
                    _ => artifacts.typescript.is_some(),
                };
                if !chosen {
                    continue;
                }
                let _ = writeln!(
                    rs,
                    "/// Every tool's declaration in {lang}, by name: what `catalog.describe` answers for it.\n#[allow(dead_code)]\npub const {constant}: &[(&str, &str)] = &["
                );
                for name in catalog.tool_names() {
                    let _ = writeln!(rs, "    ({name:?}, {:?}),", catalog.describe(lang, &[name]));
                }
                rs.push_str("];\n\n");
            }
        }
        let names: Vec<String> = artifacts
            .tool_names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect();
        let _ = write!(
            rs,
            "/// Every tool's name, sorted.\n#[allow(dead_code)]\npub const TOOL_NAMES: &[&str] = &[{}];\n\
             /// SHA-256 of the SDK texts: equal for equal tool sets on every machine.\n#[allow(dead_code)]\npub const FINGERPRINT: &str = {:?};\n",
            names.join(", "),
            artifacts.fingerprint
        );
        if !artifacts.mcp.is_empty() {
            rs.push_str("\n/// The MCP servers whose tool lists are pinned, one module each.\n#[allow(dead_code)]\npub mod mcp {\n");
            for server in &artifacts.mcp {
                let file = format!("mcp.{}.json", server.module);
                let _ = write!(
                    rs,
                    "    /// The MCP server {name:?}: {count} tools, pinned.\n    pub mod {module} {{\n\
                     \x20       /// The server's name in `mcpServers`.\n        pub const NAME: &str = {name:?};\n\
                     \x20       /// The prefix of its tools in the SDK.\n        pub const PREFIX: &str = {prefix:?};\n\
                     \x20       /// Its vendored `tools/list` snapshot.\n        pub const SNAPSHOT: &str = include_str!({file:?});\n\
                     \x20       /// The fingerprint of its tools, for `Pin::new`.\n        pub const FINGERPRINT: &str = {fingerprint:?};\n    }}\n",
                    name = server.name,
                    count = server.tools.len(),
                    module = server.module,
                    prefix = server.prefix,
                    fingerprint = server.fingerprint,
                );
                files.push((file, server.snapshot.clone()));
            }
            rs.push_str("}\n");
        }
        files.push(("sdk.rs".to_owned(), rs));
        files
    }
}

/// A Rust module name for a server: lowercase ASCII, digits and `_`, never
/// a keyword or starting with a digit.
fn module_name(server: &str) -> String {
    let mut name: String = server
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert_str(0, "server_");
    }
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod",
        "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
        "true", "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do",
        "final", "macro", "override", "priv", "try", "typeof", "unsized", "virtual", "yield", "_",
    ];
    if KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// Writes only when the content differs, so an unchanged SDK keeps its
/// modification time and nothing downstream rebuilds.
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    std::fs::write(path, text)
}

/// A cargo directive must be one line.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// Keeps a checked-in copy of a prompt current, from a test: when the file
/// at `path` does not hold exactly `text`, it is rewritten and the test
/// fails, so the change shows up in review.
///
/// ```no_run
/// # let rendered = String::new();
/// codemode_build::assert_fresh("prompts/sdk.ts", &rendered);
/// ```
///
/// # Panics
///
/// When the file was missing or stale (after rewriting it), or cannot be written.
#[track_caller]
pub fn assert_fresh(path: impl AsRef<Path>, text: &str) {
    if let Err(error) = check_fresh(path.as_ref(), text) {
        panic!("{error}");
    }
}

/// The non-panicking form of [`assert_fresh`]: [`Error::Stale`] when the
/// file was missing or stale and has been rewritten, [`Error::Io`] when it
/// cannot be written.
pub fn check_fresh(path: &Path, text: &str) -> Result<(), Error> {
    match std::fs::read(path) {
        Ok(old) if old == text.as_bytes() => Ok(()),
        old => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| Error::Io(parent.to_owned(), e))?;
            }
            std::fs::write(path, text).map_err(|e| Error::Io(path.to_owned(), e))?;
            Err(Error::Stale {
                path: path.to_owned(),
                existed: old.is_ok(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use codemode_core::ToolDef;
    use serde_json::json;

    fn tools() -> Vec<ToolDef> {
        vec![
            ToolDef::new("b", json!({"properties": {"x": {"type": "string"}}}))
                .with_description("B."),
            ToolDef::new("a", json!({"properties": {"y": {"type": "integer"}}}))
                .with_description("A."),
            ToolDef::new("c", json!({"properties": {"z": {"type": "quaternion"}}})),
        ]
    }

    #[test]
    fn fingerprint_ignores_declaration_order() {
        let one = Sdk::new().tools(tools()).render().unwrap();
        let mut reversed = tools();
        reversed.reverse();
        let two = Sdk::new().tools(reversed).render().unwrap();
        assert_eq!(one.fingerprint, two.fingerprint);
        assert_eq!(one.tool_names, ["a", "b", "c"]);
        let other = Sdk::new().tools(tools()[..2].to_vec()).render().unwrap();
        assert_ne!(one.fingerprint, other.fingerprint);
    }

    #[test]
    fn a_budget_puts_an_index_and_every_declaration_in_the_constants() {
        let dir =
            std::env::temp_dir().join(format!("codemode-build-budget-{}", std::process::id()));
        let mut directives = Vec::new();
        Sdk::new()
            .tools(tools())
            .budget(10)
            .emit_to(&dir, &mut directives)
            .unwrap();
        let read = |f: &str| std::fs::read_to_string(dir.join("codemode").join(f)).unwrap();
        let catalog = Catalog::new(tools());
        assert_eq!(
            read("sdk.ts"),
            catalog.index(Language::TypeScript, codemode_core::Fit::Groups)
        );
        assert!(read("run_code.python.txt").contains("catalog.describe"));
        let rs = read("sdk.rs");
        let declaration = catalog.describe(Language::Python, &["a"]);
        assert!(rs.contains(&format!("(\"a\", {declaration:?}),")), "{rs}");
        assert!(rs.contains("pub const TYPESCRIPT_DECLARATIONS: &[(&str, &str)] = &["));
        // Without a budget, neither.
        Sdk::new()
            .tools(tools())
            .emit_to(&dir, &mut directives)
            .unwrap();
        assert_eq!(read("sdk.ts"), catalog.render(Language::TypeScript));
        assert!(!read("sdk.rs").contains("DECLARATIONS"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn fingerprint_is_a_known_value() {
        use sha2::{Digest, Sha256};
        // Pinned: equal on every platform and run. It changes only when the
        // rendered text does (then update it along with the goldens).
        let sdk = Sdk::new()
            .tools(vec![])
            .languages([Language::TypeScript])
            .render()
            .unwrap();
        let mut hasher = Sha256::new();
        hasher.update(b"typescript\0");
        hasher.update(codemode_core::render(Language::TypeScript, &[]).as_bytes());
        hasher.update([0]);
        let expected: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(sdk.fingerprint, expected);
    }

    #[test]
    fn emits_files_constants_and_warnings() {
        let dir = std::env::temp_dir().join(format!("codemode-build-test-{}", std::process::id()));
        let mut directives = Vec::new();
        Sdk::new()
            .tools(tools())
            .emit_to(&dir, &mut directives)
            .unwrap();
        let directives = String::from_utf8(directives).unwrap();
        assert!(
            directives.starts_with("cargo::rerun-if-changed=build.rs\n"),
            "{directives}"
        );
        assert!(
            directives.contains(r#"cargo::warning=codemode: tool "c" at /inputSchema/properties/z: unknown type "quaternion""#),
            "{directives}"
        );
        let rs = std::fs::read_to_string(dir.join("codemode/sdk.rs")).unwrap();
        assert!(
            rs.contains(r#"pub const TOOL_NAMES: &[&str] = &["a", "b", "c"];"#),
            "{rs}"
        );
        assert!(rs.contains("pub const PYTHON: &str = include_str!(\"sdk.py\");"));
        let ts = std::fs::read_to_string(dir.join("codemode/sdk.ts")).unwrap();
        assert_eq!(ts, codemode_core::render(Language::TypeScript, &tools()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn denied_degradations_are_errors() {
        let dir = std::env::temp_dir().join(format!("codemode-build-deny-{}", std::process::id()));
        let mut directives = Vec::new();
        let err = Sdk::new()
            .tools(tools())
            .deny_degradations(true)
            .emit_to(&dir, &mut directives)
            .unwrap_err();
        assert!(matches!(err, Error::Degraded(ref list) if list.len() == 1));
        assert!(
            String::from_utf8(directives)
                .unwrap()
                .contains("cargo::error=codemode: tool \"c\"")
        );
        assert!(!dir.join("codemode/sdk.rs").exists());
    }

    #[test]
    fn mcp_snapshots_join_the_sdk_with_their_own_constants() {
        let dir = std::env::temp_dir().join(format!("codemode-build-mcp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let snapshot = r#"{"tools": [{"name": "read", "description": "Read a file.", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}]}"#;
        std::fs::write(dir.join("files.json"), snapshot).unwrap();
        std::fs::write(
            dir.join("gh.json"),
            r#"[{"name": "search", "inputSchema": {}}]"#,
        )
        .unwrap();
        let sdk = Sdk::new()
            .tools(tools())
            .mcp_snapshot(McpSnapshot::new("files", dir.join("files.json")))
            .mcp_snapshot(McpSnapshot::new("type", dir.join("gh.json")).prefix("gh_"));
        let artifacts = sdk.render().unwrap();
        assert_eq!(
            artifacts.tool_names,
            ["a", "b", "c", "files_read", "gh_search"]
        );
        assert!(
            artifacts
                .typescript
                .unwrap()
                .contains(r#"files_read(args: { path: string })"#)
        );
        let files = &artifacts.mcp[0];
        assert_eq!(
            (files.prefix.as_str(), files.module.as_str()),
            ("files_", "files")
        );
        assert_eq!(
            files.fingerprint,
            fingerprint(&parse_tool_list("", snapshot).unwrap())
        );
        assert_eq!(artifacts.mcp[1].module, "type_");

        let mut directives = Vec::new();
        sdk.emit_to(&dir, &mut directives).unwrap();
        let rs = std::fs::read_to_string(dir.join("codemode/sdk.rs")).unwrap();
        assert!(rs.contains("pub mod files {"), "{rs}");
        assert!(
            rs.contains(&format!(
                "pub const FINGERPRINT: &str = {:?};",
                files.fingerprint
            )),
            "{rs}"
        );
        assert!(
            rs.contains(r#"pub const SNAPSHOT: &str = include_str!("mcp.files.json");"#),
            "{rs}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("codemode/mcp.files.json")).unwrap(),
            snapshot
        );
        let directives = String::from_utf8(directives).unwrap();
        assert!(directives.contains(&format!(
            "cargo::rerun-if-changed={}",
            dir.join("gh.json").display()
        )));
        let run_code =
            std::fs::read_to_string(dir.join("codemode/run_code.typescript.txt")).unwrap();
        assert!(run_code.contains("  gh_search(args"));

        // A single snapshot gets no prefix; a bad one is an error naming the file.
        let one = Sdk::new()
            .mcp_snapshot(McpSnapshot::new("files", dir.join("files.json")))
            .render()
            .unwrap();
        assert_eq!(one.tool_names, ["read"]);
        std::fs::write(dir.join("bad.json"), r#"{"tools": [{"name": 1}]}"#).unwrap();
        let err = Sdk::new()
            .mcp_snapshot(McpSnapshot::new("bad", dir.join("bad.json")))
            .render()
            .unwrap_err();
        assert!(
            err.to_string()
                .ends_with("bad.json: tool #0: `name` must be a string, found a number"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_tools_are_errors_not_panics() {
        let err = Sdk::new()
            .tools(vec![ToolDef::new("", json!({}))])
            .render()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool #0 (\"\"): a tool name cannot be empty"
        );
        let err = Sdk::new()
            .tools(vec![ToolDef::new("a\nb", json!({}))])
            .render()
            .unwrap_err();
        assert!(err.to_string().contains("control character"));
    }

    #[test]
    fn fresh_files_pass_and_stale_ones_are_rewritten() {
        let path =
            std::env::temp_dir().join(format!("codemode-fresh-{}/p.txt", std::process::id()));
        let missing = check_fresh(&path, "v1").unwrap_err();
        assert!(matches!(missing, Error::Stale { existed: false, .. }));
        assert!(missing.to_string().contains("did not exist"));
        assert!(check_fresh(&path, "v1").is_ok());
        let stale = check_fresh(&path, "v2").unwrap_err();
        assert!(stale.to_string().contains("was stale"), "{stale}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "v2");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
