# A key only a branch describes is an optional key; unevaluatedProperties
# opens the object.
async def main() -> None:
    await tools.ship(mode="courier", slot="9-12")
    await tools.ship(mode="post", tracked=True, weight=5)
    await tools.tag(item=1, note="fragile", color="red")
