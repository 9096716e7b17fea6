# expect: arg-type
# expect-pyright: reportArgumentType
# A listed flag holds only the flags' values.
async def main() -> None:
    await tools.tag_flags(level="loud")
