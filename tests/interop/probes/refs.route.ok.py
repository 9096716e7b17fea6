# `type` beside a reference narrows it: a dict for `via`, a list for
# `legs`.
async def main() -> None:
    await tools.plan_route({"from": {"name": "a"}, "to": {"name": "b", "note": "n"}, "via": {"name": "c"}, "legs": ["x", "y"]})
