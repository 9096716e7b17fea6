# Points, series and weights built as ints and tuples before the call: the
# parameters read them, so narrower item types pass.
async def main() -> None:
    points = [(0, 1), (2, 3)]
    series = [[1, None], [2, None]]
    await tools.plot(points=points, series=series)
