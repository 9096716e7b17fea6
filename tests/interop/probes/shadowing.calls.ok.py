async def main() -> None:
    await tools.find(q="x")
    await tools.FindArgs(n=1)
    await tools["str"]({"s": "x"})
    await tools["Any"]({})
    await tools["overload"]({})
    await tools["_hidden"]({"r": "x"})
    await tools.new(kind="k")
    await tools.get(id="1")
    await tools.blank({"": "v", "id": 1})
    await tools.limits(big=9223372036854775808, huge=18446744073709551615)
    await tools.proto(id="1", toString="s")
    await tools.proto_key({"__proto__": "p", "id": 1})
    # The first key ends in U+E0100, a variation selector past U+FFFF, written
    # as itself (pyright reads a \U escape past U+FFFF as its low 16 bits).
    await tools.unicode({"k󠄀": True, "été": "x", "𞀰": 1})
