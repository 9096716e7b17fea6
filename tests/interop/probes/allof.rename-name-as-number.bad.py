# expect: arg-type
# expect-pyright: reportArgumentType
# The name the keywords beside the reference declare keeps its type.
async def main() -> None:
    await tools.rename(target={"id": 1, "name": 7})
