# expect: typeddict-item
async def main() -> None:
    await tools.read_file({"path": 42})
