/// Forty-two.
#[codemode::tool]
const fn answer() -> u8 {
    42
}

fn main() {}
