# A key one member lists keeps the literals that a member inside another
# named allOf gives every key.
async def main() -> None:
    await tools.set_lights(panel={"label": "on", "zone": "off"})
