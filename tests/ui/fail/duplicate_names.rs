struct Files;

#[codemode::toolset]
impl Files {
    /// Read a file.
    #[tool(name = "read")]
    fn read_text(&self, path: String) -> String {
        path
    }

    /// Read a file as bytes.
    #[tool(name = "read")]
    fn read_bytes(&self, path: String) -> Vec<u8> {
        path.into_bytes()
    }
}

fn main() {}
