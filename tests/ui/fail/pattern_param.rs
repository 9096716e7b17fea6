/// Add a pair.
#[codemode::tool]
fn add((a, b): (i32, i32)) -> i32 {
    a + b
}

fn main() {}
