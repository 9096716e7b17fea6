/// Ping.
#[codemode::tool(nmae = "ping")]
fn ping() -> bool {
    true
}

fn main() {}
