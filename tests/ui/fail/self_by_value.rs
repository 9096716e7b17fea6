struct Shop;

#[codemode::toolset]
impl Shop {
    /// Close the shop.
    #[tool]
    fn close(self) -> bool {
        true
    }
}

fn main() {}
