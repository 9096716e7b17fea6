# `counts` gives a pattern for some keys and says nothing of the others,
# so a key the pattern does not match may hold any value.
async def main() -> None:
    await tools.set_headers(headers={"a": "b"}, counts={"abc": 1, "X-Other": "any"})
