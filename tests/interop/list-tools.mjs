// Starts an MCP server over stdio, asks for its tools (following
// pagination), and prints the `tools/list` result as JSON.
// Usage: node list-tools.mjs <command> [args...]
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node list-tools.mjs <command> [args...]");
  process.exit(2);
}
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const timer = setTimeout(() => fail("timed out waiting for the server"), 60_000);
let buffer = "";
let nextId = 1;
const pending = new Map();

function fail(message) {
  console.error(`list-tools: ${command}: ${message}`);
  child.kill();
  process.exit(1);
}

function request(method, params) {
  const id = nextId++;
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

child.on("error", (e) => fail(e.message));
child.on("exit", (code) => pending.size && fail(`exited with ${code}`));
child.stdout.on("data", (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, newline).trim();
    buffer = buffer.slice(newline + 1);
    if (!line) continue;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      continue; // a server's stray log line
    }
    const waiter = pending.get(message.id);
    if (!waiter) continue;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
    else waiter.resolve(message.result);
  }
});

try {
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "codemode-interop", version: "0" },
  });
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  const tools = [];
  let cursor;
  do {
    const page = await request("tools/list", cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  process.stdout.write(JSON.stringify({ tools }, null, 1) + "\n");
  clearTimeout(timer);
  child.kill();
  process.exit(0);
} catch (e) {
  fail(e.message);
}
