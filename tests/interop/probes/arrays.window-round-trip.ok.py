# One tool's result passed back as another's argument: a TypedDict's
# fields are invariant, so the argument's class keeps `list` where the
# result's has it, and the result's object (with a key more) fits.
async def main() -> None:
    seen = await tools.view()
    await tools.zoom(window=seen["window"])
