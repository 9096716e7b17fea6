import asyncio


async def main() -> object:
    hits = await tools.search_docs(query="sign in", section="troubleshooting", limit=3)
    pages = await asyncio.gather(*(tools.read_doc(id=h["id"], lines=(1, 2)) for h in hits))
    ticket = await tools.create_ticket(title="Login loop", priority="urgent", labels=["auth"])
    await tools.update_ticket(id=ticket["id"], status={"state": "in_progress", "assignee": "kim"})
    weather = await tools.weather_current(location={"lat": 59.9, "lon": 10.7})
    # `from` is a keyword: this tool takes one dict.
    money = await tools.convert_currency({"amount": 20.0, "from": "EUR", "to": "NOK"})
    try:
        await tools.read_doc(id="nope")
    except ToolCallError as e:
        print(e.kind)
    return {"pages": len(pages), "temp": weather["temperature_c"], "wind": weather["wind"][1], "money": money}
