# A key one named member lists keeps the literals another named member
# gives every key.
async def main() -> None:
    await tools.set_switches(panel={"label": "on"})
