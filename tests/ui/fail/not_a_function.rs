/// A struct.
#[codemode::tool]
struct NotATool {
    x: u8,
}

fn main() {}
