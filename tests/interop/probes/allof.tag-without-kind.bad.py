# expect: arg-type
# expect-pyright: reportArgumentType
# A tag object must name its kind.
async def main() -> None:
    await tools.tag(tag={"note": "today"})
