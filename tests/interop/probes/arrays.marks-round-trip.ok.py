# A list of one tool's result objects passed to another tool that only
# reads them: each has a key more (`size`), and has `at`, which the
# argument leaves optional, as required.
async def main() -> None:
    seen = await tools.marks()
    await tools.pin(marks=seen["marks"])
    await tools.pin(marks=[{"label": "peak"}])
