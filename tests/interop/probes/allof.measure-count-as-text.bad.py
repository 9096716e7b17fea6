# expect: arg-type
# expect-pyright: reportArgumentType
# The count is an integer, not any value.
async def main() -> None:
    await tools.measure(count="three", unit="cm")
