# expect: arg-type
# expect-pyright: reportArgumentType
# A filter object must name its field.
async def main() -> None:
    await tools.search(filter={"value": "urgent"})
