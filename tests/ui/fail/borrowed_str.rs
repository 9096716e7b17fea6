/// Shout.
#[codemode::tool]
fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {}
