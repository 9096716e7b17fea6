struct A;

#[codemode::toolset(krate = "x")]
impl A {}

struct B;

#[codemode::toolset(crate = "not a path")]
impl B {}

fn main() {}
