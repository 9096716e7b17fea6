async function main(): Promise<unknown> {
  const found = await catalog.search("comment", 3);
  const names: string[] = found.map((m) => m.name);
  const text: string = await catalog.describe(names);
  await catalog.describe(["get_weather"] as const);
  await tools["*/ end comment"]({ "*/": "y" });
  await tools.get_weather();
  return { text, first: found[0]?.summary };
}
