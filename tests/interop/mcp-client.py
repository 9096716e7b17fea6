"""Drives `codemode serve` with the official Python MCP client (PyPI `mcp`).

It starts `codemode serve --config CONFIG` over stdio, in front of real MCP
servers from npm and PyPI, and checks what a client sees: the tools, the SDK in
run_code's description, a program's result with progress notifications, and
a failed run.

Usage: mcp-client.py CODEMODE CONFIG
Prints one line per check; exits 1 if any fails.
"""

import asyncio
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

codemode, config = sys.argv[1], sys.argv[2]
failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"))
    if not ok:
        failures.append(name)


def text_of(result):
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


PROGRAM = """
const [echo, sum] = await Promise.all([
  tools.everything_echo({ message: "from python" }),
  tools["everything_get-sum"]({ a: 2, b: 40 }),
]);
await tools.memory_create_entities({ entities: [{ name: "codemode", entityType: "project", observations: ["serves MCP"] }] });
const graph = await tools.memory_read_graph({});
// server-time (Python) declares an output schema: the result is that object.
const tokyo = await tools.time_convert_time({ source_timezone: "Etc/UTC", target_timezone: "Asia/Tokyo", time: "12:00" });
let caught = null;
try {
  await tools.filesystem_read_text_file({ path: "/definitely/not/allowed" });
} catch (e) {
  caught = e.kind;
}
return { echo, sum, entities: graph.entities.map((e) => e.name), tokyo: [tokyo.target.timezone, tokyo.time_difference], caught };
"""


async def main():
    params = StdioServerParameters(command=codemode, args=["serve", "--config", config])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check("server name", init.server_info.name == "codemode", init.server_info)
            listed = await session.list_tools()
            names = [tool.name for tool in listed.tools]
            check("tools/list offers run_code", names == ["run_code"], names)
            description = listed.tools[0].description or ""
            for tool in ["everything_echo", "memory_read_graph", "filesystem_read_text_file", "time_convert_time"]:
                check(f"the SDK declares {tool}", f"\n  {tool}(args" in description, description[:200])

            progress = []

            async def on_progress(value, total, message):
                progress.append(message)

            result = await session.call_tool(
                "run_code",
                {"code": PROGRAM, "description": "echo, add, remember, and fail once"},
                progress_callback=on_progress,
            )
            check("run_code succeeds", not result.is_error, text_of(result))
            value = (result.structured_content or {}).get("result") or {}
            check("echo reached server-everything", "from python" in str(value.get("echo")), value)
            check("get_sum reached server-everything", "42" in str(value.get("sum")), value)
            check("memory kept the entity", value.get("entities") == ["codemode"], value)
            check("server-time's structured result came back as its type", value.get("tokyo") == ["Asia/Tokyo", "+9.0h"], value)
            check("the failure was caught", value.get("caught") == "tool_failed", value)
            check("progress was reported per call", len(progress) == 6, progress)

            failed = await session.call_tool("run_code", {"code": "return tools.nope({});", "description": "fail"})
            check("a failed run is an error result", failed.is_error is True, text_of(failed))
            check("the error says where and why", "line 1" in text_of(failed) and "not a tool" in text_of(failed), text_of(failed))


asyncio.run(main())
print(f"mcp-client: {len(failures)} failed")
sys.exit(1 if failures else 0)
