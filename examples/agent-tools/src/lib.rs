//! The tools of a small support agent: a documentation index, a ticket
//! tracker, weather and currency conversion. Everything is in memory and
//! deterministic, so the example runs anywhere.
//!
//! The crate is both a dependency and a build-dependency of `agent`, whose
//! build script renders the SDK from [`SupportTools`]'s `tool_defs()`.

use codemode::{ErrorKind, ToolCallError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// How urgent a ticket is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Whenever someone has time.
    Low,
    /// The default.
    Normal,
    /// Someone is blocked.
    Urgent,
}

/// Where a ticket stands. Closing one needs a resolution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    /// Waiting for someone to pick it up.
    Open,
    /// Being worked on by someone.
    InProgress {
        /// Who works on it.
        assignee: String,
    },
    /// Done.
    Closed {
        /// Why it was closed.
        resolution: Resolution,
    },
}

/// Why a ticket was closed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// The problem is solved.
    Fixed,
    /// Another ticket covers it.
    Duplicate,
    /// It will not be done.
    WontFix,
}

/// A new ticket.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct NewTicket {
    /// One line that says what is wrong.
    pub title: String,
    /// Details, in Markdown.
    pub body: Option<String>,
    /// `normal` when left out.
    pub priority: Option<Priority>,
    /// Free-form labels.
    #[serde(default)]
    pub labels: Vec<String>,
}

/// A ticket in the tracker.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Ticket {
    /// Its number.
    pub id: u64,
    /// One line that says what is wrong.
    pub title: String,
    /// How urgent it is.
    pub priority: Priority,
    /// Where it stands.
    pub status: Status,
    /// Free-form labels.
    pub labels: Vec<String>,
}

/// One search hit in the documentation.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DocHit {
    /// Pass it to `read_doc`.
    pub id: String,
    /// The page title.
    pub title: String,
    /// Which manual it is from.
    pub section: Section,
    /// 0 to 1; higher is better.
    pub score: f32,
}

/// A part of the documentation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// How to use the product.
    Guide,
    /// Every option and endpoint.
    Reference,
    /// Known problems and fixes.
    Troubleshooting,
}

/// A page of the documentation.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Page {
    /// Its id.
    pub id: String,
    /// The lines asked for.
    pub lines: Vec<String>,
    /// How many lines the page has in all.
    pub total_lines: usize,
}

/// A place: a city by name, or coordinates.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Location {
    /// A city name, such as `"Oslo"`.
    City(String),
    /// Coordinates in degrees.
    Coordinates {
        /// -90 to 90.
        lat: f64,
        /// -180 to 180.
        lon: f64,
    },
}

/// The weather at a place.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Weather {
    /// Degrees Celsius.
    pub temperature_c: f64,
    /// A few words, such as `"light rain"`.
    pub conditions: String,
    /// Speed in m/s and compass direction.
    pub wind: (f64, String),
}

/// A currency, by ISO code.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Currency {
    /// Euro.
    EUR,
    /// US dollar.
    USD,
    /// Norwegian krone.
    NOK,
    /// Japanese yen.
    JPY,
}

/// The errors of the tracker and the index.
#[derive(Debug)]
pub enum SupportError {
    /// No ticket or page has that id.
    NotFound(String),
    /// The request makes no sense.
    Invalid(String),
}

impl From<SupportError> for ToolCallError {
    fn from(e: SupportError) -> Self {
        match e {
            SupportError::NotFound(what) => {
                ToolCallError::new("", ErrorKind::ToolFailed, format!("not found: {what}"))
            }
            SupportError::Invalid(why) => ToolCallError::new("", ErrorKind::InvalidArguments, why),
        }
    }
}

const DOCS: &[(&str, &str, Section, &str)] = &[
    (
        "guide/install",
        "Installing the agent",
        Section::Guide,
        "Download the package.\nRun the installer.\nSign in with your workspace account.",
    ),
    (
        "guide/tickets",
        "Working with tickets",
        Section::Guide,
        "Create a ticket for each problem.\nSet the priority to urgent only when someone is blocked.\nClose tickets with a resolution.",
    ),
    (
        "ref/api",
        "API reference",
        Section::Reference,
        "GET /tickets lists tickets.\nPOST /tickets creates one.\nRate limit: 60 requests per minute.",
    ),
    (
        "trouble/login",
        "Cannot sign in",
        Section::Troubleshooting,
        "Clear the browser cache.\nCheck that single sign-on is enabled.\nReset the password from the sign-in page.",
    ),
    (
        "trouble/sync",
        "Tickets do not sync",
        Section::Troubleshooting,
        "Check the network connection.\nThe sync runs every five minutes.\nLarge attachments delay the sync.",
    ),
];

/// The support agent's tools.
#[derive(Debug, Default)]
pub struct SupportTools {
    tickets: Mutex<Vec<Ticket>>,
}

impl SupportTools {
    /// A tracker with a few tickets in it already.
    pub fn with_sample_tickets() -> Self {
        let tools = SupportTools::default();
        for (title, priority, labels) in [
            ("Login page times out", Priority::Urgent, vec!["auth"]),
            ("Typo in the install guide", Priority::Low, vec!["docs"]),
            (
                "Sync skips large attachments",
                Priority::Normal,
                vec!["sync", "attachments"],
            ),
        ] {
            let _ = tools.insert(
                title.to_owned(),
                priority,
                labels.into_iter().map(str::to_owned).collect(),
            );
        }
        tools
    }

    fn insert(&self, title: String, priority: Priority, labels: Vec<String>) -> Ticket {
        let mut tickets = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
        let ticket = Ticket {
            id: tickets.len() as u64 + 1,
            title,
            priority,
            status: Status::Open,
            labels,
        };
        tickets.push(ticket.clone());
        ticket
    }
}

#[codemode::toolset]
impl SupportTools {
    /// Search the product documentation. Hits are sorted best first.
    #[tool]
    fn search_docs(
        &self,
        /// Words to look for.
        query: String,
        /// Only this part of the documentation.
        section: Option<Section>,
        /// At most this many hits (default 5).
        limit: Option<u8>,
    ) -> Vec<DocHit> {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        let mut hits: Vec<DocHit> = DOCS
            .iter()
            .filter(|(_, _, s, _)| section.is_none_or(|want| want == *s))
            .filter_map(|(id, title, s, text)| {
                let haystack = format!("{title} {text}").to_lowercase();
                let found = words
                    .iter()
                    .filter(|w| haystack.contains(w.as_str()))
                    .count();
                (found > 0).then(|| DocHit {
                    id: (*id).to_owned(),
                    title: (*title).to_owned(),
                    section: *s,
                    score: found as f32 / words.len().max(1) as f32,
                })
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.id.cmp(&b.id)));
        hits.truncate(usize::from(limit.unwrap_or(5)));
        hits
    }

    /// Read a documentation page, or some of its lines.
    #[tool]
    fn read_doc(
        &self,
        /// An id from `search_docs`.
        id: String,
        /// First and last line to return (1-based, inclusive).
        lines: Option<(usize, usize)>,
    ) -> Result<Page, SupportError> {
        let (_, _, _, text) = DOCS
            .iter()
            .find(|(doc, ..)| *doc == id)
            .ok_or_else(|| SupportError::NotFound(format!("page {id:?}")))?;
        let all: Vec<String> = text.lines().map(str::to_owned).collect();
        let (first, last) = lines.unwrap_or((1, all.len()));
        if first == 0 || first > last {
            return Err(SupportError::Invalid(format!(
                "bad line range {first}..={last}"
            )));
        }
        Ok(Page {
            id,
            lines: all
                .iter()
                .skip(first - 1)
                .take(last + 1 - first)
                .cloned()
                .collect(),
            total_lines: all.len(),
        })
    }

    /// Open a ticket. Returns it with its new id.
    #[tool]
    fn create_ticket(&self, #[args] ticket: NewTicket) -> Result<Ticket, SupportError> {
        if ticket.title.trim().is_empty() {
            return Err(SupportError::Invalid("a ticket needs a title".into()));
        }
        Ok(self.insert(
            ticket.title,
            ticket.priority.unwrap_or(Priority::Normal),
            ticket.labels,
        ))
    }

    /// List tickets, newest first, optionally only those with a label.
    #[tool]
    fn list_tickets(&self, label: Option<String>) -> Vec<Ticket> {
        let tickets = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<Ticket> = tickets
            .iter()
            .filter(|t| label.as_ref().is_none_or(|l| t.labels.contains(l)))
            .cloned()
            .collect();
        out.reverse();
        out
    }

    /// Move a ticket to a new status.
    #[tool]
    async fn update_ticket(&self, id: u64, status: Status) -> Result<Ticket, SupportError> {
        let mut tickets = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
        let ticket = tickets
            .iter_mut()
            .find(|t| t.id == id)
            .ok_or_else(|| SupportError::NotFound(format!("ticket #{id}")))?;
        ticket.status = status;
        Ok(ticket.clone())
    }

    /// Current weather for a city or coordinates.
    #[tool(name = "weather.current")]
    async fn weather(&self, location: Location) -> Weather {
        let seed = match &location {
            Location::City(name) => name.bytes().map(u32::from).sum::<u32>() as f64,
            Location::Coordinates { lat, lon } => (lat * 7.0 + lon * 3.0).abs(),
        };
        Weather {
            temperature_c: (seed % 35.0 - 5.0).round(),
            conditions: ["clear", "cloudy", "light rain", "snow"][seed as usize % 4].to_owned(),
            wind: (
                (seed % 12.0).round(),
                ["N", "E", "S", "W"][seed as usize % 4].to_owned(),
            ),
        }
    }

    /// Convert money between currencies at today's reference rates.
    #[tool]
    fn convert_currency(
        &self,
        amount: f64,
        from: Currency,
        to: Currency,
    ) -> Result<BTreeMap<Currency, f64>, SupportError> {
        if !amount.is_finite() || amount < 0.0 {
            return Err(SupportError::Invalid(format!("cannot convert {amount}")));
        }
        let per_eur = |c: Currency| match c {
            Currency::EUR => 1.0,
            Currency::USD => 1.08,
            Currency::NOK => 11.6,
            Currency::JPY => 162.0,
        };
        let converted = amount / per_eur(from) * per_eur(to);
        Ok([(from, amount), (to, (converted * 100.0).round() / 100.0)]
            .into_iter()
            .collect())
    }
}
