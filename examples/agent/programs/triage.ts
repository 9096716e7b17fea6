// The same program in TypeScript: the types are stripped before it runs.
interface Hit { id: string; title: string; section: string; score: number }
const hits: Hit[] = await tools.search_docs({ query: "sign in password", section: "troubleshooting", limit: 2 });
const pages = await Promise.all(hits.map((h: Hit) => tools.read_doc({ id: h.id, lines: [1, 2] })));
let missing: string | null = null;
try {
  await tools.read_doc({ id: "trouble/vpn" });
} catch (e) {
  if (!(e instanceof ToolCallError)) throw e;
  missing = `${e.toolName} failed (${e.kind}): ${e.message}`;
}
const ticket = await tools.create_ticket({ title: "Users cannot sign in", priority: "urgent", labels: ["auth"] });
const [weather, cost] = await Promise.all([
  tools["weather.current"]({ location: { lat: 59.91, lon: 10.75 } }),
  tools.convert_currency({ amount: 120, from: "EUR", to: "NOK" }),
]);
return { ticket: ticket.id as number, advice: pages.flatMap((p) => p.lines), missing, weather, refund_nok: cost.NOK };
