//! The sessions of `codemode serve --http`, capped in number.
//!
//! rmcp's session manager opens a session for every `initialize` and keeps
//! it until the client deletes it or it has been idle for five minutes. A
//! client that keeps initializing (by mistake, or on purpose) would so hold
//! more and more sessions, each with a task and its buffers. Past the cap,
//! a new `initialize` is refused with an error that says why; the sessions
//! already open go on.

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// Sessions one HTTP server keeps open at once unless told otherwise
/// ([`crate::CodeModeServer::max_sessions`]).
pub const DEFAULT_MAX_SESSIONS: usize = 64;

/// rmcp's local session manager, with at most `max` sessions open; a
/// session that ends stops its programs still running (see [`SessionRuns`]).
pub(crate) struct CappedSessions {
    inner: LocalSessionManager,
    max: usize,
    runs: Arc<SessionRuns>,
}

impl CappedSessions {
    pub(crate) fn new(max: usize, runs: Arc<SessionRuns>) -> Self {
        CappedSessions {
            inner: LocalSessionManager::default(),
            max: max.max(1),
            runs,
        }
    }
}

/// The programs running for each HTTP session, by session id, so that a
/// session the client ends (HTTP DELETE) stops them at once: rmcp would
/// let them run on while it waits for answers in flight, holding their
/// slots among the programs that run at once.
#[derive(Default)]
pub(crate) struct SessionRuns {
    runs: Mutex<HashMap<String, Vec<(u64, CancellationToken)>>>,
    next: AtomicU64,
}

impl SessionRuns {
    /// Records a run of `session`, stopped through `token`, until the
    /// guard given back is dropped.
    pub(crate) fn add(self: &Arc<Self>, session: &str, token: CancellationToken) -> RunOfSession {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock()
            .entry(session.to_owned())
            .or_default()
            .push((id, token));
        RunOfSession {
            runs: Arc::clone(self),
            session: session.to_owned(),
            id,
        }
    }

    /// Stops every run of `session`.
    fn end(&self, session: &str) {
        for (_, token) in self.lock().remove(session).unwrap_or_default() {
            token.cancel();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<(u64, CancellationToken)>>> {
        self.runs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A run recorded in [`SessionRuns`], forgotten when dropped.
pub(crate) struct RunOfSession {
    runs: Arc<SessionRuns>,
    session: String,
    id: u64,
}

impl Drop for RunOfSession {
    fn drop(&mut self) {
        let mut runs = self.runs.lock();
        if let Some(list) = runs.get_mut(&self.session) {
            list.retain(|(id, _)| *id != self.id);
            if list.is_empty() {
                runs.remove(&self.session);
            }
        }
    }
}

/// Why a session could not be made or reached.
#[derive(Debug)]
pub(crate) enum SessionsError {
    /// As many sessions as allowed are open.
    Full(usize),
    /// The local session manager's own error.
    Local(LocalSessionManagerError),
}

impl fmt::Display for SessionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionsError::Full(max) => write!(
                f,
                "this server has {max} sessions open, as many as it keeps; end one (HTTP DELETE with its Mcp-Session-Id) or wait for one to be idle for five minutes"
            ),
            SessionsError::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SessionsError {}

impl From<LocalSessionManagerError> for SessionsError {
    fn from(e: LocalSessionManagerError) -> Self {
        SessionsError::Local(e)
    }
}

impl SessionManager for CappedSessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        // Counted, then made: two `initialize`s at the same moment may both
        // pass, so the cap can be passed by the requests in flight at once.
        if self.inner.sessions.read().await.len() >= self.max {
            return Err(SessionsError::Full(self.max));
        }
        Ok(self.inner.create_session().await?)
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.runs.end(id);
        let closed = self.inner.close_session(id).await;
        // And what started while it closed.
        self.runs.end(id);
        Ok(closed?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        Ok(self.inner.restore_session(id).await?)
    }

    fn event_store(
        &self,
    ) -> Option<std::sync::Arc<dyn rmcp::transport::streamable_http_server::session::EventStore>>
    {
        self.inner.event_store()
    }
}
