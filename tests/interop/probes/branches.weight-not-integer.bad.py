# expect: arg-type
# expect-pyright: reportArgumentType
# 2.5 is in the enum, but the weight is an integer.
async def main() -> None:
    await tools.ship(mode="post", weight=2.5)
