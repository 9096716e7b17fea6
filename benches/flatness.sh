#!/usr/bin/env bash
# The per-tool cost of reading, lowering and printing at 10, 100, 1,000 and
# 10,000 generated tools, in one run: the sizes take turns, PASSES times,
# and each size keeps its best µs per tool (`time-catalog`, with mimalloc).
# Prints one line per thread count, and the most over the least.
# Usage: benches/flatness.sh [PASSES] [THREADS...]   (default: 4 1 2)
# The SDK is TypeScript's; LANG_SDK=py in the environment times Python's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
passes="${1:-4}"; shift || true
lang="${LANG_SDK:-ts}"
case "$lang" in ts|py) ;; *) echo "LANG_SDK must be ts or py" >&2; exit 2 ;; esac
threads=("$@"); [ ${#threads[@]} -gt 0 ] || threads=(1 2)
(cd "$root" && cargo build --quiet --release -p codemode-benches --bin gen-corpus \
  && cargo build --quiet --release -p codemode-benches --features mimalloc --bin time-catalog)
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
sizes=(10 100 1000 10000)
for n in "${sizes[@]}"; do "$root/target/release/gen-corpus" "$n" > "$work/c$n.json"; done
for t in "${threads[@]}"; do
  : > "$work/runs"
  for _ in $(seq "$passes"); do
    for n in "${sizes[@]}"; do
      rounds=$(( 40000 / n < 4 ? 4 : 40000 / n ))
      printf '%s %s\n' "$n" "$("$root/target/release/time-catalog" "$work/c$n.json" "$rounds" "$lang" "$t")" >> "$work/runs"
    done
  done
  python3 - "$t" "$work/runs" "$lang" <<'PY'
import json, sys
best = {}
for line in open(sys.argv[2]):
    n, run = line.split(" ", 1)
    us = json.loads(run)["total_us_per_tool"]
    best[int(n)] = min(us, best.get(int(n), us))
cells = "  ".join(f"{n}: {us:.2f}" for n, us in sorted(best.items()))
print(f"{sys.argv[3]}, {sys.argv[1]} thread(s), µs per tool  {cells}  most/least {max(best.values()) / min(best.values()):.2f}")
PY
done
