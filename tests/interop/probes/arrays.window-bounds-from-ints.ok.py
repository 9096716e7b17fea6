# A nested argument built from a variable the program typed `list[int]`:
# the argument's class reads `bounds` as a read-only sequence of numbers,
# which a list of integers is.
async def main() -> None:
    bounds: list[int] = [0, 10]
    await tools.zoom(window={"bounds": bounds})
