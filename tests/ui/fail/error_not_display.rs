#[derive(Debug)]
struct Opaque;

/// Might fail.
#[codemode::tool]
fn risky() -> Result<u8, Opaque> {
    Err(Opaque)
}

fn main() {}
