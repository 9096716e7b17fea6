//! Golden files: each `tests/golden/NAME.json` tool set renders to
//! `NAME.ts` and `NAME.py` exactly. `schemars.json` is itself produced here,
//! by schemars, from the Rust types below.
//!
//! After an intended change, run `UPDATE_GOLDENS=1 cargo test --test golden`
//! and review the diff.

use codemode::{Language, ToolDef, render};
use schemars::{JsonSchema, schema_for};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Compares `actual` with the file, or rewrites the file under `UPDATE_GOLDENS`.
fn check(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("UPDATE_GOLDENS").is_some() {
        std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: {e} (run with UPDATE_GOLDENS=1)", path.display()))?;
    if expected == actual {
        return Ok(());
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.lines().count().min(actual.lines().count()));
    Err(format!(
        "{} differs from the rendered text first at line {}:\n  expected: {:?}\n  actual:   {:?}",
        path.display(),
        line + 1,
        expected.lines().nth(line),
        actual.lines().nth(line)
    ))
}

#[test]
fn every_tool_set_matches_its_goldens() {
    let mut failures = Vec::new();
    let mut sets = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let tools: Vec<ToolDef> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let ts = render(Language::TypeScript, &tools);
        assert_eq!(ts, render(Language::JavaScript, &tools));
        for (ext, text) in [("ts", ts), ("py", render(Language::Python, &tools))] {
            if let Err(e) = check(&path.with_extension(ext), &text) {
                failures.push(e);
            }
        }
        sets += 1;
    }
    assert!(sets >= 10, "only {sets} golden tool sets");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- Rust types whose schemars schemas make up schemars.json ----

/// Where a parcel goes.
#[derive(Serialize, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Address {
    street: String,
    /// Postal code, if the country uses them.
    postcode: Option<String>,
    country: Country,
}

/// ISO country, externally tagged (serde's default).
#[derive(Serialize, Deserialize, JsonSchema)]
#[allow(dead_code)]
enum Country {
    /// Ships from Oslo.
    Norway,
    Chile,
    Other(String),
}

/// Internally tagged.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(dead_code)]
enum Shipping {
    Standard,
    Express { days: u8 },
}

/// Adjacently tagged.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
#[allow(dead_code)]
enum Payment {
    Card(String),
    Invoice { due_days: u16 },
}

/// Untagged.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum Quantity {
    Count(u32),
    Weight { grams: f64 },
}

/// A category tree.
#[derive(Serialize, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Category {
    name: String,
    children: Vec<Category>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct ShipArgs {
    to: Address,
    shipping: Shipping,
    payment: Payment,
    quantity: Quantity,
    /// Extra label lines.
    labels: BTreeMap<String, String>,
    dimensions: (f32, f32, f32),
    category: Option<Category>,
    weights: HashMap<String, Vec<Option<i64>>>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct ShipOutput {
    tracking: String,
    eta: Option<(u16, u8, u8)>,
}

fn schemars_tools() -> Vec<ToolDef> {
    let strip = |schema: schemars::Schema| {
        let mut value = schema.to_value();
        if let Some(map) = value.as_object_mut() {
            map.remove("$schema");
            map.remove("title");
        }
        value
    };
    vec![
        ToolDef::new("ship", strip(schema_for!(ShipArgs)))
            .with_description("Ship an order.")
            .with_output_schema(strip(schema_for!(ShipOutput))),
    ]
}

#[test]
fn schemars_schemas_match_their_goldens() {
    let tools = schemars_tools();
    let json = serde_json::to_string_pretty(&tools).unwrap() + "\n";
    let mut failures = Vec::new();
    for (ext, text) in [
        ("json", json),
        ("ts", render(Language::TypeScript, &tools)),
        ("py", render(Language::Python, &tools)),
    ] {
        if let Err(e) = check(&dir().join(format!("schemars.{ext}")), &text) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
