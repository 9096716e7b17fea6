# Aliases, spreads, helpers, loops, comprehensions and gather.
import asyncio
import json
from collections import Counter

t = tools
base = {"state": "open", "labels": ["bug"]}


async def page(query, cursor=None):
    return await t["search-issues"]({**base, "query": query, "page": {"size": 50, "cursor": cursor}})


seen = []
cursor = None
for _ in range(3):
    result = await page("crash", cursor)
    seen.extend(result.get("items", []))
    cursor = result.get("next")
    if not cursor:
        break

files = await asyncio.gather(*[tools.read_file({"path": p, "limit": 20}) for p in ["README.md", "CHANGELOG.md"]])
weather = await tools.get_weather(location={"lat": 59.9, "lon": 10.7}, units="metric")
args = {"key": "seen", "value": len(seen)}
await tools["kv.set"](args)
await tools["kv.set"](**args, ttl_seconds=60)
listing = await tools.list_directory()
counts = Counter(item["state"] for item in seen)


def summary(counts):
    return json.dumps(dict(counts))


try:
    await tools.send_notification({"target": {"kind": "channel", "channel": "ops"}, "text": summary(counts)})
except ToolCallError as e:
    print(e.kind)
{"files": len(files), "weather": weather, "listing": listing}
