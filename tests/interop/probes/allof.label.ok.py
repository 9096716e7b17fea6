# `anyOf` members with `required` alone bind only objects: text and None
# pass, and an object passes with a name or an id.
async def main() -> None:
    await tools.label(label="urgent")
    await tools.label(label=None)
    await tools.label(label={"name": "urgent"})
    await tools.label(label={"id": 7})
