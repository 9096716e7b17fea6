# expect: arg-type
# expect-pyright: reportArgumentType
# `points` is a list of pairs; a string is no list.
async def main() -> None:
    await tools.plot(points="0,1 2,3")
