#!/usr/bin/env bash
# Side by side, in one run on one machine: codemode's render against
# json-schema-to-typescript and @cloudflare/codemode on the same tool lists.
# Installs its pinned npm packages itself (cached). Prints a table of ratios.
# Usage: benches/compare/run.sh [SIZES...]   (default: 100 1000)
# A size written `real:N` takes N tools made from the interop suite's real
# servers (real-like.py; installs them through tests/interop/install.sh)
# instead of gen-corpus's generated ones.
# Two more rows show what a process adds to the render's own work: a
# `codemode --version` process (start and exit), and the render warm, in
# one process, on the two threads the CLI uses.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${CODEMODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/codemode-compare}/$(sha256sum "$here/package-lock.json" | cut -c1-16)"
if [ ! -f "$cache/ready" ]; then
  rm -rf "$cache" && mkdir -p "$cache"
  cp "$here/package.json" "$here/package-lock.json" "$cache/"
  (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error)
  touch "$cache/ready"
fi
cp "$here/compare.mjs" "$cache/compare.mjs"
(cd "$root" && cargo build --quiet --release -p codemode-benches --bin gen-corpus --bin time-render \
  && cargo build --quiet --release -p codemode-benches --features mimalloc --bin time-catalog \
  && cargo build --quiet --release -p codemode-cli)
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(100 1000)
printf '%-7s %-24s %12s %12s\n' tools generator "best ms" "ratio"
for n in "${sizes[@]}"; do
  case "$n" in
    real:*)
      n="${n#real:}"
      python3 "$here/real-like.py" "$("$root/tests/interop/install.sh")/servers" "$n" > "$work/corpus.json"
      n="real:$n" ;;
    *) "$root/target/release/gen-corpus" "$n" > "$work/corpus.json" ;;
  esac
  rounds=$(( ${n#real:} >= 1000 ? 5 : 20 ))
  ours="$("$root/target/release/time-render" "$work/corpus.json" "$rounds")"
  # The CLI's own work, warm and in one process, on the two threads the CLI
  # uses and with its allocator: what the process costs beyond it is start
  # and fresh memory.
  warm="$("$root/target/release/time-catalog" "$work/corpus.json" "$rounds" ts 2)"
  theirs="$(cd "$cache" && node compare.mjs "$work/corpus.json" "$rounds")"
  python3 - "$n" "$ours" "$theirs" "$root/target/release/codemode" "$work/corpus.json" "$rounds" "$warm" <<'PY'
import json, subprocess, sys, time
n, ours, theirs = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
cli, corpus, rounds = sys.argv[4], sys.argv[5], int(sys.argv[6])
warm = json.loads(sys.argv[7])
def process_ms(*args):
    # A whole `codemode` process: start, read, parse, render, write.
    # A process costs milliseconds, and on a virtual machine its second
    # thread sometimes starts too late to help, so take the best of at
    # least 20 (the peers' in-process rounds are warm after the first).
    best = float("inf")
    for _ in range(max(rounds, 20)):
        start = time.perf_counter()
        subprocess.run([cli, *args], stdout=subprocess.DEVNULL, check=True)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best
base = ours["typescript"]["best_ms"]
print(f"{n:<7} {'codemode (typescript)':<24} {base:12.3f} {1:12.1f}")
print(f"{n:<7} {'codemode (python)':<24} {ours['python']['best_ms']:12.3f} {ours['python']['best_ms'] / base:12.1f}")
for language in ("ts", "py"):
    ms = process_ms("render", "-l", language, corpus)
    print(f"{n:<7} {'codemode CLI process, ' + language:<24} {ms:12.3f} {ms / base:12.1f}")
# What the process adds: a process that starts and exits (`--version`),
# and the render's work warm in one process on two threads.
ms = process_ms("--version")
print(f"{n:<7} {'codemode --version':<24} {ms:12.3f} {ms / base:12.1f}")
ms = warm["total_us_per_tool"] * warm["tools"] / 1000
print(f"{n:<7} {'codemode warm, 2 threads':<24} {ms:12.3f} {ms / base:12.1f}")
for name in ("json-schema-to-typescript", "@cloudflare/codemode"):
    r = theirs.get(name, {})
    if "best_ms" in r:
        print(f"{n:<7} {name:<24} {r['best_ms']:12.3f} {r['best_ms'] / base:12.1f}")
    else:
        print(f"{n:<7} {name:<24} {'failed: ' + r.get('error', '?')[:40]}")
PY
done
