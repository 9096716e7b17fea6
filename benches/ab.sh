#!/usr/bin/env bash
# Two commands timed in turns (A, B, A, B, ...), so that both see the same
# moments of a noisy machine; prints the best and the median wall time of
# each in milliseconds. Each command's output is discarded.
# Usage: benches/ab.sh ROUNDS 'COMMAND A' 'COMMAND B'
# Example: benches/ab.sh 40 '/tmp/old render -l ts list.json' 'target/release/codemode render -l ts list.json'
set -euo pipefail
if [ $# -ne 3 ]; then
  sed -n '2,6p' "$0" >&2
  exit 2
fi
rounds=$1
commands=("$2" "$3")
for _ in $(seq 1 "$rounds"); do
  for which in 0 1; do
    start=$(date +%s%N)
    bash -c "${commands[$which]}" < /dev/null > /dev/null 2>&1
    end=$(date +%s%N)
    echo "$which $(( (end - start) / 1000 ))"
  done
done | python3 -c '
import statistics, sys
times = {0: [], 1: []}
for line in sys.stdin:
    which, micros = line.split()
    times[int(which)].append(int(micros) / 1000)
for which, name in ((0, "A"), (1, "B")):
    t = times[which]
    print("%s best %.2f ms, median %.2f ms (%d runs)" % (name, min(t), statistics.median(t), len(t)))
'
