# expect: typeddict-item
# expect-pyright: reportArgumentType
# The object's own keys keep their types.
async def main() -> None:
    await tools.update_record(record={"id": 2, "title": 5})
