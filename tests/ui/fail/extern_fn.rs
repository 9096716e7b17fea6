/// A C function.
#[codemode::tool]
extern "C" fn from_c(x: i32) -> i32 {
    x
}

fn main() {}
