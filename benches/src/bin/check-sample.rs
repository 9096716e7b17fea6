//! Writes the check benchmark's input for outside checkers, so their time
//! can be set beside the check's: `sdk.ts` (the TypeScript SDK of 100
//! generated tools), `program.ts` (the same 50-line program the benchmark
//! checks, as the body of an async function after the SDK), and the
//! Python pair (`sdk.py`, `program.py`).
//!
//! Usage: `check-sample DIR`

use codemode::{Catalog, Language};
use codemode_benches::{corpus, program};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir: PathBuf = std::env::args()
        .nth(1)
        .ok_or("usage: check-sample DIR")?
        .into();
    std::fs::create_dir_all(&dir)?;
    let catalog = Catalog::new(corpus(100));
    let tools: Vec<_> = catalog.tools().cloned().collect();
    let ts = program(&tools, Language::TypeScript, 50);
    let body: String = ts.lines().map(|l| format!("  {l}\n")).collect();
    std::fs::write(
        dir.join("program.ts"),
        format!(
            "{}\nexport async function main(): Promise<unknown> {{\n{body}}}\n",
            catalog.render(Language::TypeScript)
        ),
    )?;
    std::fs::write(dir.join("sdk.py"), catalog.render(Language::Python))?;
    let py = program(&tools, Language::Python, 50);
    let body: String = py.lines().map(|l| format!("    {l}\n")).collect();
    std::fs::write(
        dir.join("program.py"),
        format!("from sdk import *\n\n\nasync def main() -> object:\n{body}")
            .replace("    len(results)\n", "    return len(results)\n"),
    )?;
    Ok(())
}
