# expect: typeddict-item
async def main() -> None:
    await tools.create_issue({"body": "no title"})
