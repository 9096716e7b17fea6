# expect: typeddict-item
async def main() -> None:
    await tools["search-issues"]({"query": 7})
