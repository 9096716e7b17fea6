# expect: arg-type
# expect-pyright: reportArgumentType
# The member's property keeps its type.
async def main() -> None:
    await tools.schedule(job="backup", repeat=True, every="hourly")
