struct Config;

#[codemode::toolset]
impl Config {
    /// Not a method.
    #[tool]
    const LIMIT: u32 = 3;

    /// A real tool.
    #[tool]
    fn limit(&self) -> u32 {
        Self::LIMIT
    }
}

fn main() {}
