async function main(): Promise<unknown> {
  const hits = await tools["search_docs"]({ query: "sign in", section: "troubleshooting", limit: 3 });
  const pages = await Promise.all(hits.map((h) => tools["read_doc"]({ id: h.id, lines: [1, 2] })));
  const ticket = await tools["create_ticket"]({ title: "Login loop", priority: "urgent", labels: ["auth"] });
  await tools["update_ticket"]({ id: ticket.id, status: { state: "in_progress", assignee: "kim" } });
  const [weather, money] = await Promise.all([
    tools["weather.current"]({ location: { lat: 59.9, lon: 10.7 } }),
    tools["convert_currency"]({ amount: 20, from: "EUR", to: "NOK" }),
  ]);
  try {
    await tools["read_doc"]({ id: "nope" });
  } catch (e) {
    if (!(e instanceof ToolCallError)) throw e;
  }
  return { pages: pages.length, temp: weather.temperature_c, wind: weather.wind[1], nok: money["NOK"] };
}
