/// Count items.
#[codemode::tool]
fn count(items: impl IntoIterator<Item = u8>) -> usize {
    items.into_iter().count()
}

fn main() {}
