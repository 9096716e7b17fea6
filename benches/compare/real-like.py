#!/usr/bin/env python3
"""Writes a tool list of N tools made from real MCP servers' tool lists.

The interop suite installs real servers and saves each one's `tools/list`
answer (tests/interop/install.sh prints where). This script takes the six
from npm (the figures in BENCHMARKS.md were all measured on their mix, so
the servers added later are left out) and repeats those 88 tools until the list holds N, renaming each copy
(`read_file_3`) and marking every description in it with the copy's number,
so no two copies are the same type and nothing is shared that a real list
would not share. The shapes, the description lengths and the mix of keywords
stay the real servers'.

Usage: real-like.py SERVERS_DIR N > list.json
"""
import json
import os
import sys


def marked(value, copy):
    if isinstance(value, dict):
        return {
            key: (f"{item} ({copy})" if key == "description" and isinstance(item, str) else marked(item, copy))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [marked(item, copy) for item in value]
    return value


# The servers the list is made from, in the order their files sort in.
NPM_SERVERS = ["everything", "filesystem", "github", "memory", "playwright", "sequential-thinking"]


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isdigit():
        sys.exit("usage: real-like.py SERVERS_DIR N")
    servers, count = sys.argv[1], int(sys.argv[2])
    tools = []
    for name in NPM_SERVERS:
        path = os.path.join(servers, name + ".json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                listed = json.load(f)
            tools += listed["tools"] if isinstance(listed, dict) else listed
    if not tools:
        sys.exit(f"real-like.py: no tool lists in {servers}")
    out = []
    for i in range(count):
        tool = marked(tools[i % len(tools)], i // len(tools))
        tool["name"] = f"{tool['name']}_{i // len(tools)}"
        out.append(tool)
    json.dump({"tools": out}, sys.stdout, separators=(",", ":"))


main()
