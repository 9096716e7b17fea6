# expect: arg-type
# expect-pyright: reportArgumentType
async def main() -> None:
    await tools.set_headers(headers={}, meta=[1, 2])
