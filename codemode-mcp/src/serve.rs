//! Any toolset served as a Code Mode MCP server: one `run_code` tool whose
//! description carries the SDK, and the tools whose policy lets the model
//! call them directly.

use codemode_core::{
    Catalog, Language, RUN_CODE, RunCodeArgs, ToolCallError, ToolDef, ToolFormat, Toolset,
    estimate_tokens, json_kind, native_tools,
};
use codemode_runtime::{CheckPolicy, Limits, RunEvent, RunOutcome, Runtime, cut};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, Implementation, InitializeResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ServerCapabilities, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// Where a Code Mode MCP server listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// Standard input and output (the client started this process). Nothing
    /// but protocol messages is written to standard output.
    Stdio,
    /// Streamable HTTP at `http://ADDR/mcp`. Keep `ADDR` on loopback unless
    /// something in front authenticates the callers.
    Http(SocketAddr),
}

/// Why a server could not serve.
#[derive(Debug)]
pub struct ServeError(String);

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

/// A Code Mode MCP server for a toolset, with its settings.
///
/// `tools/list` answers `run_code` (its description: the instructions and
/// the SDK of every tool a program may call, in the chosen language) and
/// every tool whose [`CallPolicy`](codemode_core::CallPolicy) lets the model
/// call it directly. A `run_code` call runs the program under the limits;
/// its result carries the value as `structuredContent` (`{"result": value}`,
/// so it is always an object), the outcome as text for the model, and
/// `isError` when the run failed. When the client sends a progress token,
/// each tool call the program makes is reported as progress.
///
/// ```no_run
/// # async fn demo(tools: codemode_core::DynToolset) -> Result<(), codemode_mcp::ServeError> {
/// use codemode_core::Language;
/// use codemode_mcp::{CodeModeServer, Transport};
///
/// CodeModeServer::new(tools)
///     .language(Language::TypeScript)
///     .serve(Transport::Stdio)
///     .await
/// # }
/// ```
pub struct CodeModeServer<T: ?Sized> {
    shared: Arc<Shared<T>>,
}

struct Shared<T: ?Sized> {
    language: Language,
    /// The token budget of `run_code`'s description, if any.
    budget: Option<usize>,
    /// What counts the budget's tokens ([`estimate_tokens`] unless set).
    counter: Option<TokenCounter>,
    /// Whether the server has said that the budget cannot be kept.
    said_past_budget: AtomicBool,
    limits: Limits,
    max_result_bytes: usize,
    /// What the check of each program before it runs may do.
    check: CheckPolicy,
    changes: Option<watch::Receiver<u64>>,
    catalog: CatalogCache,
    /// Each direct tool's output schema, compiled (see [`output_mismatch`]).
    validators: ValidatorCache,
    toolset: Arc<T>,
    /// Programs that may run at once; each holds a permit while it runs.
    runs: Arc<tokio::sync::Semaphore>,
    max_runs: usize,
    /// Sessions an HTTP server keeps open at once.
    max_sessions: usize,
    /// The programs running for each HTTP session.
    session_runs: Arc<crate::sessions::SessionRuns>,
}

/// A count of tokens ([`CodeModeServer::token_counter`]).
type TokenCounter = Arc<dyn Fn(&str) -> usize + Send + Sync>;

/// What a program the client cancelled, waiting or running, answers.
const CANCELLED: &str = "the run was cancelled by the client";

/// Programs a [`CodeModeServer`] runs at once unless told otherwise
/// ([`CodeModeServer::max_runs`]); each has an engine of its own.
pub const DEFAULT_MAX_RUNS: usize = 8;

/// The catalog of the toolset's current tools: `tools/list` is answered
/// from it, and prepared again only when the tools change.
#[derive(Default)]
struct CatalogCache(std::sync::Mutex<Option<(Vec<ToolDef>, Arc<Prepared>)>>);

/// A catalog, and the `run_code` tool made from it once asked for: with a
/// budget, fitting it counts the tokens of each index tried, which takes
/// a large catalog far longer than a `tools/list` should.
struct Prepared {
    catalog: Arc<Catalog>,
    run_code: std::sync::OnceLock<Value>,
}

impl CatalogCache {
    fn get(&self, defs: Vec<ToolDef>) -> Arc<Prepared> {
        let mut slot = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((cached, prepared)) = &*slot
            && *cached == defs
        {
            return Arc::clone(prepared);
        }
        let prepared = Arc::new(Prepared {
            catalog: Arc::new(Catalog::new(defs.clone())),
            run_code: std::sync::OnceLock::new(),
        });
        *slot = Some((defs, Arc::clone(&prepared)));
        prepared
    }
}

/// The compiled output schema of each direct tool, by name, kept while the
/// tool declares the same schema: compiling one of a few hundred KB takes
/// milliseconds, too long to pay on every call.
#[derive(Default)]
struct ValidatorCache(std::sync::Mutex<HashMap<String, Compiled>>);

/// A direct tool's output schema, and its validator if it compiled.
type Compiled = (Value, Option<Arc<jsonschema::Validator>>);

impl ValidatorCache {
    /// The validator of `schema`, the output schema of `tool`; `None` when
    /// it cannot be compiled (a `$ref` to elsewhere, say), which checks
    /// nothing. `format` is an annotation, as in MCP's default dialect,
    /// whatever draft the schema names.
    fn get(&self, tool: &str, schema: &Value) -> Option<Arc<jsonschema::Validator>> {
        let mut cache = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((cached, validator)) = cache.get(tool)
            && cached == schema
        {
            return validator.clone();
        }
        let validator = crate::output::compile(schema);
        cache.insert(tool.to_owned(), (schema.clone(), validator.clone()));
        validator
    }
}

impl<T: ?Sized> Clone for CodeModeServer<T> {
    fn clone(&self) -> Self {
        CodeModeServer {
            shared: Arc::clone(&self.shared),
        }
    }
}

/// Serves `toolset` as a Code Mode MCP server on `transport`, with
/// JavaScript programs and the default limits, until the client leaves
/// (stdio) or the process ends (HTTP). See [`CodeModeServer`] for the rest.
pub async fn serve<T>(toolset: T, transport: Transport) -> Result<(), ServeError>
where
    T: Toolset + Send + Sync + 'static,
{
    CodeModeServer::new(toolset).serve(transport).await
}

impl<T: Toolset + Send + Sync + 'static> CodeModeServer<T> {
    /// A server for `toolset`: JavaScript programs, default limits, results
    /// up to 100 KB of text.
    pub fn new(toolset: T) -> Self {
        CodeModeServer::from_arc(Arc::new(toolset))
    }
}

impl<T: Toolset + Send + Sync + 'static + ?Sized> CodeModeServer<T> {
    /// A server for a toolset the host shares.
    pub fn from_arc(toolset: Arc<T>) -> Self {
        CodeModeServer {
            shared: Arc::new(Shared {
                language: Language::JavaScript,
                budget: None,
                counter: None,
                said_past_budget: AtomicBool::new(false),
                limits: Limits::default(),
                max_result_bytes: 100_000,
                check: CheckPolicy::default(),
                changes: None,
                catalog: CatalogCache::default(),
                validators: ValidatorCache::default(),
                toolset,
                runs: Arc::new(tokio::sync::Semaphore::new(DEFAULT_MAX_RUNS)),
                max_runs: DEFAULT_MAX_RUNS,
                max_sessions: crate::sessions::DEFAULT_MAX_SESSIONS,
                session_runs: Arc::default(),
            }),
        }
    }

    fn with(self, change: impl FnOnce(&mut Shared<T>)) -> Self
    where
        T: Sized,
    {
        // Either way the catalog's cache starts empty: the `run_code` tool
        // kept with it depends on the language, the budget and the count,
        // which `change` may set.
        let mut shared = match Arc::try_unwrap(self.shared) {
            Ok(shared) => Shared {
                said_past_budget: AtomicBool::new(false),
                catalog: CatalogCache::default(),
                ..shared
            },
            Err(shared) => Shared {
                language: shared.language,
                budget: shared.budget,
                counter: shared.counter.clone(),
                said_past_budget: AtomicBool::new(false),
                limits: shared.limits.clone(),
                max_result_bytes: shared.max_result_bytes,
                check: shared.check,
                changes: shared.changes.clone(),
                catalog: CatalogCache::default(),
                validators: ValidatorCache::default(),
                toolset: Arc::clone(&shared.toolset),
                runs: Arc::clone(&shared.runs),
                max_runs: shared.max_runs,
                max_sessions: shared.max_sessions,
                session_runs: Arc::clone(&shared.session_runs),
            },
        };
        change(&mut shared);
        CodeModeServer {
            shared: Arc::new(shared),
        }
    }

    /// The language programs are written in.
    pub fn language(self, language: Language) -> Self
    where
        T: Sized,
    {
        self.with(|s| s.language = language)
    }

    /// Keeps `run_code`'s description within `tokens`: past it, the SDK
    /// in it is an index, and programs read declarations through
    /// `catalog.describe` (see `Catalog::run_code_tool_within`). The
    /// tokens are counted with [`estimate_tokens`] unless a
    /// [`token_counter`](Self::token_counter) is set. When even the
    /// smallest index is past the budget, the server says so once, as a
    /// warning in its log.
    pub fn budget(self, tokens: usize) -> Self
    where
        T: Sized,
    {
        self.with(|s| s.budget = Some(tokens))
    }

    /// Counts the [`budget`](Self::budget)'s tokens with `count`, such as
    /// the tokenizer of the model the prompt is for: [`estimate_tokens`]
    /// can undercount some languages and scripts, and text that is no
    /// language (identifiers, random strings). The fit only asks whether a
    /// text is past the budget, so `count` may stop counting once it is.
    pub fn token_counter(self, count: impl Fn(&str) -> usize + Send + Sync + 'static) -> Self
    where
        T: Sized,
    {
        self.with(|s| s.counter = Some(Arc::new(count)))
    }

    /// The limits of every run.
    pub fn limits(self, limits: Limits) -> Self
    where
        T: Sized,
    {
        self.with(|s| s.limits = limits)
    }

    /// How many programs may run at once ([`DEFAULT_MAX_RUNS`] unless set;
    /// at least one). Each has an engine of its own, with its own memory
    /// limit; a program past the number waits for one to end, as long as
    /// the run timeout, and is then refused.
    pub fn max_runs(self, runs: usize) -> Self
    where
        T: Sized,
    {
        let runs = runs.max(1);
        self.with(|s| {
            s.runs = Arc::new(tokio::sync::Semaphore::new(runs));
            s.max_runs = runs;
        })
    }

    /// How many sessions an HTTP server keeps open at once
    /// ([`crate::DEFAULT_MAX_SESSIONS`] unless set; at least one). Past
    /// it, an `initialize` is refused with an error that says why, until a
    /// client ends its session or one has been idle for five minutes.
    pub fn max_sessions(self, sessions: usize) -> Self
    where
        T: Sized,
    {
        self.with(|s| s.max_sessions = sessions.max(1))
    }

    /// The most text a result may carry, in bytes (the outcome is cut to fit).
    pub fn max_result_bytes(self, bytes: usize) -> Self
    where
        T: Sized,
    {
        self.with(|s| s.max_result_bytes = bytes)
    }

    /// What the check of each program against the SDK, before it runs, may
    /// do (the runtime's default, [`CheckPolicy::Warn`], unless set): its
    /// findings are part of the `run_code` result the model reads.
    pub fn check(self, policy: CheckPolicy) -> Self
    where
        T: Sized,
    {
        self.with(|s| s.check = policy)
    }

    /// Tells clients `notifications/tools/list_changed` whenever `changes`
    /// wakes (such as [`McpToolset::changes`](crate::McpToolset::changes)).
    pub fn list_changes(self, changes: watch::Receiver<u64>) -> Self
    where
        T: Sized,
    {
        self.with(|s| s.changes = Some(changes))
    }

    /// The tools `tools/list` answers: `run_code`, then the direct tools.
    ///
    /// A direct tool whose `outputSchema` describes an object keeps it, and
    /// its result's structured content is the value itself; any other
    /// direct tool's result is `{"result": value}` like `run_code`'s, so an
    /// `outputSchema` that is not an object schema is left out. An input
    /// schema that is not an object is listed as `{"type": "object"}`, so
    /// no tool is left out.
    pub fn tools(&self) -> Vec<Tool> {
        let toolset = &*self.shared.toolset;
        let prepared = self.shared.catalog.get(toolset.defs());
        let run_code = prepared
            .run_code
            .get_or_init(|| self.run_code_tool(&prepared.catalog));
        std::iter::once(run_code.clone())
            .chain(native_tools(ToolFormat::Mcp, toolset))
            .filter_map(|mut tool| {
                if let Some(object) = tool.as_object_mut() {
                    if !object.get("outputSchema").is_some_and(Value::is_object) {
                        object.remove("outputSchema");
                    }
                    if !object.get("inputSchema").is_some_and(Value::is_object) {
                        object.insert("inputSchema".into(), json!({"type": "object"}));
                    }
                }
                match serde_json::from_value::<Tool>(tool.clone()) {
                    Ok(tool) => Some(tool),
                    Err(e) => {
                        tracing::warn!("the tool {} cannot be listed over MCP: {e}", tool["name"]);
                        None
                    }
                }
            })
            .collect()
    }

    /// The `run_code` tool `tools/list` answers for `catalog`, as MCP
    /// lists it: within the budget, if there is one.
    fn run_code_tool(&self, catalog: &Catalog) -> Value {
        let language = self.shared.language;
        match self.shared.budget {
            Some(budget) => {
                let fitted = match &self.shared.counter {
                    Some(count) => catalog.within_by(language, budget, &**count),
                    None => catalog.within_by(language, budget, &estimate_tokens),
                };
                if fitted.tokens > budget && !self.shared.said_past_budget.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        "the run_code description takes {} tokens or more, past the budget of {budget}, even with the smallest index ({:?})",
                        fitted.tokens,
                        fitted.fit
                    );
                }
                fitted.run_code_tool
            }
            None => catalog.run_code_tool(language),
        }
        .to_format(ToolFormat::Mcp)
    }

    /// Serves on `transport` until the client leaves (stdio) or the
    /// process ends (HTTP).
    pub async fn serve(self, transport: Transport) -> Result<(), ServeError> {
        match transport {
            Transport::Stdio => {
                // A client's line that strict JSON refuses but JavaScript
                // reads (a lone surrogate's escape, `1e400`, bytes that are
                // no UTF-8) is mended as an upstream's answer is, so that
                // its request is answered rather than dropped unseen.
                let stdin = crate::stdio::ClampedLines::of_client(tokio::io::stdin());
                let running = ServiceExt::serve(self, (stdin, tokio::io::stdout()))
                    .await
                    .map_err(|e| ServeError(format!("the MCP handshake failed: {e}")))?;
                running
                    .waiting()
                    .await
                    .map_err(|e| ServeError(format!("the server stopped: {e}")))?;
                Ok(())
            }
            Transport::Http(addr) => self.bind_http(addr).await?.run().await,
        }
    }

    /// Binds a streamable HTTP endpoint at `http://ADDR/mcp`, without
    /// serving yet: [`HttpServer::local_addr`] tells the port when `addr`
    /// asked for any (`:0`).
    pub async fn bind_http(self, addr: SocketAddr) -> Result<HttpServer, ServeError> {
        use rmcp::transport::streamable_http_server::{
            StreamableHttpServerConfig, StreamableHttpService,
        };
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| ServeError(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| ServeError(format!("cannot listen on {addr}: {e}")))?;
        let server = self.clone();
        // Requests must name this server as their Host (DNS rebinding), and
        // a browser's Origin, when sent, must be this server too.
        let mut config = StreamableHttpServerConfig::default();
        let ip = match local.ip() {
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        config.allowed_hosts = vec![ip.clone(), format!("{ip}:{}", local.port())];
        if local.ip().is_loopback() {
            config.allowed_hosts.extend([
                "localhost".to_owned(),
                format!("localhost:{}", local.port()),
            ]);
        }
        config.allowed_origins = vec![
            format!("http://{ip}:{}", local.port()),
            format!("http://localhost:{}", local.port()),
        ];
        let sessions = config.cancellation_token.clone();
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(crate::sessions::CappedSessions::new(
                self.shared.max_sessions,
                Arc::clone(&self.shared.session_runs),
            )),
            config,
        );
        let router = axum::Router::new().nest_service("/mcp", service);
        Ok(HttpServer {
            listener,
            local,
            router,
            grace: self.shared.limits.timeout + Duration::from_secs(1),
            end_sessions: Box::new(move || sessions.cancel()),
        })
    }

    async fn run_code(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let args = match RunCodeArgs::from_value(&arguments) {
            Ok(args) => args,
            Err(error) => {
                return CallToolResult::error(vec![ContentBlock::text(error.to_string())]);
            }
        };
        // Over HTTP, a session the client ends stops its programs at once.
        let session = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.headers.get("mcp-session-id"))
            .and_then(|id| id.to_str().ok());
        let _of_session = session.map(|id| self.shared.session_runs.add(id, context.ct.clone()));
        // A slot among the programs that may run at once, waited for as
        // long as a run may take.
        let wait = self.shared.limits.timeout;
        let slot = Arc::clone(&self.shared.runs).acquire_owned();
        let _slot = tokio::select! {
            slot = tokio::time::timeout(wait, slot) => match slot {
                Ok(Ok(slot)) => slot,
                _ => {
                    return CallToolResult::error(vec![ContentBlock::text(format!(
                        "the server is running {} programs at once, the most it runs, and none \
                         ended within {} ms; run this program again later",
                        self.shared.max_runs,
                        wait.as_millis()
                    ))]);
                }
            },
            () = context.ct.cancelled() => {
                return CallToolResult::error(vec![ContentBlock::text(CANCELLED)]);
            }
        };
        let (events, mut progress) = mpsc::unbounded_channel::<String>();
        let catalog = Arc::clone(&self.shared.catalog.get(self.shared.toolset.defs()).catalog);
        let mut runtime =
            Runtime::from_arc(Arc::clone(&self.shared.toolset), self.shared.limits.clone())
                .with_catalog(catalog)
                .with_check(self.shared.check);
        let token = context.meta.get_progress_token();
        if token.is_some() {
            runtime = runtime.with_observer(move |event| {
                if let RunEvent::CallFinished { name, error, .. } = event {
                    let _ = events.send(match error {
                        None => format!("called {name}"),
                        Some(e) => format!("called {name}: failed ({})", e.kind),
                    });
                }
            });
        }
        let peer = context.peer.clone();
        let forward = tokio::spawn(async move {
            let Some(token) = token else { return };
            let mut done = 0u32;
            while let Some(message) = progress.recv().await {
                done += 1;
                let _ = peer
                    .notify_progress(
                        ProgressNotificationParam::new(token.clone(), f64::from(done))
                            .with_message(message),
                    )
                    .await;
            }
        });
        tracing::info!(description = %args.description, "running a program");
        let run = runtime.run_described(self.shared.language, &args.code, &args.description);
        let outcome = tokio::select! {
            outcome = run => outcome,
            () = context.ct.cancelled() => {
                tracing::info!("the client cancelled the run");
                return CallToolResult::error(vec![ContentBlock::text(CANCELLED)]);
            }
        };
        drop(runtime);
        let _ = forward.await;
        self.outcome_result(&outcome)
    }

    fn outcome_result(&self, outcome: &RunOutcome) -> CallToolResult {
        let budget = self.shared.max_result_bytes;
        let text = outcome.to_model_text(budget);
        if let Some(error) = &outcome.error {
            tracing::info!(kind = ?error.kind, "the program failed");
            return CallToolResult::error(vec![ContentBlock::text(text)]);
        }
        let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
        if serde_json::to_string(&outcome.value).map_or(usize::MAX, |j| j.len()) <= budget {
            result.structured_content = Some(json!({"result": outcome.value}));
        }
        result
    }

    async fn direct(&self, request: &CallToolRequestParams) -> CallToolResult {
        let name = request.name.as_ref();
        let toolset = &*self.shared.toolset;
        let defs = toolset.defs();
        let Some(def) = defs.iter().find(|d| d.name == name && d.policy.direct()) else {
            let why = toolset
                .missing(name)
                .map(|why| format!("; {why}"))
                .unwrap_or_default();
            return CallToolResult::error(vec![ContentBlock::text(cut(
                &format!(
                    "there is no tool named {} here{why}; write a program and call `{RUN_CODE}` with it",
                    cut(&format!("{name:?}"), 200)
                ),
                self.shared.max_result_bytes,
            ))]);
        };
        let args = Value::Object(request.arguments.clone().unwrap_or_default());
        // The run's per-call limit holds for direct calls too.
        let limit = self.shared.limits.call_timeout;
        let called = match tokio::time::timeout(limit, toolset.call(name, args)).await {
            Ok(called) => called,
            Err(_) => Err(ToolCallError::new(
                name,
                codemode_core::ErrorKind::Timeout,
                format!("the tool did not answer within {} ms", limit.as_millis()),
            )),
        };
        match called {
            Ok(value) => {
                let text = serde_json::to_string(&value).unwrap_or_default();
                let budget = self.shared.max_result_bytes;
                // A declared output schema describes the value itself, and
                // clients check the structured content against it: a value
                // that does not match is an error result, which they do not
                // check, rather than a result they refuse whole.
                if let Some(schema) = def.output_schema.as_ref().filter(|s| s.is_object())
                    && let Some(mismatch) =
                        output_mismatch(self.shared.validators.get(name, schema), &value)
                {
                    return CallToolResult::error(vec![ContentBlock::text(cut(
                        &format!(
                            "{name}: the result does not match the output schema the tool declares ({mismatch}); the result was: {text}"
                        ),
                        budget,
                    ))]);
                }
                let fits = text.len() <= budget;
                let mut result =
                    CallToolResult::success(vec![ContentBlock::text(cut(&text, budget))]);
                if fits {
                    result.structured_content =
                        Some(if def.output_schema.is_some() && value.is_object() {
                            value
                        } else {
                            json!({"result": value})
                        });
                }
                result
            }
            Err(ToolCallError {
                tool_name,
                kind,
                message,
            }) => CallToolResult::error(vec![ContentBlock::text(cut(
                &format!("{tool_name} ({kind}): {message}"),
                self.shared.max_result_bytes,
            ))]),
        }
    }
}

/// Why `value` cannot be the structured content of a tool whose declared
/// output schema compiled to `validator`, if it cannot: it is no object
/// (MCP's structured content is one), or it breaks the schema. A schema
/// that did not compile checks nothing, and neither does a `pattern` whose
/// match ran past the regex engine's backtracking limit.
fn output_mismatch(validator: Option<Arc<jsonschema::Validator>>, value: &Value) -> Option<String> {
    if !value.is_object() {
        return Some(format!("it is {}, not an object", json_kind(value)));
    }
    crate::output::mismatch(&*validator?, value)
}

/// A bound streamable HTTP endpoint (see [`CodeModeServer::bind_http`]).
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    local: SocketAddr,
    router: axum::Router,
    /// How long requests in flight may take after an interrupt.
    grace: Duration,
    /// Ends every session, and with it each client's open event stream.
    end_sessions: Box<dyn FnOnce() + Send>,
}

impl HttpServer {
    /// The address it listens on; the endpoint is `http://ADDR/mcp`.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// Serves until the process is interrupted (Ctrl-C or SIGTERM); then
    /// it takes no new connections, gives the requests in flight the run
    /// timeout (and a second) to finish, and ends every session, closing
    /// the event streams clients keep open for notifications, which would
    /// otherwise never finish.
    pub async fn run(self) -> Result<(), ServeError> {
        let (grace, end_sessions) = (self.grace, self.end_sessions);
        let shutdown = async move {
            interrupted().await;
            tokio::spawn(async move {
                tokio::time::sleep(grace).await;
                end_sessions();
            });
        };
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(|e| ServeError(format!("the HTTP server stopped: {e}")))
    }
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
async fn interrupted() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

impl<T: Toolset + Send + Sync + 'static + ?Sized> ServerHandler for CodeModeServer<T> {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new("codemode", env!("CARGO_PKG_VERSION")))
        .with_instructions(format!(
            "Write a {} program against the SDK in the `{RUN_CODE}` tool's description and run it with `{RUN_CODE}`: one program can make many tool calls.",
            match self.shared.language {
                Language::Python => "Python",
                Language::TypeScript => "TypeScript",
                Language::JavaScript => "JavaScript",
            }
        ))
    }

    fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListToolsResult, ErrorData>> + Send + '_ {
        std::future::ready(Ok(ListToolsResult::with_all_items(self.tools())))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let result = if request.name == RUN_CODE {
            self.run_code(&request, &context).await
        } else {
            self.direct(&request).await
        };
        Ok(result.into())
    }

    /// Requests rmcp could not read as any it knows: a client's request
    /// that the input filter could not pass on (see `stdio::refusal`), and
    /// a `tools/call` whose params have the wrong shape, which rmcp hands
    /// here under its method's name.
    fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CustomResult, ErrorData>> + Send + '_ {
        let params = request.params.unwrap_or(Value::Null);
        let error = match request.method.as_str() {
            crate::stdio::REFUSED_METHOD => ErrorData::invalid_request(
                params["message"]
                    .as_str()
                    .unwrap_or("the request could not be read")
                    .to_owned(),
                None,
            ),
            "tools/call" => ErrorData::invalid_params(unreadable_arguments(&params), None),
            method => ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("this server does not answer `{method}`"),
                None,
            ),
        };
        std::future::ready(Err(error))
    }

    fn on_initialized(
        &self,
        context: NotificationContext<RoleServer>,
    ) -> impl Future<Output = ()> + Send + '_ {
        if let Some(mut changes) = self.shared.changes.clone() {
            let peer = context.peer.clone();
            tokio::spawn(async move {
                while changes.changed().await.is_ok() {
                    tracing::info!("the tools changed; telling the client");
                    if peer.notify_tool_list_changed().await.is_err() {
                        break;
                    }
                }
            });
        }
        std::future::ready(())
    }
}

/// Why the params of a `tools/call` request could not be read, saying
/// what they must be.
fn unreadable_arguments(params: &Value) -> String {
    let why = match params {
        Value::Object(fields) => match (fields.get("name"), fields.get("arguments")) {
            (Some(Value::String(_)), None | Some(Value::Object(_) | Value::Null)) => {
                "a field besides `name` and `arguments` has the wrong type".to_owned()
            }
            (Some(Value::String(_)), Some(Value::String(_))) => {
                "`arguments` is a string; send the arguments object itself, not its JSON text"
                    .to_owned()
            }
            (Some(Value::String(_)), Some(other)) => {
                format!("`arguments` is {}, and must be an object", json_kind(other))
            }
            _ => "`name` must be the tool's name, a string".to_owned(),
        },
        other => format!("they are {}, and must be an object", json_kind(other)),
    };
    format!("the params of `tools/call` could not be read: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use codemode_core::{CallPolicy, ToolCallError, ToolDef};

    struct Two;

    impl Toolset for Two {
        fn defs(&self) -> Vec<ToolDef> {
            ["files_read", "files_write"]
                .into_iter()
                .map(|n| {
                    ToolDef::new(n, json!({"type": "object"})).with_description("Works on a file.")
                })
                .collect()
        }

        async fn call(&self, name: &str, _: Value) -> Result<Value, ToolCallError> {
            Ok(json!(name))
        }
    }

    /// One direct tool that fails with a long message.
    struct Loud;

    impl Toolset for Loud {
        fn defs(&self) -> Vec<ToolDef> {
            vec![ToolDef::new("shout", json!({"type": "object"})).with_policy(CallPolicy::Direct)]
        }

        async fn call(&self, name: &str, _: Value) -> Result<Value, ToolCallError> {
            Err(ToolCallError::new(
                name,
                codemode_core::ErrorKind::ToolFailed,
                "a".repeat(5 << 20),
            ))
        }
    }

    /// One direct tool with an output schema, which answers with the
    /// arguments it is given, so each call picks its result.
    struct Weather;

    impl Toolset for Weather {
        fn defs(&self) -> Vec<ToolDef> {
            vec![
                ToolDef::new("weather", json!({"type": "object"}))
                    .with_output_schema(json!({
                        "$schema": "http://json-schema.org/draft-07/schema#",
                        "type": "object",
                        "properties": {
                            "temperature": {"type": "number"},
                            "when": {"type": "string", "format": "date-time"},
                            "code": {"type": "string", "pattern": "^(a|aa)*\\1b$"}
                        },
                        "required": ["temperature"]
                    }))
                    .with_policy(CallPolicy::Direct),
            ]
        }

        async fn call(&self, _: &str, args: Value) -> Result<Value, ToolCallError> {
            Ok(args["answer"].clone())
        }
    }

    /// A request the server cannot read (nested too deep, or past the
    /// length a message may take) and one whose params have the wrong
    /// shape are each answered with an error for their id, over the same
    /// input filter as `serve`'s stdio, rather than left unanswered.
    #[tokio::test]
    async fn requests_that_cannot_be_read_are_answered_with_errors() {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let (client, server_end) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_end);
        let input = crate::stdio::ClampedLines::of_client(server_read);
        let served = tokio::spawn(async move {
            if let Ok(running) =
                ServiceExt::serve(CodeModeServer::new(Weather), (input, server_write)).await
            {
                let _ = running.waiting().await;
            }
        });
        let (client_read, mut client_write) = tokio::io::split(client);
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        let long = "x".repeat(17 << 20);
        let lines = [
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"}}})
            .to_string(),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"run_code","arguments":{{"code":"return 1","x":{deep}}}}}}}"#
            ),
            format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"run_code","arguments":{{"code":"return 1//{long}"}}}}}}"#
            ),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                   "params": {"name": "run_code", "arguments": "{\"code\": \"return 6\"}"}})
            .to_string(),
        ];
        let writer = tokio::spawn(async move {
            for line in lines {
                client_write.write_all(line.as_bytes()).await.unwrap();
                client_write.write_all(b"\n").await.unwrap();
            }
            client_write
        });
        let mut answers = std::collections::BTreeMap::new();
        let mut read = tokio::io::BufReader::new(client_read).lines();
        while answers.len() < 4 {
            let line = tokio::time::timeout(Duration::from_secs(20), read.next_line())
                .await
                .expect("an answer in time")
                .unwrap()
                .expect("a line");
            let message: Value = serde_json::from_str(&line).unwrap();
            if let Some(id) = message["id"].as_u64() {
                answers.insert(id, message);
            }
        }
        let error = |id: u64| -> (i64, String) {
            let error = &answers[&id]["error"];
            (
                error["code"].as_i64().unwrap(),
                error["message"].as_str().unwrap().to_owned(),
            )
        };
        assert!(answers[&1]["result"].is_object());
        let (code, message) = error(2);
        assert_eq!(code, -32600);
        assert!(message.contains("nests arrays and objects"), "{message}");
        let (code, message) = error(3);
        assert_eq!(code, -32600);
        assert!(message.contains("past the 16 MiB"), "{message}");
        let (code, message) = error(4);
        assert_eq!(code, -32602);
        assert!(message.contains("`arguments` is a string"), "{message}");
        drop(writer.await.unwrap());
        served.abort();
    }

    #[tokio::test]
    async fn a_direct_result_that_breaks_its_output_schema_is_an_error() {
        let server = CodeModeServer::new(Weather);
        let call = |answer: Value| -> CallToolRequestParams {
            serde_json::from_value(json!({"name": "weather", "arguments": {"answer": answer}}))
                .unwrap()
        };
        let text = |result: &CallToolResult| {
            let block = serde_json::to_value(&result.content[0]).unwrap();
            block["text"].as_str().unwrap().to_owned()
        };
        // `format` is an annotation, as in MCP's default dialect, though
        // the schema names draft 7, where a validator may assert it; and a
        // pattern too costly to match checks nothing.
        for answer in [
            json!({"temperature": 21.5}),
            json!({"temperature": 21.5, "when": "noon"}),
            json!({"temperature": 21.5, "code": format!("{}c", "a".repeat(60))}),
        ] {
            let good = server.direct(&call(answer.clone())).await;
            assert_ne!(good.is_error, Some(true), "{answer}: {}", text(&good));
            assert_eq!(good.structured_content, Some(answer));
        }
        for (answer, why) in [
            (json!({"temperature": "warm"}), "at /temperature: "),
            (json!({}), "\"temperature\" is a required property"),
            (json!("21.5"), "it is a string, not an object"),
        ] {
            let bad = server.direct(&call(answer.clone())).await;
            assert_eq!(bad.is_error, Some(true), "{answer}");
            assert_eq!(bad.structured_content, None);
            let shown = text(&bad);
            assert!(
                shown.starts_with(
                    "weather: the result does not match the output schema the tool declares ("
                ) && shown.contains(why)
                    && shown.ends_with(&format!("the result was: {answer}")),
                "{shown}"
            );
        }
    }

    #[tokio::test]
    async fn a_direct_call_s_error_is_cut_as_its_result_is() {
        let server = CodeModeServer::new(Loud).max_result_bytes(1000);
        let text = |result: &CallToolResult| {
            let block = serde_json::to_value(&result.content[0]).unwrap();
            block["text"].as_str().unwrap().to_owned()
        };
        let call = |name: &str| -> CallToolRequestParams {
            serde_json::from_value(json!({"name": name, "arguments": {}})).unwrap()
        };
        let failed = server.direct(&call("shout")).await;
        assert_eq!(failed.is_error, Some(true));
        let shown = text(&failed);
        assert!(
            shown.starts_with("shout (tool_failed): aaa"),
            "{}",
            &shown[..40]
        );
        assert!(shown.len() <= 1000 + 64, "{}", shown.len());
        let unknown = server.direct(&call(&"x".repeat(100_000))).await;
        assert!(text(&unknown).len() < 400, "{}", text(&unknown).len());
    }

    #[test]
    fn a_budget_puts_an_index_in_the_run_code_description() {
        let description = |server: &CodeModeServer<Two>| {
            server.tools()[0]
                .description
                .as_deref()
                .unwrap_or_default()
                .to_owned()
        };
        let full = description(&CodeModeServer::new(Two));
        assert!(
            full.contains("  files_read(") && !full.contains("catalog.describe"),
            "{full}"
        );
        let index = description(&CodeModeServer::new(Two).budget(0));
        assert!(
            index.contains("catalog.describe") && index.contains("// files (2)"),
            "{index}"
        );
        assert_eq!(
            description(&CodeModeServer::new(Two).budget(1_000_000)),
            full
        );
        // A count of its own decides the fit: the full SDK within the
        // estimate's budget is past it by bytes.
        let estimated = codemode_core::estimate_tokens(&full);
        assert_eq!(
            description(&CodeModeServer::new(Two).budget(estimated)),
            full
        );
        let by_bytes = description(
            &CodeModeServer::new(Two)
                .budget(estimated)
                .token_counter(str::len),
        );
        assert!(by_bytes.contains("catalog.describe"), "{by_bytes}");
    }

    /// Tools that change when told to.
    struct Changing(std::sync::Mutex<Vec<ToolDef>>);

    impl Toolset for Changing {
        fn defs(&self) -> Vec<ToolDef> {
            self.0.lock().unwrap().clone()
        }

        async fn call(&self, name: &str, _: Value) -> Result<Value, ToolCallError> {
            Ok(json!(name))
        }
    }

    /// Fitting a budget counts tokens once per tool set: a second
    /// `tools/list` of the same tools counts nothing, and one after the
    /// tools changed fits (and lists) the new ones.
    #[test]
    fn a_budget_is_fitted_once_per_tool_set() {
        let counted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = {
            let counted = Arc::clone(&counted);
            move |text: &str| {
                counted.fetch_add(1, Ordering::Relaxed);
                text.len()
            }
        };
        let tools = Arc::new(Changing(std::sync::Mutex::new(Two.defs())));
        let server = CodeModeServer::from_arc(Arc::clone(&tools))
            .budget(100_000)
            .token_counter(count);
        let first = server.tools();
        let after_first = counted.load(Ordering::Relaxed);
        assert!(after_first > 0);
        assert_eq!(server.tools(), first);
        assert_eq!(counted.load(Ordering::Relaxed), after_first);
        tools
            .0
            .lock()
            .unwrap()
            .push(ToolDef::new("files_move", json!({"type": "object"})));
        let changed = server.tools()[0]
            .description
            .as_deref()
            .unwrap_or_default()
            .to_owned();
        assert!(changed.contains("files_move("), "{changed}");
        assert!(counted.load(Ordering::Relaxed) > after_first);
    }

    /// A setting changed after `tools/list` was answered changes the next
    /// answer: the kept `run_code` tool is made for the settings it had.
    #[test]
    fn settings_changed_after_a_listing_are_listed() {
        let description = |server: &CodeModeServer<Two>| {
            server.tools()[0].description.clone().unwrap_or_default()
        };
        let server = CodeModeServer::new(Two);
        let javascript = description(&server);
        let server = server.language(Language::Python);
        let python = description(&server);
        assert_ne!(python, javascript);
        assert_eq!(
            python,
            description(&CodeModeServer::new(Two).language(Language::Python))
        );
        let server = server.budget(0);
        let index = description(&server);
        assert!(index.contains("catalog.describe"), "{index}");
    }
}
