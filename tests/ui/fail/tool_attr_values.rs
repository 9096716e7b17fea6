/// Search.
#[codemode::tool(policy = "sometimes", read_only = 1, read_only)]
fn search(q: String) -> String {
    q
}

#[codemode::tool(description = "")]
fn blank(q: String) -> String {
    q
}

fn main() {}
