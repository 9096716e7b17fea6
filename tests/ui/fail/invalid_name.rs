/// Empty name.
#[codemode::tool(name = "")]
fn empty() {}

/// A newline in the name.
#[codemode::tool(name = "two\nlines")]
fn control() {}

fn main() {}
