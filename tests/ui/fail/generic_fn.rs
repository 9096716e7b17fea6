/// Echo anything.
#[codemode::tool]
fn echo<T: serde::Serialize>(x: T) -> T {
    x
}

fn main() {}
