# expect: typeddict-item
# expect-pyright: reportArgumentType
# A mark the tool reads needs its label.
async def main() -> None:
    await tools.pin(marks=[{"at": "top"}])
