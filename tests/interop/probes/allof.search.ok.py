# `type` beside a reference to keywords without one: None passes, and an
# object passes when it names its field.
async def main() -> None:
    await tools.search(filter=None)
    await tools.search(filter={"field": "tag", "value": "urgent"})
