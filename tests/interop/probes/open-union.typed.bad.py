# expect: typeddict-item
# expect-pyright: reportArgumentType
# The keys keep their types: the object's own, and one written as
# "absent, or of this type".
async def main() -> None:
    await tools.update_record(record={"id": "x"})
