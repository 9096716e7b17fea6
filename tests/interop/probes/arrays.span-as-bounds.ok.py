# A tuple whose second number may be missing is a sequence of numbers, so a
# result's span passes for `bounds` and for `range`.
async def main() -> None:
    out = await tools.extent()
    span = out["span"]
    await tools.zoom(window={"bounds": span})
    await tools.plot(points=[], range=span)
    total: float = sum(span)
    print(total)
