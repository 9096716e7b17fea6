struct Counter(u64);

#[codemode::toolset]
impl Counter {
    /// Count up.
    #[tool]
    fn bump(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

fn main() {}
