//! The interop suite's installed packages (real MCP servers), for
//! tests in any crate: `#[path = ".../tests/support/interop.rs"] mod interop;`.
// Each test crate uses the part it needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The directory `tests/interop/install.sh` installs into, installing on
/// first use (cached across runs; a lock keeps concurrent installs apart).
/// Panics with the script's output when the install fails: these tests
/// need the real servers and never skip.
pub fn cache() -> &'static Path {
    static CACHE: OnceLock<PathBuf> = OnceLock::new();
    CACHE.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .map(|dir| dir.join("tests/interop/install.sh"))
            .find(|path| path.exists())
            .expect("tests/interop/install.sh is in the workspace");
        let out = std::process::Command::new("bash")
            .arg(&script)
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "{} failed (it needs npm and network access to the registries):\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
}

/// The path of an installed npm executable, such as `mcp-server-memory`.
pub fn bin(name: &str) -> String {
    cache()
        .join("node_modules/.bin")
        .join(name)
        .display()
        .to_string()
}
