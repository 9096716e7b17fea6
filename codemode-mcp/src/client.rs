//! Upstream MCP servers as one toolset: connect, list, route, call, and
//! follow their tool lists as they change.

use crate::config::{McpConfig, ServerConfig, ServerTransport};
use crate::pin::{Drift, DriftPolicy, Pin};
use crate::result::call_value;
use codemode_core::{
    CallPolicy, ErrorKind, ToolCallError, ToolDef, Toolset, fingerprint, json_kind, server_prefix,
    tools_from_value_each, unknown_tool,
};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ClientRequest, CustomResult,
    Implementation, ListToolsRequest, PaginatedRequestParams, ServerResult,
};
use rmcp::service::{NotificationContext, Peer, RoleClient, RunningServiceCancellationToken};
use rmcp::{ClientHandler, ServiceError, ServiceExt};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

/// How long a server may take to start and list its tools, by default
/// (generous: `npx -y` may download the server on its first start).
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long one call may take, by default (a run's own per-call limit may
/// end it sooner).
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(120);

/// The tools of one or more MCP servers, as one [`Toolset`].
///
/// Each server's tools carry a prefix: none when there is one server, else
/// the server's name and `_` (or the prefix its [`ServerConfig`] sets). A
/// name two servers would share is an error that names both.
///
/// A call goes to the server that declared the tool, as `tools/call`; its
/// result becomes JSON as the crate documentation describes. `isError` is a
/// [`ToolCallError`] of kind `tool_failed` with the server's text; a
/// JSON-RPC error is `server_error`; a server that is not running is
/// `unavailable`; no answer in time is `timeout`.
///
/// A server that fails to start, or exits, fails only the calls to its own
/// tools: [`McpToolset::servers`] says what happened, and the other servers
/// keep working. The next call to a tool of a server that exited, or that
/// failed after it was connected, starts it again and waits for it; after
/// an attempt that fails (or a server that goes down again within ten
/// seconds), the next waits a second, then twice as long each time up to a
/// minute. When a server sends `notifications/tools/list_changed`, its
/// list is read again; [`McpToolset::defs`](Toolset::defs) and
/// [`McpToolset::fingerprint`] change with it, and [`McpToolset::changes`]
/// tells the host.
///
/// A server can be pinned to a `tools/list` snapshot fixed at build time
/// ([`McpToolsetBuilder::pin`]): its tools are then declared from the
/// snapshot, so the SDK stays byte-identical whatever the server does, and
/// a live list that differs is reported as [`Drift`], a warning or an
/// error by [`DriftPolicy`].
///
/// Dropping the last handle closes every connection and stops the child
/// processes. It needs a tokio runtime (with the `time` driver).
#[derive(Clone)]
pub struct McpToolset {
    inner: Arc<Inner>,
    _handles: Arc<Handles>,
}

/// Shared by the handles of one toolset, and by nothing that works in the
/// background: dropped with the last handle, it tells that work to end
/// (see [`Inner::retry_if_unknown`]), even while it holds the toolset.
struct Handles(CancellationToken);

impl Drop for Handles {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Builds an [`McpToolset`]: servers, pins, policies and timeouts.
#[derive(Debug, Clone)]
pub struct McpToolsetBuilder {
    servers: BTreeMap<String, ServerConfig>,
    pins: BTreeMap<String, Pin>,
    drift: DriftPolicy,
    connect_timeout: Duration,
    ready_within: Option<Duration>,
    call_timeout: Duration,
    direct: BTreeSet<String>,
    collisions: Collisions,
}

/// What an [`McpToolset`] does when two servers provide a tool under the
/// same name (after their prefixes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Collisions {
    /// Connecting fails with [`McpError::Collision`], and a changed tool
    /// list that would collide is not taken (the default).
    #[default]
    Error,
    /// The server first in name order keeps the name; the other server's
    /// tool is left out, with a warning in the log. A tool one server adds
    /// then never stops the others.
    KeepFirst,
}

/// Why an [`McpToolset`] could not be built. A server that fails to start
/// is not one of these: it fails only the calls to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpError {
    /// Two servers declare a tool under the same name (see [`Collisions`]).
    Collision {
        /// The name as a program would call it.
        tool: String,
        /// The server that declares it first (in name order).
        first: String,
        /// The other server.
        second: String,
    },
    /// A prefix that cannot start a tool name.
    InvalidPrefix {
        /// The server.
        server: String,
        /// The prefix.
        prefix: String,
    },
    /// A pinned server's tools would get another prefix than the SDK
    /// compiled with the pin gives them.
    PinPrefix {
        /// The server.
        server: String,
        /// The prefix the pin was compiled with.
        pinned: String,
        /// The prefix the toolset gives it.
        actual: String,
    },
    /// A pin names a server that is not configured.
    UnknownServer {
        /// The name the pin gives.
        server: String,
    },
    /// A pinned server's live tool list differs from its snapshot, and the
    /// policy is [`DriftPolicy::Error`].
    Drift(Box<Drift>),
    /// There are no servers to connect to.
    NoServers,
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McpError::Collision {
                tool,
                first,
                second,
            } => write!(
                f,
                "MCP servers {first:?} and {second:?} both provide a tool named {tool:?}: give one of them a different prefix"
            ),
            McpError::InvalidPrefix { server, prefix } => write!(
                f,
                "MCP server {server:?}: the prefix {prefix:?} cannot start a tool name (use ASCII letters, digits, `_`, `-` or `.`)"
            ),
            McpError::PinPrefix {
                server,
                pinned,
                actual,
            } => write!(
                f,
                "MCP server {server:?}: its pinned SDK names its tools with the prefix {pinned:?}, but here they get {actual:?}; set the server's prefix to {pinned:?} (or rebuild the pin with this one)"
            ),
            McpError::UnknownServer { server } => {
                write!(
                    f,
                    "a pin names the MCP server {server:?}, which is not configured"
                )
            }
            McpError::Drift(drift) => drift.fmt(f),
            McpError::NoServers => f.write_str("no MCP servers are configured"),
        }
    }
}

impl std::error::Error for McpError {}

/// What one upstream server is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerState {
    /// Connected; its tools can be called.
    Connected,
    /// Still starting (see [`McpToolsetBuilder::ready_within`]): its tools
    /// join when it has shaken hands and listed them.
    Connecting,
    /// It could not be started or did not complete the handshake or the
    /// tool listing; the message says why.
    Failed(String),
    /// It was connected, then exited or closed the connection.
    Exited(String),
}

/// One upstream server, as [`McpToolset::servers`] reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerStatus {
    /// Its name in the configuration.
    pub name: String,
    /// The prefix of its tools.
    pub prefix: String,
    /// Whether it is connected.
    pub state: ServerState,
    /// How many tools it contributes to the SDK.
    pub tools: usize,
    /// How its live tool list differs from its pinned snapshot, if it does.
    pub drift: Option<Drift>,
}

struct Inner {
    servers: Vec<Slot>,
    catalog: RwLock<Catalog>,
    changes: watch::Sender<u64>,
    drift: DriftPolicy,
    connect_timeout: Duration,
    direct: BTreeSet<String>,
    collisions: Collisions,
    refreshing: tokio::sync::Mutex<()>,
    /// Where each server's `list_changed` notices go (see [`Upstream`]).
    notify: mpsc::UnboundedSender<usize>,
    /// Cancelled when the last handle is dropped (see [`Handles`]).
    closed: CancellationToken,
}

struct Slot {
    name: String,
    prefix: String,
    config: ServerConfig,
    pin: Option<Pin>,
    call_timeout: Duration,
    live: Mutex<SlotLive>,
    /// Held while this server's tools are listed again and taken, so that
    /// an older list never overwrites a newer one.
    listing: tokio::sync::Mutex<()>,
    /// Held while the server is started again (see [`Inner::restart`]):
    /// calls that find it gone wait for that one attempt.
    restarts: Arc<tokio::sync::Mutex<Restarts>>,
    /// Whether attempts to start it run in the background (see
    /// [`Inner::retry_if_unknown`]).
    retrying: AtomicBool,
}

/// A connected server's peer, and which of its starts made it.
struct Connection {
    peer: Peer<RoleClient>,
    generation: u64,
}

/// The attempts to start a server again.
#[derive(Default)]
struct Restarts {
    /// Attempts that failed in a row (a server that went down again soon
    /// after one counts as one).
    failed: u32,
    /// No attempt before this.
    not_before: Option<tokio::time::Instant>,
    /// When the last attempt connected it.
    up_since: Option<tokio::time::Instant>,
}

/// How long a started server must stay up for its start to count as a
/// success: one that goes down sooner is started again only after a wait.
const STABLE: Duration = Duration::from_secs(10);

/// How long after a failed attempt to start a server again the next one
/// waits: doubled for each failure in a row, up to a minute.
fn restart_backoff(failed: u32) -> Duration {
    Duration::from_secs(1 << failed.saturating_sub(1).min(6)).min(Duration::from_secs(60))
}

#[derive(Default)]
struct SlotLive {
    /// Counts the starts: what a connection's watcher or a call learns of
    /// it touches the state only while no later start has replaced it.
    generation: u64,
    peer: Option<Peer<RoleClient>>,
    cancel: Option<RunningServiceCancellationToken>,
    state: Option<ServerState>,
    tools: Vec<ToolDef>,
    drift: Option<Drift>,
}

#[derive(Default)]
struct Catalog {
    defs: Vec<ToolDef>,
    routes: BTreeMap<String, (usize, String)>,
    /// The output schema of each tool that declares one, by name: a result
    /// that breaks it fails its call.
    outputs: BTreeMap<String, Arc<crate::output::LazyValidator>>,
    fingerprint: String,
    version: u64,
}

impl McpToolset {
    /// A builder with no servers.
    pub fn builder() -> McpToolsetBuilder {
        McpToolsetBuilder {
            servers: BTreeMap::new(),
            pins: BTreeMap::new(),
            drift: DriftPolicy::Warn,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            ready_within: None,
            call_timeout: DEFAULT_CALL_TIMEOUT,
            direct: BTreeSet::new(),
            collisions: Collisions::Error,
        }
    }

    /// Connects to every server of `config`, with the default settings.
    pub async fn connect(config: &McpConfig) -> Result<McpToolset, McpError> {
        McpToolset::builder().servers(config).connect().await
    }

    /// The fingerprint of the SDK these tools render to (see
    /// [`codemode_core::fingerprint`]); it changes when a tool list does.
    pub fn fingerprint(&self) -> String {
        self.inner.read_catalog().fingerprint.clone()
    }

    /// How many times the tool list has changed since connecting.
    pub fn version(&self) -> u64 {
        self.inner.read_catalog().version
    }

    /// A receiver that wakes whenever the tool list (and so the SDK)
    /// changes; its value is [`McpToolset::version`].
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.inner.changes.subscribe()
    }

    /// Every server, in name order, with its state.
    pub fn servers(&self) -> Vec<ServerStatus> {
        let catalog = self.inner.read_catalog();
        self.inner
            .servers
            .iter()
            .enumerate()
            .map(|(index, slot)| {
                let live = slot.lock();
                ServerStatus {
                    name: slot.name.clone(),
                    prefix: slot.prefix.clone(),
                    state: live.state.clone().unwrap_or(ServerState::Connecting),
                    tools: catalog.routes.values().filter(|(i, _)| *i == index).count(),
                    drift: live.drift.clone(),
                }
            })
            .collect()
    }

    /// The tools server `name` lists now, in its own names (before any
    /// prefix), sorted: what a snapshot of it holds. `None` when no server
    /// has that name.
    pub fn live_tools(&self, name: &str) -> Option<Vec<ToolDef>> {
        let slot = self.inner.servers.iter().find(|s| s.name == name)?;
        let mut tools = slot.lock().tools.clone();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        Some(tools)
    }

    /// Reads the tool list of `server` again (as a `list_changed`
    /// notification does). Returns whether the SDK changed.
    pub async fn refresh(&self, server: &str) -> bool {
        match self.inner.servers.iter().position(|s| s.name == server) {
            Some(index) => self.inner.refresh(index).await,
            None => false,
        }
    }
}

impl fmt::Debug for McpToolset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpToolset")
            .field("servers", &self.servers())
            .finish_non_exhaustive()
    }
}

impl McpToolsetBuilder {
    /// Adds a server under `name`.
    pub fn server(mut self, name: impl Into<String>, config: ServerConfig) -> Self {
        self.servers.insert(name.into(), config);
        self
    }

    /// Adds every server of `config`.
    pub fn servers(mut self, config: &McpConfig) -> Self {
        for (name, server) in &config.servers {
            self.servers.insert(name.clone(), server.clone());
        }
        self
    }

    /// Pins the tools of server `name` to a snapshot (see [`Pin`]).
    pub fn pin(mut self, name: impl Into<String>, pin: Pin) -> Self {
        self.pins.insert(name.into(), pin);
        self
    }

    /// What a pinned server's drift does (a warning by default).
    pub fn drift_policy(mut self, policy: DriftPolicy) -> Self {
        self.drift = policy;
        self
    }

    /// How long [`connect`](Self::connect) waits for the servers (the
    /// connect timeout unless set). A server still starting then is
    /// [`ServerState::Connecting`]: `connect` returns without its tools,
    /// and they join when it is ready (within the connect timeout), as a
    /// change of the tool list ([`McpToolset::changes`]). One server that
    /// hangs then delays the others no longer than this.
    pub fn ready_within(mut self, wait: Duration) -> Self {
        self.ready_within = Some(wait);
        self
    }

    /// What to do when two servers provide a tool under the same name
    /// ([`Collisions::Error`] unless set).
    pub fn collisions(mut self, policy: Collisions) -> Self {
        self.collisions = policy;
        self
    }

    /// How long a server may take to start, shake hands and list its tools.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Offers the tools named (as a program calls them, prefix included) to
    /// the model directly as well (policy `both`), whatever their server's
    /// configuration says. Names no server provides are ignored; compare
    /// with [`Toolset::defs`] to report them.
    pub fn direct(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.direct.extend(names.into_iter().map(Into::into));
        self
    }

    /// How long one call may take, for servers that do not set their own.
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// Starts or reaches every server at once, lists their tools, and
    /// builds the toolset. Servers that fail are reported by
    /// [`McpToolset::servers`], not here.
    pub async fn connect(self) -> Result<McpToolset, McpError> {
        if self.servers.is_empty() {
            return Err(McpError::NoServers);
        }
        if let Some(server) = self.pins.keys().find(|p| !self.servers.contains_key(*p)) {
            return Err(McpError::UnknownServer {
                server: server.clone(),
            });
        }
        let single = self.servers.len() == 1;
        let mut pins = self.pins;
        let mut slots = Vec::new();
        for (name, config) in self.servers {
            let prefix = server_prefix(&name, config.prefix.as_deref(), single);
            if !codemode_core::is_valid_prefix(&prefix) {
                return Err(McpError::InvalidPrefix {
                    server: name,
                    prefix,
                });
            }
            if let Some(pinned) = pins.get(&name).and_then(|p| p.prefix.clone())
                && pinned != prefix
            {
                return Err(McpError::PinPrefix {
                    server: name,
                    pinned,
                    actual: prefix,
                });
            }
            slots.push(Slot {
                pin: pins.remove(&name),
                call_timeout: config.call_timeout.unwrap_or(self.call_timeout),
                name,
                prefix,
                config,
                live: Mutex::new(SlotLive::default()),
                listing: tokio::sync::Mutex::new(()),
                restarts: Arc::default(),
                retrying: AtomicBool::new(false),
            });
        }
        let (changes, _) = watch::channel(0);
        let (notify, notices) = mpsc::unbounded_channel();
        let inner = Arc::new(Inner {
            servers: slots,
            catalog: RwLock::new(Catalog::default()),
            changes,
            drift: self.drift,
            connect_timeout: self.connect_timeout,
            direct: self.direct,
            collisions: self.collisions,
            refreshing: tokio::sync::Mutex::new(()),
            notify: notify.clone(),
            closed: CancellationToken::new(),
        });
        let connects: Vec<_> = (0..inner.servers.len())
            .map(|index| {
                let inner = Arc::clone(&inner);
                let notify = notify.clone();
                tokio::spawn(async move { inner.start(index, notify).await })
            })
            .collect();
        // Each connect ends by its own deadline; unless told to wait less,
        // every one is waited for.
        let ready_by = self
            .ready_within
            .map(|wait| tokio::time::Instant::now() + wait);
        let mut late = Vec::new();
        for (index, mut connect) in connects.into_iter().enumerate() {
            match ready_by {
                None => {
                    let _ = connect.await;
                }
                Some(by) => {
                    if tokio::time::timeout_at(by, &mut connect).await.is_err() {
                        late.push((index, connect));
                    }
                }
            }
        }
        for slot in &inner.servers {
            if let Some(drift) = slot.lock().drift.clone()
                && inner.drift == DriftPolicy::Error
            {
                return Err(McpError::Drift(Box::new(drift)));
            }
        }
        for slot in &inner.servers {
            slot.warn_of_unknown_policies();
        }
        let catalog = inner.build_catalog(0)?;
        *inner.catalog.write().unwrap_or_else(|e| e.into_inner()) = catalog;
        tokio::spawn(follow_changes(Arc::downgrade(&inner), notices));
        let late_ones: BTreeSet<usize> = late.iter().map(|(index, _)| *index).collect();
        for index in (0..inner.servers.len()).filter(|i| !late_ones.contains(i)) {
            inner.retry_if_unknown(index);
        }
        // Servers still starting join when they are ready.
        let joining = Arc::downgrade(&inner);
        for (index, connect) in late {
            let joining = joining.clone();
            tokio::spawn(async move {
                let _ = connect.await;
                if let Some(inner) = joining.upgrade() {
                    let started = inner.servers[index].lock().state == Some(ServerState::Connected);
                    inner.join(index).await;
                    if !started {
                        inner.retry_if_unknown(index);
                    }
                }
            });
        }
        Ok(McpToolset {
            _handles: Arc::new(Handles(inner.closed.clone())),
            inner,
        })
    }
}

impl Slot {
    fn lock(&self) -> std::sync::MutexGuard<'_, SlotLive> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Warns of each tool the server's policies name that a connected
    /// server does not list.
    fn warn_of_unknown_policies(&self) {
        if self.lock().state != Some(ServerState::Connected) {
            return;
        }
        let declared = self.declared();
        for tool in self.config.policies.keys() {
            if !declared.iter().any(|d| &d.name == tool) {
                tracing::warn!(server = %self.name, "MCP server {:?}: the policy for {tool:?} names no tool it lists", self.name);
            }
        }
    }

    /// Compares the live list with the pin, and warns of any drift.
    fn check_drift(&self, live: &mut SlotLive) {
        live.drift = self
            .pin
            .as_ref()
            .and_then(|pin| pin.drift(&self.name, &live.tools));
        if let Some(drift) = &live.drift {
            tracing::warn!(server = %self.name, "{drift}");
        }
    }

    /// The tools this server contributes: its pinned snapshot, or its live list.
    fn declared(&self) -> Vec<ToolDef> {
        match &self.pin {
            Some(pin) => pin.tools.clone(),
            None => self.lock().tools.clone(),
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        for slot in &self.servers {
            if let Some(cancel) = slot.lock().cancel.take() {
                cancel.cancel();
            }
        }
    }
}

/// Receives a server's `list_changed` notifications, by server index.
#[derive(Clone)]
struct Upstream {
    index: usize,
    notify: mpsc::UnboundedSender<usize>,
}

impl ClientHandler for Upstream {
    fn on_tool_list_changed(
        &self,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + Send + '_ {
        let _ = self.notify.send(self.index);
        std::future::ready(())
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("codemode", env!("CARGO_PKG_VERSION")),
        )
    }
}

/// Lists a server's tools again on each `list_changed` it sends. Each
/// server is refreshed on its own, so a slow or flooding server delays
/// only its own changes; notices that arrive while a server's refresh
/// runs are merged into one more refresh after it.
async fn follow_changes(inner: Weak<Inner>, mut notices: mpsc::UnboundedReceiver<usize>) {
    let mut running = tokio::task::JoinSet::new();
    // The server each running refresh is for, by task.
    let mut busy: HashMap<tokio::task::Id, usize> = HashMap::new();
    let mut again: BTreeSet<usize> = BTreeSet::new();
    let start = |index: usize, running: &mut tokio::task::JoinSet<()>| {
        let inner = inner.upgrade()?;
        let task = running.spawn(async move {
            inner.refresh(index).await;
        });
        Some((task.id(), index))
    };
    loop {
        tokio::select! {
            notice = notices.recv() => {
                let Some(index) = notice else { break };
                if busy.values().any(|&i| i == index) {
                    again.insert(index);
                    continue;
                }
                let Some((id, index)) = start(index, &mut running) else { break };
                busy.insert(id, index);
            }
            Some(done) = running.join_next_with_id(), if !running.is_empty() => {
                let id = match done {
                    Ok((id, ())) => id,
                    Err(failed) => failed.id(),
                };
                let Some(index) = busy.remove(&id) else { continue };
                if again.remove(&index) {
                    let Some((id, index)) = start(index, &mut running) else { break };
                    busy.insert(id, index);
                }
            }
        }
    }
}

impl Inner {
    fn read_catalog(&self) -> std::sync::RwLockReadGuard<'_, Catalog> {
        self.catalog.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Connects server `index` and lists its tools; a failure is recorded
    /// in its state.
    async fn start(self: &Arc<Self>, index: usize, notify: mpsc::UnboundedSender<usize>) {
        let slot = &self.servers[index];
        let generation = {
            let mut live = slot.lock();
            live.generation += 1;
            live.generation
        };
        let handler = Upstream { index, notify };
        let deadline = tokio::time::Instant::now() + self.connect_timeout;
        let connected = tokio::time::timeout_at(deadline, connect(handler, &slot.config)).await;
        let service = match connected {
            Ok(Ok(service)) => service,
            Ok(Err(message)) => return self.fail(index, message),
            Err(_) => {
                return self.fail(
                    index,
                    format!(
                        "it did not complete the MCP handshake within {}",
                        seconds(self.connect_timeout)
                    ),
                );
            }
        };
        let peer = service.peer().clone();
        {
            let mut live = slot.lock();
            live.peer = Some(peer.clone());
            // A connection this one replaces is ended, not left running.
            if let Some(old) = live.cancel.replace(service.cancellation_token()) {
                old.cancel();
            }
        }
        // Watch for the connection's end, so the state says so at once.
        let watcher = Arc::downgrade(self);
        tokio::spawn(async move {
            let reason = service.waiting().await;
            if let Some(inner) = watcher.upgrade() {
                let slot = &inner.servers[index];
                let mut live = slot.lock();
                if live.generation != generation {
                    return;
                }
                live.peer = None;
                if matches!(live.state, Some(ServerState::Connected) | None) {
                    let why = match reason {
                        Ok(rmcp::service::QuitReason::Cancelled) => "it was shut down".to_owned(),
                        Ok(_) => "it exited or closed the connection".to_owned(),
                        Err(_) => "its connection failed".to_owned(),
                    };
                    tracing::warn!(server = %slot.name, "MCP server {:?} is gone: {why}", slot.name);
                    live.state = Some(ServerState::Exited(why));
                    // With no tools known, no call would start it again.
                    drop(live);
                    inner.retry_if_unknown(index);
                }
            }
        });
        // As a refresh does: a `list_changed` the server sends meanwhile
        // is listed after this, never before.
        let _listing = slot.listing.lock().await;
        match self.list(index, &peer, deadline).await {
            Ok(tools) => {
                let mut live = slot.lock();
                live.tools = tools;
                slot.check_drift(&mut live);
                if live.state.is_none() {
                    live.state = Some(ServerState::Connected);
                }
            }
            Err(message) => self.fail(index, message),
        }
    }

    fn fail(&self, index: usize, message: String) {
        let slot = &self.servers[index];
        tracing::warn!(server = %slot.name, "MCP server {:?} is unavailable: {message}", slot.name);
        let mut live = slot.lock();
        live.state = Some(ServerState::Failed(message));
        live.peer = None;
        if let Some(cancel) = live.cancel.take() {
            cancel.cancel();
        }
    }

    /// Lists the tools of a connected server, following `nextCursor`.
    async fn list(
        &self,
        index: usize,
        peer: &Peer<RoleClient>,
        deadline: tokio::time::Instant,
    ) -> Result<Vec<ToolDef>, String> {
        let slot = &self.servers[index];
        let malformed = |why: &str| format!("its tool list is malformed: {why}");
        // The pages as JSON, each tool read on its own below: rmcp reads a
        // page whole, so one malformed tool would lose every other.
        let mut listed: Vec<Value> = Vec::new();
        let mut listed_bytes = 0usize;
        let mut cursor: Option<String> = None;
        for page in 0.. {
            if page == MAX_LIST_PAGES {
                return Err(malformed(&format!(
                    "it did not end within {MAX_LIST_PAGES} pages"
                )));
            }
            let request = ClientRequest::ListToolsRequest(ListToolsRequest {
                method: Default::default(),
                params: Some(PaginatedRequestParams::default().with_cursor(cursor.take())),
                extensions: Default::default(),
            });
            let answer = match tokio::time::timeout_at(deadline, peer.send_request(request)).await {
                Ok(Ok(ServerResult::ListToolsResult(page))) => serde_json::to_value(&page)
                    .map_err(|e| format!("its tool list cannot be read: {e}"))?,
                Ok(Ok(ServerResult::CustomResult(CustomResult(page)))) => page,
                Ok(Ok(_)) => {
                    return Err(malformed("the tools/list answer does not have MCP's shape"));
                }
                Ok(Err(e)) => {
                    return Err(format!("its tool list could not be read: {}", describe(&e)));
                }
                Err(_) => {
                    return Err(format!(
                        "it did not list its tools within {} of starting",
                        seconds(self.connect_timeout)
                    ));
                }
            };
            let Value::Object(mut answer) = answer else {
                return Err(malformed("the tools/list answer does not have MCP's shape"));
            };
            match answer.remove("tools") {
                Some(Value::Array(tools)) => {
                    listed_bytes = listed_bytes.saturating_add(json_size(&tools));
                    listed.extend(tools);
                }
                _ => {
                    return Err(malformed("the tools/list answer has no `tools` array"));
                }
            }
            if listed.len() > MAX_LISTED_TOOLS || listed_bytes > MAX_LISTED_BYTES {
                return Err(format!(
                    "its tool list is past the {MAX_LISTED_TOOLS} tools or {} MiB a server may list",
                    MAX_LISTED_BYTES >> 20
                ));
            }
            match answer.remove("nextCursor") {
                Some(Value::String(next)) if !next.is_empty() => cursor = Some(next),
                _ => break,
            }
        }
        let had = listed.len();
        let each = tools_from_value_each(Value::Array(listed)).map_err(|e| malformed(&e))?;
        let mut defs = Vec::with_capacity(each.len());
        let mut first_problem = None;
        for tool in each {
            // A tool no program could read or name is left out, not its
            // whole server.
            let problem = match tool {
                Ok(def) => match codemode_core::check_tool_name(&def.name) {
                    Ok(()) => {
                        defs.push(def);
                        continue;
                    }
                    Err(problem) => format!("the tool {:?}: {problem}", def.name),
                },
                Err(problem) => problem,
            };
            tracing::warn!(server = %slot.name, "MCP server {:?}: a tool is left out: {problem}", slot.name);
            first_problem.get_or_insert(problem);
        }
        // A list none of whose tools can be read says more as a failure
        // than as a server with no tools.
        if defs.is_empty()
            && had > 0
            && let Some(problem) = first_problem
        {
            return Err(malformed(&problem));
        }
        tracing::info!(server = %slot.name, tools = defs.len(), "listed the tools of MCP server {:?}", slot.name);
        Ok(defs)
    }

    /// Reads server `index`'s tools again and rebuilds the catalog; returns
    /// whether the SDK changed.
    async fn refresh(&self, index: usize) -> bool {
        let slot = &self.servers[index];
        // One refresh of a server at a time, so an older list never
        // overwrites a newer one; other servers' refreshes go on.
        let _listing = slot.listing.lock().await;
        let Some(peer) = slot.lock().peer.clone() else {
            return false;
        };
        let deadline = tokio::time::Instant::now() + self.connect_timeout;
        let tools = match self.list(index, &peer, deadline).await {
            Ok(tools) => tools,
            Err(message) => {
                tracing::warn!(server = %slot.name, "MCP server {:?}: the changed tool list was not taken: {message}", slot.name);
                return false;
            }
        };
        // One catalog built at a time, each from every server's newest
        // list, so a build from older lists never replaces a newer one.
        let _one_at_a_time = self.refreshing.lock().await;
        let old = {
            let mut live = slot.lock();
            let old = std::mem::replace(&mut live.tools, tools);
            slot.check_drift(&mut live);
            old
        };
        match self.publish(slot) {
            Ok(changed) => changed,
            Err(e) => {
                tracing::warn!(server = %slot.name, "the changed tool list of MCP server {:?} was not taken: {e}", slot.name);
                let mut live = slot.lock();
                live.tools = old;
                slot.check_drift(&mut live);
                false
            }
        }
    }

    /// Builds the catalog from every server's tools and, when it differs
    /// from the current one, makes it current and tells the host; `slot`
    /// is the server whose tools changed. Called with `refreshing` held.
    fn publish(&self, slot: &Slot) -> Result<bool, McpError> {
        let version = self.read_catalog().version;
        let catalog = self.build_catalog(version)?;
        let mut current = self.catalog.write().unwrap_or_else(|e| e.into_inner());
        if catalog.fingerprint == current.fingerprint {
            return Ok(false);
        }
        let version = current.version + 1;
        *current = Catalog { version, ..catalog };
        drop(current);
        tracing::info!(server = %slot.name, version, "the tools of MCP server {:?} changed", slot.name);
        self.changes.send_replace(version);
        Ok(true)
    }

    /// Takes the tools of server `index`, which finished connecting after
    /// [`McpToolset::connect`] returned (see
    /// [`McpToolsetBuilder::ready_within`]).
    async fn join(&self, index: usize) {
        let slot = &self.servers[index];
        slot.warn_of_unknown_policies();
        let _one_at_a_time = self.refreshing.lock().await;
        if let Err(e) = self.publish(slot) {
            slot.lock().tools = Vec::new();
            self.fail(index, format!("its tools were not taken: {e}"));
        }
    }

    /// The declarations of every server, prefixed and with their policies,
    /// and the routes back to each server's own names.
    fn build_catalog(&self, version: u64) -> Result<Catalog, McpError> {
        let mut routes: BTreeMap<String, (usize, String)> = BTreeMap::new();
        let mut defs = Vec::new();
        for (index, slot) in self.servers.iter().enumerate() {
            let mut declared = slot.declared();
            declared.sort_by(|a, b| a.name.cmp(&b.name));
            declared.dedup_by(|a, b| a.name == b.name);
            for def in declared {
                let name = format!("{}{}", slot.prefix, def.name);
                if let Some((first, _)) = routes.get(&name) {
                    let first = self.servers[*first].name.clone();
                    if self.collisions == Collisions::KeepFirst {
                        tracing::warn!(server = %slot.name, "MCP servers {first:?} and {:?} both provide a tool named {name:?}; the tool of {first:?} keeps the name, the other is left out", slot.name);
                        continue;
                    }
                    return Err(McpError::Collision {
                        tool: name,
                        first,
                        second: slot.name.clone(),
                    });
                }
                let policy = slot
                    .config
                    .policies
                    .get(&def.name)
                    .copied()
                    .unwrap_or(CallPolicy::Program);
                let policy = if self.direct.contains(&name) {
                    CallPolicy::Both
                } else {
                    policy
                };
                routes.insert(name.clone(), (index, def.name.clone()));
                defs.push(ToolDef {
                    name,
                    policy,
                    ..def
                });
            }
        }
        defs.sort_by(|a, b| a.name.cmp(&b.name));
        let outputs = (defs.iter())
            .filter_map(|def| {
                let schema = def.output_schema.as_ref().filter(|s| s.is_object())?;
                let validator = crate::output::LazyValidator::new(schema.clone());
                Some((def.name.clone(), Arc::new(validator)))
            })
            .collect();
        Ok(Catalog {
            fingerprint: fingerprint(&defs),
            defs,
            routes,
            outputs,
            version,
        })
    }

    /// Why server `index` cannot take calls now, if it cannot.
    fn unavailable(&self, index: usize) -> Result<Connection, String> {
        let slot = &self.servers[index];
        let live = slot.lock();
        if let (Some(drift), DriftPolicy::Error) = (&live.drift, self.drift) {
            return Err(format!("{drift}; its calls are refused until it matches"));
        }
        match (&live.peer, &live.state) {
            (Some(peer), Some(ServerState::Connected)) => Ok(Connection {
                peer: peer.clone(),
                generation: live.generation,
            }),
            (_, Some(ServerState::Failed(why) | ServerState::Exited(why))) => Err(format!(
                "the MCP server {:?} that provides this tool is not running: {why}",
                slot.name
            )),
            (_, None) => Err(format!(
                "the MCP server {:?} that provides this tool is still starting; call it again in a moment",
                slot.name
            )),
            _ => Err(format!(
                "the MCP server {:?} that provides this tool is not connected",
                slot.name
            )),
        }
    }

    /// Whether server `index` failed to start and no tool of it is known:
    /// no call can name one, so no call starts it again as
    /// [`Inner::restart`] does.
    fn unknown_and_down(&self, index: usize) -> bool {
        let slot = &self.servers[index];
        let live = slot.lock();
        slot.pin.is_none()
            && live.tools.is_empty()
            && matches!(
                live.state,
                Some(ServerState::Failed(_) | ServerState::Exited(_))
            )
    }

    /// Keeps trying, in the background, to start server `index` if it
    /// failed to start and none of its tools is known (see
    /// [`Inner::unknown_and_down`]). The attempts wait as restarts do (1,
    /// 2, 4 … 60 s, see [`restart_backoff`]); the first that connects adds
    /// its tools and tells the host, as a `list_changed` would. They end
    /// with the toolset.
    fn retry_if_unknown(self: &Arc<Self>, index: usize) {
        let slot = &self.servers[index];
        if !self.unknown_and_down(index) || slot.retrying.swap(true, Ordering::SeqCst) {
            return;
        }
        let inner = Arc::downgrade(self);
        let closed = self.closed.clone();
        tokio::spawn(async move {
            let mut failed = 0u32;
            loop {
                failed = failed.saturating_add(1);
                tokio::select! {
                    () = closed.cancelled() => return,
                    () = tokio::time::sleep(restart_backoff(failed)) => {}
                }
                let Some(inner) = inner.upgrade() else { return };
                // Ends with the toolset, even in the middle of an attempt:
                // the attempt holds it, so it would not end by itself.
                let done = tokio::select! {
                    () = closed.cancelled() => return,
                    done = inner.retry_once(index) => done,
                };
                if done {
                    inner.servers[index].retrying.store(false, Ordering::SeqCst);
                    return;
                }
            }
        });
    }

    /// One background attempt to start server `index` (see
    /// [`Inner::retry_if_unknown`]); whether no more are of use: it
    /// started, or it is no longer down with no tools known.
    async fn retry_once(self: &Arc<Self>, index: usize) -> bool {
        let slot = &self.servers[index];
        // One attempt at a time, whoever makes it.
        let mut restarts = slot.restarts.lock().await;
        if !self.unknown_and_down(index) {
            return true;
        }
        tracing::info!(server = %slot.name, "starting MCP server {:?} again, which failed to start", slot.name);
        if !self.start_again(index).await {
            return false;
        }
        restarts.failed = 0;
        restarts.not_before = None;
        restarts.up_since = Some(tokio::time::Instant::now());
        // Taken, or refused for good (its tools collide): in neither case
        // is starting it again of use.
        true
    }

    /// Starts server `index` again (its restarts held by the caller) and,
    /// if it connects, takes its tools, which may have changed while it
    /// was down; whether it connected.
    async fn start_again(self: &Arc<Self>, index: usize) -> bool {
        let slot = &self.servers[index];
        slot.lock().state = None;
        self.start(index, self.notify.clone()).await;
        let connected = slot.lock().state == Some(ServerState::Connected);
        if connected {
            self.join(index).await;
        }
        connected
    }

    /// What an unknown tool's error adds when the name is one a server
    /// that is down would give (its prefix starts it): that server's tools
    /// are missing from the SDK, and why.
    fn missing_server(&self, name: &str) -> Option<String> {
        // The server whose prefix starts the name, the longest if several
        // do: a name close to a running server's is that server's typo.
        let slot = self
            .servers
            .iter()
            .filter(|slot| name.starts_with(&slot.prefix))
            .max_by_key(|slot| slot.prefix.len())?;
        let live = slot.lock();
        if !live.tools.is_empty() || slot.pin.is_some() {
            return None;
        }
        let server = format!(
            "the MCP server {:?}, whose tools would be named \"{}…\",",
            slot.name, slot.prefix
        );
        let later = if slot.retrying.load(Ordering::SeqCst) {
            "; it is started again in the background, and its tools are added when it starts"
        } else {
            ""
        };
        match &live.state {
            Some(ServerState::Failed(why) | ServerState::Exited(why)) => Some(format!(
                "{server} is not running ({why}), so none of its tools is in the SDK{later}"
            )),
            None => Some(format!(
                "{server} is still starting, so none of its tools is in the SDK yet; they are added when it has started"
            )),
            Some(ServerState::Connecting | ServerState::Connected) => None,
        }
    }

    /// Starts server `index` again if it exited or failed, and gives its
    /// connection once it is connected; else why it cannot take calls.
    /// Calls that find it gone share one attempt, which runs as a task of
    /// its own: a call that stops waiting (its run ended) leaves it to
    /// finish. After an attempt that fails, or a server that went down
    /// again soon after one, the next waits (see [`restart_backoff`]), and
    /// calls in between are refused at once, saying when it will be tried.
    async fn restart(self: &Arc<Self>, index: usize) -> Result<Connection, String> {
        let slot = &self.servers[index];
        let mut restarts = Arc::clone(&slot.restarts).lock_owned().await;
        // An attempt made while this call waited may have connected it.
        let why = match self.unavailable(index) {
            Ok(connection) => return Ok(connection),
            Err(why) => why,
        };
        if !matches!(
            slot.lock().state,
            Some(ServerState::Exited(_) | ServerState::Failed(_))
        ) {
            return Err(why);
        }
        let now = tokio::time::Instant::now();
        if let Some(up) = restarts.up_since.take() {
            if now.duration_since(up) < STABLE {
                // Down again soon after it was started: as a failed attempt.
                restarts.failed = restarts.failed.saturating_add(1);
                restarts.not_before = Some(up + restart_backoff(restarts.failed));
            } else {
                restarts.failed = 0;
            }
        }
        if let Some(at) = restarts.not_before
            && now < at
        {
            return Err(format!(
                "{why}; it is started again at a call in {}",
                seconds_rounded_up(at - now)
            ));
        }
        let inner = Arc::clone(self);
        let attempt = tokio::spawn(async move {
            let slot = &inner.servers[index];
            tracing::info!(server = %slot.name, "starting MCP server {:?} again", slot.name);
            inner.start_again(index).await;
            match inner.unavailable(index) {
                Ok(connection) => {
                    restarts.not_before = None;
                    restarts.up_since = Some(tokio::time::Instant::now());
                    Ok(connection)
                }
                Err(why) => {
                    restarts.failed = restarts.failed.saturating_add(1);
                    let wait = restart_backoff(restarts.failed);
                    restarts.not_before = Some(tokio::time::Instant::now() + wait);
                    Err(format!(
                        "{why}; it was started again and failed; the next attempt is at a call in {}",
                        seconds_rounded_up(wait)
                    ))
                }
            }
        });
        match tokio::time::timeout(slot.call_timeout, attempt).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(_)) => Err(format!("{why}; starting it again failed")),
            Err(_) => Err(format!(
                "{why}; it is being started again, which takes longer than a call may wait; call it again in a moment"
            )),
        }
    }

    async fn call(self: &Arc<Self>, name: String, args: Value) -> Result<Value, ToolCallError> {
        let (route, output) = {
            let catalog = self.read_catalog();
            let route = catalog.routes.get(&name).cloned();
            (route, catalog.outputs.get(&name).cloned())
        };
        let Some((index, tool)) = route else {
            let catalog = self.read_catalog();
            let known: Vec<&str> = catalog.routes.keys().map(String::as_str).collect();
            let mut error = unknown_tool(&name, &known);
            if let Some(missing) = self.missing_server(&name) {
                error.message.push_str("; ");
                error.message.push_str(&missing);
            }
            return Err(error);
        };
        let slot = &self.servers[index];
        let fail = |kind, message: String| ToolCallError::new(&name, kind, message);
        let Connection { peer, generation } = match self.unavailable(index) {
            Ok(connection) => connection,
            Err(_) => self
                .restart(index)
                .await
                .map_err(|why| fail(ErrorKind::Unavailable, why))?,
        };
        let arguments = match args {
            Value::Null => None,
            Value::Object(map) => Some(map),
            other => {
                return Err(fail(
                    ErrorKind::InvalidArguments,
                    format!("the arguments must be an object, not {}", json_kind(&other)),
                ));
            }
        };
        let mut params = CallToolRequestParams::new(tool);
        params.arguments = arguments;
        match tokio::time::timeout(slot.call_timeout, peer.call_tool(params)).await {
            Err(_) => Err(fail(
                ErrorKind::Timeout,
                format!(
                    "the MCP server {:?} did not answer within {}",
                    slot.name,
                    seconds(slot.call_timeout)
                ),
            )),
            Ok(Ok(result)) => {
                let json = serde_json::to_value(&result).unwrap_or(Value::Null);
                let value = call_value(json).map_err(|text| fail(ErrorKind::ToolFailed, text))?;
                // The SDK declares the result as the output schema says; a
                // result that breaks it would reach the program mistyped.
                match output.and_then(|output| output.mismatch(&value)) {
                    Some(mismatch) => Err(fail(
                        ErrorKind::InvalidResult,
                        format!(
                            "the MCP server {:?} answered with a result that does not match the output schema the tool declares ({mismatch}); the result was: {}",
                            slot.name,
                            codemode_runtime::cut(&value.to_string(), RESULT_SHOWN)
                        ),
                    )),
                    None => Ok(value),
                }
            }
            Ok(Err(e)) => Err(match &e {
                // An answer the line filter could not pass on: the server
                // answered, but not in a form a program can be handed.
                ServiceError::McpError(error) if crate::stdio::is_refusal(error) => fail(
                    ErrorKind::InvalidResult,
                    format!(
                        "the answer of the MCP server {:?} cannot be read: {}",
                        slot.name, error.message
                    ),
                ),
                ServiceError::McpError(error) => fail(
                    ErrorKind::ServerError,
                    format!(
                        "the MCP server {:?} refused the call: {} (JSON-RPC error {})",
                        slot.name, error.message, error.code.0
                    ),
                ),
                ServiceError::Timeout { .. } => fail(
                    ErrorKind::Timeout,
                    format!("the MCP server {:?} did not answer in time", slot.name),
                ),
                ServiceError::TransportSend(_) if !peer.is_transport_closed() => fail(
                    ErrorKind::Unavailable,
                    format!(
                        "the call could not reach the MCP server {:?}: {}; it may work if tried again",
                        slot.name,
                        describe(&e)
                    ),
                ),
                ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                    let why = "it exited or closed the connection".to_owned();
                    {
                        // Unless it was started again meanwhile: that
                        // connection is not this one.
                        let mut live = slot.lock();
                        if live.generation == generation {
                            live.peer = None;
                            live.state = Some(ServerState::Exited(why.clone()));
                            if let Some(cancel) = live.cancel.take() {
                                cancel.cancel();
                            }
                        }
                    }
                    fail(
                        ErrorKind::Unavailable,
                        format!(
                            "the MCP server {:?} that provides this tool is not running: {why}",
                            slot.name
                        ),
                    )
                }
                _ => fail(
                    ErrorKind::ServerError,
                    format!(
                        "the MCP server {:?} failed the call: {}",
                        slot.name,
                        describe(&e)
                    ),
                ),
            }),
        }
    }
}

/// How much of a result that breaks its output schema an error shows.
const RESULT_SHOWN: usize = 2048;

impl Toolset for McpToolset {
    fn defs(&self) -> Vec<ToolDef> {
        self.inner.read_catalog().defs.clone()
    }

    /// Names the server that would provide `name` when it is down and none
    /// of its tools is known (it failed its first start, say), and why.
    fn missing(&self, name: &str) -> Option<String> {
        self.inner.missing_server(name)
    }

    fn call(
        &self,
        name: &str,
        args: Value,
    ) -> impl Future<Output = Result<Value, ToolCallError>> + Send {
        let inner = Arc::clone(&self.inner);
        let name = name.to_owned();
        async move { inner.call(name, args).await }
    }
}

/// Starts or reaches one server and completes the MCP handshake.
async fn connect(
    handler: Upstream,
    config: &ServerConfig,
) -> Result<rmcp::service::RunningService<RoleClient, Upstream>, String> {
    match &config.transport {
        ServerTransport::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut cmd = tokio::process::Command::new(command);
            cmd.args(args).envs(env).kill_on_drop(true);
            if let Some(cwd) = cwd {
                cmd.current_dir(cwd);
            }
            // Its own process group, killed whole: a server started through
            // `npx` or a shell leaves no grandchildren behind.
            let mut wrapped = process_wrap::tokio::CommandWrap::from(cmd);
            wrapped
                .wrap(process_wrap::tokio::ProcessGroup::leader())
                .wrap(process_wrap::tokio::KillOnDrop);
            let process = crate::stdio::ChildTransport::spawn(wrapped)
                .map_err(|e| format!("`{command}` could not be started: {e}"))?;
            handler.serve(process).await.map_err(|e| match e {
                rmcp::service::ClientInitializeError::ConnectionClosed(_) => format!(
                    "`{command}` exited or closed its output before completing the MCP handshake (see its stderr)"
                ),
                other => format!("the MCP handshake failed: {other}"),
            })
        }
        ServerTransport::Http { url, headers } => {
            crate::install_crypto_provider();
            let mut custom = HashMap::new();
            for (name, value) in headers {
                let header = http::HeaderName::from_bytes(name.as_bytes())
                    .map_err(|e| format!("the header name {name:?} is invalid: {e}"))?;
                let value = http::HeaderValue::from_str(value)
                    .map_err(|e| format!("the value of header {name:?} is invalid: {e}"))?;
                custom.insert(header, value);
            }
            let config = rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(url.as_str())
                .custom_headers(custom);
            let transport = rmcp::transport::StreamableHttpClientTransport::with_client(
                crate::http::FilteredHttp::new()?,
                config,
            );
            handler
                .serve(transport)
                .await
                .map_err(|e| format!("the MCP handshake with {url} failed: {e}"))
        }
    }
}

/// A service error in words a model can act on (no Rust type names).
fn describe(error: &ServiceError) -> String {
    match error {
        ServiceError::McpError(e) => format!("{} (JSON-RPC error {})", e.message, e.code.0),
        ServiceError::TransportSend(e) => {
            format!("the request could not be sent ({})", plain(&e.error.to_string()))
        }
        ServiceError::TransportClosed => "the connection is closed".to_owned(),
        ServiceError::UnexpectedResponse => "the server's answer is not a tool result codemode can read: it is malformed (for example `content` that is not a list of blocks), or it asks for input or starts a task, which codemode does not support".to_owned(),
        ServiceError::Timeout { .. } => "the server did not answer in time".to_owned(),
        ServiceError::Cancelled { .. } => "the request was cancelled".to_owned(),
        other => other.to_string(),
    }
}

/// A transport's error text without the Rust it quotes: rmcp (pinned)
/// writes an HTTP content type as `Some("text/plain")` and names its message
/// type (`as ServerJsonRpcMessage`), which mean nothing to a model.
fn plain(text: &str) -> String {
    let mut out = text.replace(" as ServerJsonRpcMessage", "");
    while let Some(start) = out.find("Some(\"") {
        let Some(len) = out[start + 6..].find("\")") else {
            break;
        };
        let inner = out[start + 6..start + 6 + len].to_owned();
        out.replace_range(start..start + 6 + len + 2, &inner);
    }
    out.replace("content type: None", "content type: none")
}

/// Most pages a tool list may take: a server that keeps giving cursors is
/// cut off here, rather than read until the connect timeout.
const MAX_LIST_PAGES: usize = 10_000;

/// Most tools, and most bytes of them as JSON, one server may list: a
/// server that keeps listing is cut off here, rather than held in memory
/// until the connect timeout (every real server lists far fewer).
const MAX_LISTED_TOOLS: usize = 20_000;
const MAX_LISTED_BYTES: usize = 64 << 20;

/// The length of `value` as compact JSON, counted without writing it.
fn json_size(value: &impl serde::Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// `d` in whole seconds, rounded up (`1 s` at least).
fn seconds_rounded_up(d: Duration) -> String {
    let s = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    format!("{} s", s.max(1))
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rust_values_in_transport_errors_read_as_text() {
        assert_eq!(
            super::plain(r#"Unexpected content type: Some("text/plain")"#),
            "Unexpected content type: text/plain"
        );
        assert_eq!(
            super::plain("Unexpected content type: None"),
            "Unexpected content type: none"
        );
        assert_eq!(
            super::plain(
                "unexpected server response: could not parse JSON response as ServerJsonRpcMessage: key must be a string at line 1 column 2"
            ),
            "unexpected server response: could not parse JSON response: key must be a string at line 1 column 2"
        );
        assert_eq!(super::plain(r#"Some("a"), Some("b""#), r#"a, Some("b""#);
    }
}
