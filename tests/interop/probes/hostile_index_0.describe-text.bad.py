# expect: arg-type
# expect-pyright: reportArgumentType
async def main() -> None:
    await catalog.describe(42)
