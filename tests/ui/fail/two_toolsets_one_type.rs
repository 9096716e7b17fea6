// Tools split over two #[toolset] blocks of one type: each block implements
// the toolset traits, so the type has two of each, and that is all that is
// reported.
pub struct Files;

#[codemode::toolset]
impl Files {
    /// Read a file.
    #[tool]
    fn read(&self, path: String) -> String {
        path
    }
}

#[codemode::toolset]
impl Files {
    /// Write a file.
    #[tool]
    fn write(&self, path: String, text: String) -> usize {
        path.len() + text.len()
    }
}

fn main() {}
