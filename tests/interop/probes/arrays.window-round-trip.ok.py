# One tool's result passed back as another's argument: the argument's class
# reads `bounds` read-only (covariant), so the result's object, with a list
# there and a key more, fits it.
async def main() -> None:
    seen = await tools.view()
    await tools.zoom(window=seen["window"])
