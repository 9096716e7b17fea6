/// Read raw memory.
#[codemode::tool]
unsafe fn peek(addr: usize) -> u8 {
    addr as u8
}

fn main() {}
