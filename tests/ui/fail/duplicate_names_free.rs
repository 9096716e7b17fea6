/// Version one.
#[codemode::tool(name = "get")]
fn get_v1() -> u8 {
    1
}

/// Version two.
#[codemode::tool(name = "get")]
fn get_v2() -> u8 {
    2
}

codemode::tools! {
    struct Getters { get_v1, get_v2 }
}

fn main() {}
