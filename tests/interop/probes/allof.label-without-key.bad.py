# expect: arg-type
# expect-pyright: reportArgumentType
# A label object needs a name or an id.
async def main() -> None:
    await tools.label(label={"id": 7})
    await tools.label(label={})
