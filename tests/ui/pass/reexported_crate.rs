// A crate that re-exports codemode can point the macros at its path.

mod sdk {
    pub use ::codemode;
}

use crate::sdk::codemode::{StaticToolset, Tool};

/// Say hello.
#[codemode::tool(crate = "crate::sdk::codemode")]
fn hello(name: String) -> String {
    format!("hello, {name}")
}

struct Greeter;

#[codemode::toolset(crate = "crate::sdk::codemode")]
impl Greeter {
    /// Say goodbye.
    #[tool]
    fn bye(&self, name: String) -> String {
        format!("bye, {name}")
    }
}

fn main() {
    assert_eq!(<hello as Tool>::NAME, "hello");
    assert_eq!(Greeter::tool_defs()[0].name, "bye");
}
