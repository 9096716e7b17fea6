// expect: 7:58 wrong-type
// expect: 8:37 missing-key
// expect: 9:55 unknown-key
// expect: 10:61 invalid-value
// expect: 11:54 wrong-type
// expect: 12:17 unavailable
await tools["search-issues"]({ query: "a", page: { size: "20" } });
await tools.get_weather({ location: { lat: 1 } });
await tools.get_weather({ location: { lat: 1, lon: 2, alt: 3 } });
await tools.send_notification({ text: "hi", target: { kind: "team", channel: "ops" } });
await tools.run_query({ sql: "select 1", params: [1, [2]] });
const r = await fetch("https://example.com") as unknown;
return r;
