# The same program in Python: find the docs for a login problem, file a
# ticket, and gather context, with independent calls made concurrently.
import asyncio

hits = await tools.search_docs(query="sign in password", section="troubleshooting", limit=2)
print(f"found {len(hits)} page(s):", ", ".join(h["id"] for h in hits))

# Read every hit at the same time.
pages = await asyncio.gather(*[tools.read_doc(id=h["id"], lines=(1, 2)) for h in hits])

# A page that does not exist: the failure is a ToolCallError we can handle.
missing = None
try:
    await tools.read_doc(id="trouble/vpn")
except ToolCallError as e:
    missing = f"{e.toolName} failed ({e.kind}): {e}"
    print(missing)

ticket = await tools.create_ticket(
    title="Users cannot sign in after the password reset",
    priority="urgent",
    labels=["auth", "login"],
)
updated, weather, cost = await asyncio.gather(
    tools.update_ticket(id=ticket["id"], status={"state": "in_progress", "assignee": "kim"}),
    tools.weather_current(location="Oslo"),
    # `from` is a Python keyword, so this tool takes one dict.
    tools.convert_currency({"amount": 120, "from": "EUR", "to": "NOK"}),
)
open_tickets = await tools.list_tickets(label="auth")

return {
    "ticket": {"id": updated["id"], "status": updated["status"]},
    "advice": [line for page in pages for line in page["lines"]],
    "missing": missing,
    "open_auth_tickets": len(open_tickets),
    "oslo": f"{weather['temperature_c']:g}°C, {weather['conditions']}",
    "refund_nok": cost["NOK"],
}
