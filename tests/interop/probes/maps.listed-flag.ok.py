# A flag key the tool also lists keeps its literals, as the other keys do.
async def main() -> None:
    await tools.tag_flags(level="on", debug="off")
    await tools.tag_flags()
