interface Hit { id: string; state: string }
type Units = "metric" | "imperial";
const units: Units = "imperial";
const limit = 10 as const;

async function read(path: string): Promise<unknown> {
  return await tools.read_file({ path, offset: 0, limit: limit satisfies number });
}

const results = await Promise.all(["a.md", "b.md"].map(read));
const weather = await tools.get_weather({ location: "Oslo", units });
const issues = (await tools["search-issues"]({ query: "login", state: "all" })) as { items: Hit[] };
const ids = issues.items.map((hit: Hit) => hit.id);
for (const id of ids) {
  await tools.create_issue({ title: `follow up ${id}`, priority: "high", assignees: [] });
}
enum Level { Low, High }
const level: Level = Level.High;
return { results, weather, ids, level, kinds: typeof fetch };
