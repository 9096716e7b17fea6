use codemode::{StaticToolset, Toolset};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Query {
    /// Text to look for.
    q: String,
    limit: Option<u32>,
}

#[derive(Clone, serde::Serialize, schemars::JsonSchema)]
struct Hit {
    title: String,
}

/// Search the index.
#[codemode::tool]
async fn search(#[args] query: Query) -> Result<Vec<Hit>, std::io::Error> {
    Ok(vec![Hit { title: query.q }; query.limit.unwrap_or(1) as usize])
}

/// Current time, as a string.
#[codemode::tool(name = "clock.now")]
pub fn now() -> String {
    "12:00".into()
}

/// Nothing back.
#[codemode::tool]
fn forget(r#type: String) {
    let _ = r#type;
}

codemode::tools! {
    /// Search and time.
    pub struct Tools { search, now, forget }
}

fn main() {
    let defs = Tools::tool_defs();
    assert_eq!(defs.len(), 3);
    assert_eq!(defs[0].name, "clock.now");
    assert!(defs[1].input_schema["properties"]["type"].is_object());
    // `tools!` dispatches as `#[toolset]` does.
    assert!(Tools.is_blocking("clock.now"));
    assert!(!Tools.is_blocking("search"));
    assert_eq!(Tools.defs().len(), 3);
}
