#!/usr/bin/env bash
# Installs the interop suite's pinned packages once, into a cache keyed by the
# lock files, and prints the cache directory:
#  - npm (package-lock.json): TypeScript, pyright and real MCP servers;
#  - PyPI (requirements.txt, every package pinned): mypy and the official
#    Python MCP client;
#  - PyPI (servers-requirements.txt, every package pinned): real MCP servers
#    written in Python, in a virtual environment of their own;
#  - each server's `tools/list`, asked at install time (servers/NAME.json).
# Safe to run from several processes at once (a lock serialises them).
# Usage: tests/interop/install.sh   (CODEMODE_CACHE moves the cache)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${CODEMODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/codemode-interop}"
key="$(cat "$here/package-lock.json" "$here/requirements.txt" "$here/servers-requirements.txt" "$here/list-tools.mjs" | sha256sum | cut -c1-16)"
cache="$cache_root/$key"
mkdir -p "$cache_root"
exec 9> "$cache_root/.lock"
flock 9
if [ ! -f "$cache/ready" ]; then
  echo "interop: installing pinned checkers and MCP servers into $cache" >&2
  rm -rf "$cache" && mkdir -p "$cache"
  cp "$here/package.json" "$here/package-lock.json" "$cache/"
  # server-puppeteer would fetch a browser of its own: listing its tools
  # needs none.
  (cd "$cache" && PUPPETEER_SKIP_DOWNLOAD=1 PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) >&2
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
  python3 -m venv "$cache/servers-venv"
  "$cache/servers-venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/servers-requirements.txt" >&2
  mkdir -p "$cache/servers"
  bin="$cache/node_modules/.bin"
  list() { # name, command...
    local name="$1"; shift
    node "$here/list-tools.mjs" "$@" > "$cache/servers/$name.json" 2> "$cache/servers/$name.log"
  }
  list everything "$bin/mcp-server-everything"
  list filesystem "$bin/mcp-server-filesystem" /tmp
  GITHUB_PERSONAL_ACCESS_TOKEN=unused list github "$bin/mcp-server-github"
  list memory "$bin/mcp-server-memory"
  list sequential-thinking "$bin/mcp-server-sequential-thinking"
  list playwright "$bin/playwright-mcp"
  # Reference servers that need credentials or a database only to call a
  # tool: dummy ones let them start and list their tools.
  AWS_ACCESS_KEY_ID=unused AWS_SECRET_ACCESS_KEY=unused AWS_REGION=us-east-1 list aws-kb-retrieval "$bin/mcp-server-aws-kb-retrieval"
  BRAVE_API_KEY=unused list brave-search "$bin/mcp-server-brave-search"
  EVERART_API_KEY=unused list everart "$bin/mcp-server-everart"
  GITLAB_PERSONAL_ACCESS_TOKEN=unused list gitlab "$bin/mcp-server-gitlab"
  GOOGLE_MAPS_API_KEY=unused list google-maps "$bin/mcp-server-google-maps"
  list postgres "$bin/mcp-server-postgres" postgresql://127.0.0.1:1/unused
  list puppeteer "$bin/mcp-server-puppeteer"
  SLACK_BOT_TOKEN=unused SLACK_TEAM_ID=unused list slack "$bin/mcp-server-slack"
  # The Python reference servers: pydantic's schemas (a title on every
  # property, nullable optionals) and declared output types.
  py="$cache/servers-venv/bin"
  list time "$py/mcp-server-time" --local-timezone Etc/UTC
  list fetch "$py/mcp-server-fetch"
  git init --quiet "$cache/git-repo"
  list git "$py/mcp-server-git" --repository "$cache/git-repo"
  touch "$cache/ready"
fi
echo "$cache"
