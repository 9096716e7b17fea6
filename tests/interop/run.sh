#!/usr/bin/env bash
# The interop suite: every SDK codemode renders goes through the real checkers.
#
#  - pinned TypeScript (npm, package-lock.json) and mypy (pip, requirements.txt),
#    installed once into a cache keyed by the lock files;
#  - real MCP servers from the npm registry and PyPI, asked for their tools at test time
#    (the lists are cached with the install);
#  - for the golden tool sets, the examples, the servers and a generated hostile
#    corpus: `tsc --strict --noEmit` on the TypeScript SDK, and `mypy --strict`
#    and pyright (npm, strict) on the Python SDK;
#  - usage probes (probes/): correct programs must type-check, wrong ones must be
#    rejected with the error code they name (Python probes by mypy and pyright);
#  - the reserved-name lists in codemode-core match the pinned checkers;
#  - `codemode serve` in front of real MCP servers, driven by the official
#    Python MCP client (PyPI `mcp`, pinned).
#
# Usage: tests/interop/run.sh   (from anywhere; CODEMODE_CACHE moves the cache)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="$("$here/install.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

tsc="$cache/node_modules/.bin/tsc"
mypy="$cache/venv/bin/mypy"
pyright="$cache/node_modules/.bin/pyright"
echo "interop: $("$tsc" --version), $("$mypy" --version), $("$pyright" --version)"

# --- reserved names match the pinned checkers --------------------------------
(cd "$cache" && NODE_PATH="$cache/node_modules" node "$here/ts-globals.js") \
  | diff -q - "$root/codemode-core/src/ident/ts_globals.txt" >/dev/null \
  || fail "codemode-core/src/ident/ts_globals.txt is stale: regenerate it with tests/interop/ts-globals.js"
"$cache/venv/bin/python" "$here/py-reserved.py" \
  | diff -q - "$root/codemode-core/src/ident/py_reserved.txt" >/dev/null \
  || fail "codemode-core/src/ident/py_reserved.txt is stale: regenerate it with tests/interop/py-reserved.py"
"$cache/venv/bin/python" "$here/py-identifiers.py" \
  | diff -q - "$root/codemode-core/src/ident/py_identifiers.rs" >/dev/null \
  || fail "codemode-core/src/ident/py_identifiers.rs is stale: regenerate it with tests/interop/py-identifiers.py"

# --- render every tool set ----------------------------------------------------
(cd "$root" && cargo build --quiet -p codemode-cli -p agent --features codemode-cli/mcp && cargo run --quiet -p codemode-core --example hostile_corpus -- "$work/hostile" 24)
codemode="$root/target/debug/codemode"
mkdir -p "$work/sdk"
sets=()
for json in "$root"/tests/golden/*.json "$root"/examples/mcp/*.json "$cache"/servers/*.json "$work"/hostile/*.json; do
  stem="$(basename "$json" .json)"
  case "$json" in "$cache"/servers/*) stem="server-$stem" ;; esac
  name="${stem//[^A-Za-z0-9]/_}"
  "$codemode" render --language typescript "$json" > "$work/sdk/$name.ts"
  "$codemode" render --language python "$json" > "$work/sdk/$name.py"
  "$codemode" render --language javascript "$json" | cmp -s - "$work/sdk/$name.ts" || fail "$stem: JavaScript differs from TypeScript"
  sets+=("$name")
done
# Indexes (the SDK of a tool set past its token budget), at every level of
# detail, for a hostile set and for every server: they must check too.
for json in "$root"/tests/golden/hostile.json "$cache"/servers/*.json; do
  stem="$(basename "$json" .json)"
  for budget in 0 100000; do
    name="${stem//[^A-Za-z0-9]/_}_index_$budget"
    # A budget of 0 gives the groups alone; a large one names every tool,
    # with summaries (or the whole SDK, for a small set).
    "$codemode" render --language typescript --budget "$budget" "$json" > "$work/sdk/$name.ts"
    "$codemode" render --language python --budget "$budget" "$json" > "$work/sdk/$name.py"
    sets+=("$name")
  done
done
# What `catalog.describe` answers (the declarations of the tools named,
# without the error class the index declared): all of a set's tools at
# once, and its first alone. Each must check on its own. (A name with a
# NUL or a lone surrogate cannot be an argument; the rest of its set still
# is. A set with no such names gives an empty file; and xargs must not cut
# the names into two runs, whose outputs would be one file.)
for json in "$root"/tests/golden/*.json "$cache"/servers/*.json; do
  stem="$(basename "$json" .json)"
  name="${stem//[^A-Za-z0-9]/_}_described"
  "$cache/venv/bin/python" - "$json" > "$work/describe-args" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
tools = data["tools"] if isinstance(data, dict) else data
names = [t["name"] for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)
         and "\0" not in t["name"] and not any(0xD800 <= ord(c) <= 0xDFFF for c in t["name"])]
sys.stdout.write("".join(f"--describe={n}\0" for n in names))
PY
  for lang in typescript python; do
    ext=ts; [ "$lang" = python ] && ext=py
    xargs -0 -r -x -s 1000000 -a "$work/describe-args" "$codemode" render --language "$lang" "$json" > "$work/sdk/$name.$ext"
    head -z -n 1 "$work/describe-args" | xargs -0 -r "$codemode" render --language "$lang" "$json" > "$work/sdk/${name}_first.$ext"
  done
  sets+=("$name" "${name}_first")
done
# The example agent's SDK, as its build script fixed it at compile time.
"$root/target/debug/agent" --sdk --language typescript > "$work/sdk/agent.ts" 2>/dev/null
"$root/target/debug/agent" --sdk --language python > "$work/sdk/agent.py" 2>/dev/null
sets+=("agent")
echo "interop: rendered ${#sets[@]} tool sets"

# --- tsc: one program per SDK (each declares the global `tools`) -------------
printf '%s\n' "${sets[@]}" | xargs -P 2 -I{} sh -c \
  '"$0" --strict --noEmit --target es2022 "$1/sdk/{}.ts" > "$1/sdk/{}.tsc.log" 2>&1 || echo {}' "$tsc" "$work" \
  > "$work/tsc-failed"
while read -r name; do
  [ -n "$name" ] && { fail "tsc --strict: $name"; sed -n 1,10p "$work/sdk/$name.tsc.log"; }
done < "$work/tsc-failed"

# --- mypy: all Python SDKs at once (separate modules) -----------------------
if ! "$mypy" --strict --cache-dir "$cache/mypy-cache" "$work"/sdk/*.py > "$work/mypy.log" 2>&1; then
  fail "mypy --strict"; sed -n 1,20p "$work/mypy.log"
fi

# --- pyright strict: all Python SDKs at once -----------------------------------
echo '{"typeCheckingMode": "strict", "pythonVersion": "3.11"}' > "$work/pyrightconfig.json"
cp "$work/pyrightconfig.json" "$work/sdk/pyrightconfig.json"
if ! (cd "$work/sdk" && "$pyright" -p pyrightconfig.json ./*.py) > "$work/pyright.log" 2>&1; then
  fail "pyright --strict"; grep -E "error|warning" "$work/pyright.log" | sed -n 1,20p
fi

# --- usage probes -------------------------------------------------------------
probes=0
# Python probes also go through pyright, all at once after the loop:
# "program verdict expected-rule" per line.
: > "$work/pyright-probes"
for probe in "$here"/probes/*.ts "$here"/probes/*.py; do
  file="$(basename "$probe")"
  set_name="${file%%.*}"
  set_name="${set_name//[^A-Za-z0-9]/_}"
  ext="${file##*.}"
  verdict="$(echo "$file" | awk -F. '{print $(NF-1)}')"
  sdk="$work/sdk/$set_name.$ext"
  [ -f "$sdk" ] || { fail "$file: no rendered tool set named $set_name"; continue; }
  program="$work/probe_${probes}.$ext"
  { cat "$sdk"; echo; cat "$probe"; } > "$program"
  if [ "$ext" = ts ]; then
    "$tsc" --strict --noEmit --target es2022 "$program" > "$program.log" 2>&1 && ok=1 || ok=0
  else
    "$mypy" --strict --cache-dir "$cache/mypy-cache" "$program" > "$program.log" 2>&1 && ok=1 || ok=0
    rule="$(sed -n 's/^# expect-pyright: //p' "$probe" | head -1)"
    echo "$program $file $verdict ${rule:--}" >> "$work/pyright-probes"
  fi
  if [ "$verdict" = ok ]; then
    [ "$ok" = 1 ] || { fail "probe $file should type-check"; sed -n 1,10p "$program.log"; }
  else
    expect="$(head -1 "$probe" | sed -E 's/^(\/\/|#) expect: //')"
    if [ "$ok" = 1 ]; then
      fail "probe $file should be rejected ($expect) but type-checks"
    elif ! grep -q -- "$expect" "$program.log"; then
      fail "probe $file was rejected, but not with $expect"; sed -n 1,10p "$program.log"
    fi
  fi
  probes=$((probes + 1))
done
# pyright strict on every Python probe: an ok probe is clean, a bad one has an
# error (of the rule its `# expect-pyright:` line names, if it has one).
if [ -s "$work/pyright-probes" ]; then
  (cd "$work" && "$pyright" -p pyrightconfig.json --outputjson $(cut -d' ' -f1 "$work/pyright-probes")) \
    > "$work/pyright-probes.json" 2> "$work/pyright-probes.err" || true
  "$cache/venv/bin/python" - "$work/pyright-probes" "$work/pyright-probes.json" > "$work/pyright-verdicts" <<'PY' || fail "pyright gave no report on the probes"
import json, sys
report = json.load(open(sys.argv[2]))
errors = {}
for d in report.get("generalDiagnostics", []):
    if d.get("severity") == "error":
        errors.setdefault(d["file"], []).append(d)
for line in open(sys.argv[1]):
    program, name, verdict, rule = line.split()
    found = [e for e in errors.items() if e[0].endswith("/" + program.rsplit("/", 1)[-1])]
    found = found[0][1] if found else []
    if verdict == "ok" and found:
        first = found[0]
        print(f"probe {name} should be clean under pyright: line {first['range']['start']['line'] + 1}: {first['message']}")
    elif verdict != "ok" and not found:
        print(f"probe {name} should be rejected by pyright but is clean")
    elif verdict != "ok" and rule != "-" and not any(e.get("rule") == rule for e in found):
        print(f"probe {name} was rejected by pyright, but not with {rule}: {found[0].get('rule')}: {found[0]['message']}")
PY
  while read -r verdict_line; do fail "$verdict_line"; done < "$work/pyright-verdicts"
fi
# The example agent's own TypeScript program type-checks against its SDK.
{ cat "$work/sdk/agent.ts"; echo "async function main() {"; cat "$root/examples/agent/programs/triage.ts"; echo "}"; } > "$work/triage.ts"
if "$tsc" --strict --noEmit --target es2022 "$work/triage.ts" > "$work/triage.log" 2>&1; then probes=$((probes + 1)); else
  fail "examples/agent/programs/triage.ts does not type-check against the agent's SDK"; sed -n 1,10p "$work/triage.log"; fi
# ... and so does its Python program, under mypy and pyright strict, with the
# SDK's stub (the program runs at the top level in the sandbox; here it is the
# body of an async function).
{ cat "$work/sdk/agent.py"; echo "async def main() -> object:"; sed 's/^/    /' "$root/examples/agent/programs/triage.py"; } > "$work/triage.py"
if "$mypy" --strict --cache-dir "$cache/mypy-cache" "$work/triage.py" > "$work/triage-mypy.log" 2>&1; then probes=$((probes + 1)); else
  fail "examples/agent/programs/triage.py does not type-check against the agent's SDK (mypy)"; sed -n 1,10p "$work/triage-mypy.log"; fi
cp "$work/sdk/agent.py" "$work/agent_sdk.py"
if (cd "$work" && "$pyright" -p pyrightconfig.json agent_sdk.py triage.py) > "$work/triage-pyright.log" 2>&1; then probes=$((probes + 1)); else
  fail "the agent's Python SDK or examples/agent/programs/triage.py is not clean under pyright strict"; sed -n 1,20p "$work/triage-pyright.log"; fi
echo "interop: ran $probes usage probes"

# --- codemode serve, driven by the official Python MCP client -----------------
# In front of real servers from npm: server-everything, server-memory and
# server-filesystem (each with a scratch directory of its own), and the
# Python reference server mcp-server-time from PyPI.
bin="$cache/node_modules/.bin"
mkdir -p "$work/mcp/files"
cat > "$work/mcp/config.json" <<JSON
{"mcpServers": {
  "everything": {"command": "$bin/mcp-server-everything"},
  "memory": {"command": "$bin/mcp-server-memory", "env": {"MEMORY_FILE_PATH": "$work/mcp/memory.jsonl"}},
  "filesystem": {"command": "$bin/mcp-server-filesystem", "args": ["$work/mcp/files"]},
  "time": {"command": "$cache/servers-venv/bin/mcp-server-time", "args": ["--local-timezone", "Etc/UTC"]}
}}
JSON
mcp_checks=0
if "$cache/venv/bin/python" "$here/mcp-client.py" "$codemode" "$work/mcp/config.json" > "$work/mcp/client.log" 2> "$work/mcp/stderr.log"; then
  mcp_checks=1
else
  fail "the Python MCP client against codemode serve"; grep -v '^ok' "$work/mcp/client.log" | head -20; tail -20 "$work/mcp/stderr.log"
fi
echo "interop: $(grep -c '^ok' "$work/mcp/client.log" || true) checks of codemode serve with the Python MCP client"

total=$(( ${#sets[@]} * 2 + probes + 2 + mcp_checks ))
echo "interop: $((total - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
