#!/usr/bin/env bash
# The check beside the real checkers, for scale: the check's criterion
# benchmark (a 50-line program, 100 tools), then `tsc --noEmit` and
# `mypy` on the same program after the same SDK, each as a whole
# process, five runs, best shown. The check runs twice: on the system
# allocator, and on mimalloc (the allocator the `codemode` CLI uses).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cache="$(tests/interop/install.sh)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cargo run --quiet --release -p codemode-benches --bin check-sample -- "$work"
best() {
  local best=""
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s%N)
    "$@" > "$work/out.log" 2>&1 || { cat "$work/out.log" >&2; echo "check-vs-tsc: $1 rejected the program" >&2; exit 1; }
    end=$(date +%s%N)
    local ms=$(( (end - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}
echo "tsc --noEmit: $(best "$cache/node_modules/.bin/tsc" --noEmit --target es2022 "$work/program.ts") ms"
echo "mypy (no cache): $(best "$cache/venv/bin/mypy" --no-incremental --cache-dir /dev/null "$work/program.py") ms"
for features in "" "--features mimalloc"; do
  echo "check, ${features:-system allocator}:"
  # shellcheck disable=SC2086 # an empty $features is no argument
  cargo bench --quiet -p codemode-benches --bench check $features -- --warm-up-time 1 --measurement-time 5 2>&1 | grep -E "^check|time:"
done
