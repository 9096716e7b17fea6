# A nested object's list of numbers, built as ints: a class that only
# arguments use reads its lists, so `list[int]` passes for numbers.
async def main() -> None:
    bounds: list[int] = [0, 10]
    await tools.zoom(window={"bounds": bounds})
