# expect: arg-type
# expect-pyright: reportArgumentType
async def main() -> None:
    await tools.read_file(path=42)
