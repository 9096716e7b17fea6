# The switches' values, in either choice of the named union.
async def main() -> None:
    await tools.set_panel(panel={"scene": "on", "label": "off"})
    await tools.set_panel(panel={"room": "off"})
