async def main() -> None:
    await tools.annotate(note="n", kind="rich")
    await tools["odd # type: ignore"]({"x-y": 1, "class": "c"})
