# One tool's result object passed whole to another tool that only reads
# it: the result's coordinates are integers, the argument's numbers.
async def main() -> None:
    here = await tools.cursor()
    await tools.center_on(point=here["at"])
    await tools.center_on(point={"x": 0.5, "y": 2})
