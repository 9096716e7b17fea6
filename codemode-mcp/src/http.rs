//! The streamable HTTP client to an upstream server: rmcp's reqwest client,
//! with each server-sent event read through the same filter as a stdio
//! server's lines ([`crate::stdio::filter_line`]).
//!
//! rmcp skips an event whose data it cannot read as a JSON-RPC message,
//! so a request answered by one (no `"jsonrpc": "2.0"`, an unreadable
//! `error`, `1e400`, nesting past 127 levels) would wait for its call
//! timeout. Through the filter, such an answer is mended or becomes an
//! error for its request, saying why, and the call fails at once.
//!
//! A whole JSON body (`Content-Type: application/json`) that rmcp cannot
//! read fails its request at once already; it fails as an unreadable answer
//! too, rather than as a server that cannot be reached.

use crate::stdio::{Filtered, filter_line, refusal_error};
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::Sse;
use std::collections::HashMap;
use std::sync::Arc;

type Error = StreamableHttpError<reqwest::Error>;
type Events = BoxStream<'static, Result<Sse, SseError>>;

/// rmcp's reqwest client with every event read through the line filter.
#[derive(Clone)]
pub(crate) struct FilteredHttp(reqwest::Client);

/// The most redirects one request follows.
const MAX_REDIRECTS: usize = 10;

impl FilteredHttp {
    /// A client set up as rmcp sets up its own: no idle connections kept
    /// (a reused connection whose last answer was not read to its end
    /// stalls on delayed ACKs), and only redirects that keep the method,
    /// the body and the origin followed (307 and 308 to the same origin),
    /// so neither the message nor the headers reach another host.
    pub(crate) fn new() -> Result<Self, String> {
        let redirects = reqwest::redirect::Policy::custom(|attempt| {
            let keeps_body = matches!(
                attempt.status(),
                reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
            );
            let same_origin = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if !keeps_body || !same_origin {
                attempt.stop()
            } else if attempt.previous().len() > MAX_REDIRECTS {
                attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
            } else {
                attempt.follow()
            }
        });
        reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(redirects)
            .build()
            .map(FilteredHttp)
            .map_err(|e| format!("the HTTP client could not be made: {e}"))
    }
}

/// Every event of `events`, its data read as a line from the server.
fn filtered(events: Events) -> Events {
    events
        .map(|event| {
            event.map(|mut sse| {
                if let Some(data) = &sse.data {
                    match filter_line(data.as_bytes(), "server") {
                        Filtered::Pass => {}
                        Filtered::Mended(line) => {
                            let line = String::from_utf8_lossy(&line);
                            sse.data = Some(line.trim_end_matches('\n').to_owned());
                        }
                        // rmcp skips it as well.
                        Filtered::Dropped => {}
                    }
                }
                sse
            })
        })
        .boxed()
}

/// A posted message's answer with its events filtered, and a JSON body
/// rmcp could not read as an error for the request posted (see the
/// module's documentation).
fn answered(
    posted: Option<rmcp::model::RequestId>,
    answer: Result<StreamableHttpPostResponse, Error>,
) -> Result<StreamableHttpPostResponse, Error> {
    match answer {
        Ok(StreamableHttpPostResponse::Sse(events, session)) => {
            Ok(StreamableHttpPostResponse::Sse(filtered(events), session))
        }
        Err(error) => match (posted, unreadable(&error)) {
            (Some(id), Some(why)) => Ok(StreamableHttpPostResponse::Json(
                ServerJsonRpcMessage::error(
                    refusal_error(format!(
                        "the server's answer is no JSON-RPC 2.0 response: {why}"
                    )),
                    Some(id),
                ),
                None,
            )),
            _ => Err(error),
        },
        other => other,
    }
}

/// What rmcp's reqwest client says of a JSON body it could not read as a
/// JSON-RPC message, without its own type's name; `None` for any other
/// error.
fn unreadable(error: &Error) -> Option<String> {
    const PARSE: &str = "could not parse JSON response";
    match error {
        StreamableHttpError::Deserialize(e) => Some(e.to_string()),
        StreamableHttpError::UnexpectedServerResponse(text) if text.starts_with(PARSE) => {
            let rest = text[PARSE.len()..].trim_start_matches(|c: char| c != ':');
            Some(rest.trim_start_matches(':').trim().to_owned())
        }
        _ => None,
    }
}

/// The id of `message` if it is a request, which a response answers.
fn request_id(message: &ClientJsonRpcMessage) -> Option<rmcp::model::RequestId> {
    match message {
        ClientJsonRpcMessage::Request(request) => Some(request.id.clone()),
        _ => None,
    }
}

/// Each method hands its work to rmcp's client and filters what comes
/// back. rmcp's worker posts through `post_message_with_response_limits`
/// and opens streams through `get_stream_with_max_sse_event_size`, which
/// are passed on as they are; the trait's other defaults reach them
/// through the methods required here.
impl StreamableHttpClient for FilteredHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let posted = request_id(&message);
        let answer = self
            .0
            .post_message(uri, message, session_id, auth_header, custom_headers)
            .await;
        answered(posted, answer)
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let posted = request_id(&message);
        let answer = self
            .0
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await;
        answered(posted, answer)
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Error> {
        self.0
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, Error> {
        self.0
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
            .map(filtered)
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<Events, Error> {
        self.0
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
            .map(filtered)
    }
}
