# expect: list-item
# expect-pyright: reportArgumentType
# The records' keys keep their types.
async def main() -> None:
    await tools.add_rows(rows=[{"name": 5}])
