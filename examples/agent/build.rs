//! Renders the SDK of the agent's tools into OUT_DIR at compile time.

fn main() {
    // On a problem this prints `cargo::error=` (and fails the build with that
    // message); degradations become `cargo::warning=` lines.
    let _ = codemode_build::Sdk::new()
        .toolset::<agent_tools::SupportTools>()
        .emit();
}
