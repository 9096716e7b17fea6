# expect: typeddict-unknown-key
# expect-pyright: reportArgumentType
async def main() -> None:
    await tools["FindArgs"]({"q": "x"})
