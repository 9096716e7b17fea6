//! The `mcpServers` configuration that MCP clients already use, read with
//! errors that point at the bad key.

use codemode_core::{CallPolicy, json_kind};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How to reach one upstream MCP server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerTransport {
    /// A child process speaking MCP on its standard input and output.
    Stdio {
        /// The program to run (looked up on `PATH` when it has no `/`).
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to the inherited environment.
        env: BTreeMap<String, String>,
        /// Its working directory (the host's when absent).
        cwd: Option<PathBuf>,
    },
    /// A server at a URL, over MCP's streamable HTTP transport.
    Http {
        /// The endpoint, such as `http://127.0.0.1:3000/mcp`.
        url: String,
        /// Headers sent with every request (`Authorization`, say).
        headers: BTreeMap<String, String>,
    },
}

/// One upstream server: how to reach it, and what codemode does with its tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    /// How to reach it.
    pub transport: ServerTransport,
    /// The prefix of its tools' names in the SDK. `None` takes the default:
    /// none when it is the only server, else its name and `_`.
    pub prefix: Option<String>,
    /// Who may call each tool, by the server's own tool name (the default
    /// is a program only). `direct` and `both` offer the tool to the model
    /// next to `run_code`.
    pub policies: BTreeMap<String, CallPolicy>,
    /// How long one call may take before it fails with `timeout`.
    pub call_timeout: Option<Duration>,
}

impl ServerConfig {
    /// A server started as `command args...`.
    pub fn stdio(
        command: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        ServerConfig::with_transport(ServerTransport::Stdio {
            command: command.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: BTreeMap::new(),
            cwd: None,
        })
    }

    /// A server at `url`, over streamable HTTP.
    pub fn http(url: impl Into<String>) -> Self {
        ServerConfig::with_transport(ServerTransport::Http {
            url: url.into(),
            headers: BTreeMap::new(),
        })
    }

    fn with_transport(transport: ServerTransport) -> Self {
        ServerConfig {
            transport,
            prefix: None,
            policies: BTreeMap::new(),
            call_timeout: None,
        }
    }

    /// Adds an environment variable (stdio) or a header (HTTP).
    pub fn with_var(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        match &mut self.transport {
            ServerTransport::Stdio { env, .. } => env.insert(name.into(), value.into()),
            ServerTransport::Http { headers, .. } => headers.insert(name.into(), value.into()),
        };
        self
    }

    /// Sets the child's working directory (stdio only).
    pub fn with_cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        if let ServerTransport::Stdio { cwd, .. } = &mut self.transport {
            *cwd = Some(dir.into());
        }
        self
    }

    /// Sets the prefix of this server's tool names.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }

    /// Sets who may call one of this server's tools.
    pub fn with_policy(mut self, tool: impl Into<String>, policy: CallPolicy) -> Self {
        self.policies.insert(tool.into(), policy);
        self
    }

    /// Sets the time one call may take.
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = Some(timeout);
        self
    }
}

/// A set of upstream servers by name, as an MCP client's configuration
/// file declares them.
///
/// The shape is the one MCP clients share:
///
/// ```json
/// {
///   "mcpServers": {
///     "files": {"command": "npx", "args": ["-y", "some-mcp-server", "/tmp"], "env": {"DEBUG": "1"}},
///     "remote": {"url": "http://127.0.0.1:3000/mcp", "headers": {"Authorization": "Bearer ..."}}
///   }
/// }
/// ```
///
/// An entry has `command` (with optional `args`, `env` and `cwd`) or `url`
/// (with optional `headers`). `"disabled": true` leaves it out; `type` may
/// say `stdio`, `http` or `streamable-http`. codemode's own settings go under
/// a `codemode` key the clients ignore: `prefix`, `callTimeoutMs`, and
/// `tools`, a map from the server's tool names to `program`, `direct` or
/// `both`. Other keys are clients' own and are ignored.
///
/// ```
/// use codemode_mcp::{McpConfig, ServerTransport};
///
/// let config = McpConfig::parse("config.json", r#"{"mcpServers": {
///     "files": {"command": "files-server", "args": ["/tmp"], "codemode": {"prefix": "fs_"}}
/// }}"#).unwrap();
/// let files = &config.servers["files"];
/// assert_eq!(files.prefix.as_deref(), Some("fs_"));
/// assert!(matches!(&files.transport, ServerTransport::Stdio { command, .. } if command == "files-server"));
///
/// let err = McpConfig::parse("config.json", r#"{"mcpServers": {"files": {"args": []}}}"#).unwrap_err();
/// assert_eq!(err.to_string(), "config.json: mcpServers.files: needs `command` (a program to start) or `url` (a streamable HTTP endpoint)");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpConfig {
    /// The servers, by name (sorted, so everything derived is deterministic).
    pub servers: BTreeMap<String, ServerConfig>,
}

/// Why a configuration could not be read; its `Display` names the file and
/// the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file, as named to [`McpConfig::parse`].
    pub source: String,
    /// The key path, such as `mcpServers.files.args[2]` (empty for the
    /// whole document).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.source, self.message)
        } else {
            write!(f, "{}: {}: {}", self.source, self.path, self.message)
        }
    }
}

impl std::error::Error for ConfigError {}

impl McpConfig {
    /// Reads the configuration in `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, ConfigError> {
        let path = path.as_ref();
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            source: source.clone(),
            path: String::new(),
            message: format!("cannot read: {e}"),
        })?;
        McpConfig::parse(&source, &text)
    }

    /// Reads a configuration from `text`, named `source` in errors.
    pub fn parse(source: &str, text: &str) -> Result<Self, ConfigError> {
        let fail = |path: &str, message: String| ConfigError {
            source: source.to_owned(),
            path: path.to_owned(),
            message,
        };
        let value: Value = serde_json::from_str(text).map_err(|e| {
            fail(
                "",
                format!(
                    "invalid JSON at line {} column {}: {}",
                    e.line(),
                    e.column(),
                    e
                ),
            )
        })?;
        let Value::Object(mut root) = value else {
            return Err(fail(
                "",
                format!(
                    "expected an object with `mcpServers`, found {}",
                    json_kind(&value)
                ),
            ));
        };
        let servers = match root.remove("mcpServers") {
            Some(Value::Object(servers)) => servers,
            Some(other) => {
                return Err(fail(
                    "mcpServers",
                    format!(
                        "expected an object of servers by name, found {}",
                        json_kind(&other)
                    ),
                ));
            }
            None => return Err(fail("", "has no `mcpServers` object".to_owned())),
        };
        let mut config = McpConfig::default();
        for (name, entry) in servers {
            let path = format!("mcpServers.{name}");
            if name.is_empty() || name.chars().any(char::is_control) {
                return Err(fail(
                    &path,
                    "a server needs a name without control characters".into(),
                ));
            }
            let Value::Object(entry) = entry else {
                return Err(fail(
                    &path,
                    format!("expected an object, found {}", json_kind(&entry)),
                ));
            };
            if entry.get("disabled") == Some(&Value::Bool(true)) {
                continue;
            }
            let server = server(&entry).map_err(|(key, message)| {
                let at = if key.is_empty() {
                    path.clone()
                } else {
                    format!("{path}.{key}")
                };
                fail(&at, message)
            })?;
            config.servers.insert(name, server);
        }
        Ok(config)
    }
}

type EntryError = (String, String);

fn server(entry: &Map<String, Value>) -> Result<ServerConfig, EntryError> {
    let kind_of = string(entry, "type")?;
    let transport = match (entry.get("command"), entry.get("url")) {
        (Some(_), Some(_)) => {
            return Err((
                String::new(),
                "has both `command` and `url`; keep one".into(),
            ));
        }
        (Some(_), None) => {
            if let Some(t) = kind_of.as_deref().filter(|t| *t != "stdio") {
                return Err((
                    "type".into(),
                    format!("is {t:?}, but the entry has `command`: use \"stdio\""),
                ));
            }
            let command = string(entry, "command")?.unwrap_or_default();
            if command.is_empty() {
                return Err(("command".into(), "must not be empty".into()));
            }
            ServerTransport::Stdio {
                command,
                args: strings(entry, "args")?,
                env: string_map(entry, "env")?,
                cwd: string(entry, "cwd")?.map(PathBuf::from),
            }
        }
        (None, Some(_)) => {
            match kind_of.as_deref() {
                None | Some("http" | "streamable-http" | "streamableHttp") => {}
                Some("sse") => {
                    return Err(("type".into(), "\"sse\" (the old HTTP+SSE transport) is not supported; the server needs streamable HTTP".into()));
                }
                Some(t) => {
                    return Err((
                        "type".into(),
                        format!("is {t:?}; an entry with `url` uses \"http\" (streamable HTTP)"),
                    ));
                }
            }
            let url = string(entry, "url")?.unwrap_or_default();
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err((
                    "url".into(),
                    format!("{url:?} is not an http:// or https:// URL"),
                ));
            }
            ServerTransport::Http {
                url,
                headers: string_map(entry, "headers")?,
            }
        }
        (None, None) => {
            return Err((
                String::new(),
                "needs `command` (a program to start) or `url` (a streamable HTTP endpoint)".into(),
            ));
        }
    };
    let mut server = ServerConfig::with_transport(transport);
    match entry.get("codemode") {
        None => {}
        Some(Value::Object(own)) => {
            let at = |(key, message): EntryError| (format!("codemode.{key}"), message);
            server.prefix = string(own, "prefix").map_err(at)?;
            server.call_timeout = match own.get("callTimeoutMs") {
                None => None,
                Some(v) => match v.as_u64() {
                    Some(ms) if ms > 0 => Some(Duration::from_millis(ms)),
                    _ => {
                        return Err((
                            "codemode.callTimeoutMs".into(),
                            format!("must be a positive number of milliseconds, found {v}"),
                        ));
                    }
                },
            };
            for (tool, policy) in string_map(own, "tools").map_err(at)? {
                let policy = match policy.as_str() {
                    "program" => CallPolicy::Program,
                    "direct" => CallPolicy::Direct,
                    "both" => CallPolicy::Both,
                    other => {
                        return Err((
                            format!("codemode.tools.{tool}"),
                            format!("is {other:?}; use \"program\", \"direct\" or \"both\""),
                        ));
                    }
                };
                server.policies.insert(tool, policy);
            }
        }
        Some(other) => {
            return Err((
                "codemode".into(),
                format!("expected an object, found {}", json_kind(other)),
            ));
        }
    }
    Ok(server)
}

fn string(map: &Map<String, Value>, key: &str) -> Result<Option<String>, EntryError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err((
            key.into(),
            format!("must be a string, found {}", json_kind(other)),
        )),
    }
}

fn strings(map: &Map<String, Value>, key: &str) -> Result<Vec<String>, EntryError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err((
                    format!("{key}[{i}]"),
                    format!("must be a string, found {}", json_kind(other)),
                )),
            })
            .collect(),
        Some(other) => Err((
            key.into(),
            format!("must be an array of strings, found {}", json_kind(other)),
        )),
    }
}

fn string_map(map: &Map<String, Value>, key: &str) -> Result<BTreeMap<String, String>, EntryError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(items)) => items
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                other => Err((
                    format!("{key}.{k}"),
                    format!("must be a string, found {}", json_kind(other)),
                )),
            })
            .collect(),
        Some(other) => Err((
            key.into(),
            format!("must be an object of strings, found {}", json_kind(other)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        McpConfig::parse("c.json", text).unwrap_err().to_string()
    }

    #[test]
    fn reads_both_transports_and_codemode_settings() {
        let config = McpConfig::parse(
            "c.json",
            r#"{"mcpServers": {
                "b": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-Key": "k"}, "type": "http"},
                "a": {"command": "srv", "args": ["-v"], "env": {"K": "V"}, "cwd": "/tmp",
                      "codemode": {"prefix": "", "callTimeoutMs": 1500, "tools": {"send": "direct"}}},
                "off": {"command": "x", "disabled": true}
            }, "other": 1}"#,
        )
        .unwrap();
        assert_eq!(config.servers.keys().collect::<Vec<_>>(), ["a", "b"]);
        let a = &config.servers["a"];
        assert_eq!(
            a.transport,
            ServerTransport::Stdio {
                command: "srv".into(),
                args: vec!["-v".into()],
                env: [("K".to_owned(), "V".to_owned())].into(),
                cwd: Some("/tmp".into()),
            }
        );
        assert_eq!(a.prefix.as_deref(), Some(""));
        assert_eq!(a.call_timeout, Some(Duration::from_millis(1500)));
        assert_eq!(a.policies["send"], CallPolicy::Direct);
        assert!(
            matches!(&config.servers["b"].transport, ServerTransport::Http { headers, .. } if headers["X-Key"] == "k")
        );
    }

    #[test]
    fn errors_point_at_the_key() {
        assert_eq!(
            err(r#"{"mcpServers": {"a": {"command": "x", "args": ["ok", 3]}}}"#),
            "c.json: mcpServers.a.args[1]: must be a string, found a number"
        );
        assert_eq!(
            err(r#"{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}"#),
            "c.json: mcpServers.a.env.K: must be a string, found a number"
        );
        assert_eq!(
            err(r#"{"mcpServers": {"a": {"url": "ftp://x"}}}"#),
            "c.json: mcpServers.a.url: \"ftp://x\" is not an http:// or https:// URL"
        );
        assert_eq!(
            err(r#"{"mcpServers": {"a": {"url": "http://x", "type": "sse"}}}"#),
            "c.json: mcpServers.a.type: \"sse\" (the old HTTP+SSE transport) is not supported; the server needs streamable HTTP"
        );
        assert_eq!(
            err(
                r#"{"mcpServers": {"a": {"command": "x", "codemode": {"tools": {"t": "never"}}}}}"#
            ),
            "c.json: mcpServers.a.codemode.tools.t: is \"never\"; use \"program\", \"direct\" or \"both\""
        );
        assert_eq!(
            err(r#"{"mcpServers": {"a": {"command": "x", "url": "http://x"}}}"#),
            "c.json: mcpServers.a: has both `command` and `url`; keep one"
        );
        assert_eq!(
            err(r#"{"servers": {}}"#),
            "c.json: has no `mcpServers` object"
        );
        assert_eq!(
            err("[1]"),
            "c.json: expected an object with `mcpServers`, found an array"
        );
        assert!(
            err("{\n  \"mcpServers\": {,}}").starts_with("c.json: invalid JSON at line 2 column")
        );
    }
}
