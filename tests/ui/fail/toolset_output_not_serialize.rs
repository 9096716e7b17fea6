struct Report {
    lines: Vec<String>,
}

struct Reports;

#[codemode::toolset]
impl Reports {
    /// Make a report.
    #[tool]
    fn report(&self, title: String) -> Report {
        Report { lines: vec![title] }
    }
}

fn main() {}
