#!/usr/bin/env bash
# The project's test command: lints, the Rust test suite, the docs, and the
# interop suite with the real TypeScript and Python checkers.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --all-features --quiet -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
cargo test --workspace --features codemode-cli/mcp
tests/lean-build.sh
tests/build-rerun.sh
tests/interop/run.sh
