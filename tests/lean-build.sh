#!/usr/bin/env bash
# The renderer stays lean: the CLI (default features), a crate that only
# declares tools, and the build helper compile no sandbox. Each is resolved
# on its own (as `cargo build -p` would) and its normal and build
# dependencies are searched for the engines' crates.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
heavy='^(rquickjs|rquickjs-core|rquickjs-sys|oxc_[a-z_]+|monty|monty-types|ruff_python_parser|rmcp|codemode-runtime) '
status=0
for package in codemode-cli agent-tools codemode-build; do
  found="$(cargo tree --quiet -p "$package" -e normal,build --prefix none --no-dedupe | grep -E "$heavy" | sort -u || true)"
  if [[ -n "$found" ]]; then
    echo "lean-build: $package compiles crates it never uses:" >&2
    echo "$found" | sed 's/^/  /' >&2
    status=1
  fi
done
# And the check can see them: the CLI with `mcp` does pull the engines in.
if ! cargo tree --quiet -p codemode-cli --features mcp -e normal --prefix none | grep -qE '^rquickjs '; then
  echo "lean-build: the check found no rquickjs even in codemode-cli --features mcp" >&2
  status=1
fi
# The lean CLI builds, renders, and names the feature `serve` needs.
sdk="$(echo '[{"name":"ping","inputSchema":{"type":"object"}}]' | cargo run --quiet -p codemode-cli -- render -l ts)"
grep -q '  ping(args' <<<"$sdk" || { echo "lean-build: the lean CLI did not render" >&2; status=1; }
set +e
err="$(cargo run --quiet -p codemode-cli -- serve --config mcp.json 2>&1)"
code=$?
set -e
if [[ $code -ne 2 ]] || ! grep -q -- '--features mcp' <<<"$err"; then
  echo "lean-build: the lean CLI's serve should exit 2 naming --features mcp (exit $code): $err" >&2
  status=1
fi
exit "$status"
