# A label every choice lists keeps the switches' values.
async def main() -> None:
    await tools.set_badge(badge={"label": "on"})
