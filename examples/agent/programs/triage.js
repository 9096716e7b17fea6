// A support agent's program: find the docs for a login problem, file a
// ticket, and gather context, with independent calls made concurrently.
const hits = await tools.search_docs({ query: "sign in password", section: "troubleshooting", limit: 2 });
console.log(`found ${hits.length} page(s):`, hits.map((h) => h.id).join(", "));

// Read every hit at the same time.
const pages = await Promise.all(hits.map((h) => tools.read_doc({ id: h.id, lines: [1, 2] })));

// A page that does not exist: the failure is a ToolCallError we can handle.
let missing = null;
try {
  await tools.read_doc({ id: "trouble/vpn" });
} catch (e) {
  if (!(e instanceof ToolCallError)) throw e;
  missing = `${e.toolName} failed (${e.kind}): ${e.message}`;
  console.warn(missing);
}

const ticket = await tools.create_ticket({
  title: "Users cannot sign in after the password reset",
  priority: "urgent",
  labels: ["auth", "login"],
});
const [updated, weather, cost] = await Promise.all([
  tools.update_ticket({ id: ticket.id, status: { state: "in_progress", assignee: "kim" } }),
  tools["weather.current"]({ location: "Oslo" }),
  tools.convert_currency({ amount: 120, from: "EUR", to: "NOK" }),
]);
const open = await tools.list_tickets({ label: "auth" });

return {
  ticket: { id: updated.id, status: updated.status },
  advice: pages.flatMap((p) => p.lines),
  missing,
  open_auth_tickets: open.length,
  oslo: `${weather.temperature_c}°C, ${weather.conditions}`,
  refund_nok: cost.NOK,
};
