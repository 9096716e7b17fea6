# expect: typeddict-item
# expect-pyright: reportArgumentType
# `legs` refers to a list or a string, and `type: "array"` beside the
# reference leaves the string out.
async def main() -> None:
    await tools.plan_route({"from": {"name": "a"}, "to": {"name": "b", "note": "n"}, "legs": "x"})
