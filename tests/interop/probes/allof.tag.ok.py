# A member that refers to `required` alone binds only objects: text and
# None pass, and an object passes when it names its kind.
async def main() -> None:
    await tools.tag(tag="urgent")
    await tools.tag(tag=None)
    await tools.tag(tag={"kind": "priority", "note": "today"})
