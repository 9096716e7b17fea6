#[codemode::tool(colour = "red")]
fn everything_wrong<T>(text: &str, (a, b): (u8, u8), _x: T) -> u8 {
    a + b
}

fn main() {}
