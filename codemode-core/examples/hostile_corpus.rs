//! Writes reproducible random hostile tool sets, and one too large for
//! pyright in class syntax, for the interop suite to render and hand to
//! `tsc --strict`, `mypy --strict` and pyright strict.
//!
//! Usage: `cargo run -p codemode-core --example hostile_corpus -- DIR [COUNT]`

#[path = "../tests/strategies/mod.rs"]
mod strategies;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: hostile_corpus DIR [COUNT]");
        return std::process::ExitCode::from(2);
    };
    let count: usize = match args.next().map(|n| n.parse()) {
        None => 24,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("error: COUNT: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: {dir}: {e}");
        return std::process::ExitCode::from(2);
    }
    // A fixed seed: the same corpus on every machine and every run.
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let strategy = strategies::tools();
    for i in 0..count {
        let tools = match strategy.new_tree(&mut runner) {
            Ok(tree) => tree.current(),
            Err(e) => {
                eprintln!("error: generating set {i}: {e}");
                return std::process::ExitCode::FAILURE;
            }
        };
        let path = format!("{dir}/hostile-{i:02}.json");
        let text = serde_json::to_string_pretty(&tools).unwrap_or_default();
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: {path}: {e}");
            return std::process::ExitCode::FAILURE;
        }
    }
    // Not random: a stub too large for pyright in class syntax, 400 tools
    // with an object of 100 keys each (40,000 class fields, where pyright
    // stops near 32,000 statements in a module's flow).
    let path = format!("{dir}/large-classes.json");
    let text = serde_json::to_string(&large_classes(400, 100)).unwrap_or_default();
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("error: {path}: {e}");
        return std::process::ExitCode::FAILURE;
    }
    // Not random: `$ref`s that only name other `$ref`s, 40 and 3,000 links
    // long (mypy gives up on 20 such links, pyright and tsc overflow their
    // stacks on a few thousand, unless the SDK shortens them).
    let path = format!("{dir}/ref-chains.json");
    let text = serde_json::to_string(&ref_chains(&[40, 3_000])).unwrap_or_default();
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("error: {path}: {e}");
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}

/// One tool per length: its argument `x` a chain of that many `$ref`s,
/// each only the name of the next, ending in a string; every other link
/// described.
fn ref_chains(lengths: &[usize]) -> serde_json::Value {
    let tools: Vec<serde_json::Value> = lengths
        .iter()
        .map(|&n| {
            let mut defs = serde_json::Map::new();
            for i in 0..n {
                let mut link = serde_json::json!({"$ref": format!("#/$defs/D{}", i + 1)});
                if i % 2 == 1 {
                    link["description"] = format!("Link {i}.").into();
                }
                defs.insert(format!("D{i}"), link);
            }
            defs.insert(format!("D{n}"), serde_json::json!({"type": "string"}));
            serde_json::json!({
                "name": format!("chain_{n}"),
                "inputSchema": {
                    "type": "object",
                    "$defs": defs,
                    "properties": {"x": {"$ref": "#/$defs/D0"}, "y": {"$ref": "#/$defs/D1"}},
                    "required": ["x"]
                }
            })
        })
        .collect();
    serde_json::json!({ "tools": tools })
}

/// `tools` tools, each taking one object of `keys` string keys, no two
/// objects alike.
fn large_classes(tools: usize, keys: usize) -> serde_json::Value {
    let tools: Vec<serde_json::Value> = (0..tools)
        .map(|t| {
            let props: serde_json::Map<String, serde_json::Value> = (0..keys)
                .map(|k| (format!("k{t}_{k}"), serde_json::json!({"type": "string"})))
                .collect();
            serde_json::json!({
                "name": format!("tool_{t}"),
                "inputSchema": {"type": "object", "properties": {"o": {"type": "object", "properties": props}}}
            })
        })
        .collect();
    serde_json::Value::Array(tools)
}
