#[codemode::tool]
fn undocumented(x: i32) -> i32 {
    x
}

fn main() {}
