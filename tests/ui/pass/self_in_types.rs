// `Self` in a tool's parameter and output types means the toolset's type,
// as it does in any method.
use codemode::StaticToolset;

trait Ledger {
    type Cents;
}

struct Bank;

impl Ledger for Bank {
    type Cents = i64;
}

#[codemode::toolset]
impl Bank {
    /// Add two amounts.
    #[tool]
    fn add(&self, a: <Self as Ledger>::Cents, b: Option<Box<<Self as Ledger>::Cents>>) -> <Self as Ledger>::Cents {
        a + b.map_or(0, |b| *b)
    }
}

fn main() {
    let defs = Bank::tool_defs();
    assert_eq!(defs[0].input_schema["properties"]["a"]["type"], "integer");
    assert_eq!(defs[0].input_schema["required"], serde_json::json!(["a"]));
    let _ = Bank.add(1, None);
}
