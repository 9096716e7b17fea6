# An allOf member with `if`/`then` beside the object's own properties: its
# property is one more optional keyword.
async def main() -> None:
    await tools.schedule(job="backup")
    await tools.schedule(job="backup", repeat=True, every=60)
