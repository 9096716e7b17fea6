# A tool and a key named like the mark of read-only fields: the tool is
# reached by subscript, the key's class is functional, and the mark still
# means what it says for the key after it.
async def main() -> None:
    xs: list[int] = [1, 2]
    await tools["ReadOnly"]({"frame": {"ReadOnly": "shown", "xs": xs}})
