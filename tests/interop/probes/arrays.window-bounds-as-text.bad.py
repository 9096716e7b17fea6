# expect: typeddict-item
# expect-pyright: reportArgumentType
# `bounds` is a list of numbers; a string is none, nested or not.
async def main() -> None:
    await tools.zoom(window={"bounds": "0,10"})
