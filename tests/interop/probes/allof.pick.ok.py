# Properties without `type` beside an anyOf with null: None, or a dict
# with its id.
async def main() -> None:
    await tools.pick(item=None)
    await tools.pick(item={"id": "a1"})
