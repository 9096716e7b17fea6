#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Query {
    q: String,
}

/// Search.
#[codemode::tool]
fn search(#[args] query: Query, limit: u32) -> Vec<String> {
    vec![query.q; limit as usize]
}

fn main() {}
