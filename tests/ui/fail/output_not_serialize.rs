struct Report {
    lines: Vec<String>,
}

/// Make a report.
#[codemode::tool]
fn report() -> Report {
    Report { lines: vec![] }
}

fn main() {}
