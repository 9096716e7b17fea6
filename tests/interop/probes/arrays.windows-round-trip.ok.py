# A list of one tool's results passed to another: the argument's class is
# read-only, so the parameter holding a list of it takes a Sequence, which
# the result's list[ViewOutputWindow] is.
async def main() -> None:
    seen = await tools.view()
    shown = [seen["window"], seen["window"]]
    await tools.tile(windows=shown)
