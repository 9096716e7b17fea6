async def main() -> None:
    await tools.find({"q": "x"})
    await tools["FindArgs"]({"n": 1})
    await tools["str"]({"s": "x"})
    await tools["Any"]({})
    await tools["overload"]({})
    await tools.blank({"": "v", "id": 1})
    await tools.limits({"big": 9223372036854775808, "huge": 18446744073709551615})
    await tools.proto({"id": "1", "toString": "s"})
