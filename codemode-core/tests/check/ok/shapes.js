// Destructuring, spreads, helpers, loops, optional chaining and aliases.
const t = tools;
const { read_file: readFile } = tools;
const base = { state: "open", labels: ["bug"] };

async function page(query, cursor) {
  return t["search-issues"]({ ...base, query, page: { size: 50, cursor } });
}

const seen = [];
let cursor = null;
for (let i = 0; i < 3; i++) {
  const result = await page("crash", cursor);
  seen.push(...(result?.items ?? []));
  cursor = result?.next ?? null;
  if (!cursor) break;
}

const files = await Promise.all(
  ["README.md", "CHANGELOG.md"].map((path) => tools.read_file({ path, limit: 20 })),
);
const first = await readFile({ path: "Cargo.toml" });
const weather = await tools.get_weather({ location: { lat: 59.9, lon: 10.7 }, units: "metric" });
const args = { key: "seen", value: seen.length };
await tools["kv.set"](args);
await tools["kv.set"]({ ...args, ttl_seconds: 60, tags: { source: "triage" } });
const fetched = await tools.maybe_missing?.({});
tools.list_directory({ recursive: true }).then((listing) => console.log(listing));
const all = await Promise.allSettled([tools.run_query({ sql: "select 1", params: [1, "a", null, true] })]);
try {
  await tools.send_notification({ target: { kind: "user", user_id: "u1" }, text: `seen ${seen.length}` });
} catch (e) {
  if (e instanceof ToolCallError) console.log(e.kind);
}
return { files: files.length, first, weather, fetched, all, temp: weather?.temperature };
