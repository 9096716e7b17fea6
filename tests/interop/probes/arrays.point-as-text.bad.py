# expect: typeddict-item
# expect-pyright: reportArgumentType
async def main() -> None:
    await tools.center_on(point={"x": "0.5", "y": 2})
