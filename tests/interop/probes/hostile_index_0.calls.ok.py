async def main() -> object:
    found = await catalog.search("comment", limit=3)
    text: str = await catalog.describe([m["name"] for m in found])
    await tools["*/ end comment"]({"*/": "y"})
    await tools.get_weather()
    return {"text": text, "first": found[0]["summary"] if found else None}
