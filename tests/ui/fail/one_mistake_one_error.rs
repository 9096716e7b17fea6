// A tool with a mistake is still a tool to the code around it: the
// mistake is the only error, not a cascade through `tools!` and the
// toolset's users.

#[codemode::tool]
fn undocumented(x: i32) -> i32 {
    x
}

/// Fine.
#[codemode::tool]
fn fine(x: i32) -> i32 {
    x
}

codemode::tools! {
    /// Both.
    pub struct Both { undocumented, fine }
}

struct Broken;

#[codemode::toolset]
impl Broken {
    /// Takes a borrowed string.
    #[tool]
    fn greet(&self, name: &str) -> String {
        name.to_owned()
    }
}

fn main() {
    use codemode::{StaticToolset, Toolset};
    let _ = Both::tool_defs();
    let _ = Broken.defs();
    let _ = <undocumented as codemode::Tool>::NAME;
}
