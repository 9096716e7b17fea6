// expect: 7:27 unknown-tool
// expect: 8:36 missing-key
// expect: 9:49 unknown-key
// expect: 10:62 wrong-type
// expect: 11:51 invalid-value
// expect: 12:1 not-awaited
const found = await tools.search_issues({ query: "crash" });
const file = await tools.read_file({ limit: 5 });
const more = await tools.read_file({ path: "a", lines: 5 });
const w = await tools.get_weather({ location: "Oslo", units: 3 });
await tools["search-issues"]({ query: "x", state: "stale" });
tools.list_directory({ path: "." });
return [found, file, more, w];
