# `required` without `type` binds only objects, so a null or text note
# passes beside it.
async def main() -> None:
    await tools.annotate(note=None)
    await tools.annotate(note="see above")
