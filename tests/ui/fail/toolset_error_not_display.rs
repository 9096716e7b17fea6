#[derive(Debug)]
struct Opaque;

struct Risky;

#[codemode::toolset]
impl Risky {
    /// Might fail.
    #[tool]
    fn risky(&self) -> Result<u8, Opaque> {
        Err(Opaque)
    }
}

fn main() {}
