#!/usr/bin/env bash
# The example agent's build script must rerun exactly when it should:
# not on an unchanged rebuild, and after a change in the tools crate.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
script='Running `[^`]*build/agent-[0-9a-f]*/build-script-build`'
cargo build --quiet -p agent
# Output is captured first: `grep -q` would close the pipe on cargo early.
out="$(cargo build -v -p agent 2>&1)"
if grep -q "$script" <<<"$out"; then
  echo "FAIL: an unchanged rebuild reran the agent's build script"; exit 1
fi
tools=examples/agent-tools/src/lib.rs
cp -p "$tools" "$tools.orig"
trap 'mv "$tools.orig" "$tools"' EXIT
echo "// touched by tests/build-rerun.sh" >> "$tools"
out="$(cargo build -v -p agent 2>&1)"
if ! grep -q "$script" <<<"$out"; then
  echo "FAIL: a change in the tools crate did not rerun the agent's build script"; exit 1
fi
mv "$tools.orig" "$tools"; trap - EXIT
cargo build --quiet -p agent
echo "build-rerun: 2 passed, 0 failed"
