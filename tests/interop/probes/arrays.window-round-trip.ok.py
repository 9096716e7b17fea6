# One tool's result passed back as another's argument: the argument's class
# reads its fields read-only (covariant), so the result's object fits it,
# with a list for `bounds`, `label` required where the argument leaves it
# optional, and nothing more needed.
async def main() -> None:
    seen = await tools.view()
    await tools.zoom(window=seen["window"])
