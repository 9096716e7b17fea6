import asyncio


async def main() -> str:
    file = await tools.read_file(path="README.md", limit=None)
    issues, weather = await asyncio.gather(
        tools.search_issues(query="crash", state="open", page={"size": 20, "cursor": None}),
        tools.get_weather(location={"lat": 59.9, "lon": 10.7}, units="metric"),
    )
    open_issues = [i for i in issues["items"] if i["state"] == "open" and i["assignee"] is not None]
    await tools.send_notification(target={"kind": "channel", "channel": "ops"}, text=f"{len(open_issues)} open")
    listing = await tools.list_directory()
    try:
        await tools.kv_set(key="last", value={"temp": weather["temperature"]}, ttl_seconds=60)
    except ToolCallError as e:
        if e.kind == "tool_failed":
            print(e.toolName)
    return f"{file['total_lines']} {','.join(e['name'] for e in listing['entries'])}"
