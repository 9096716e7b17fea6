# A dimmer's label is one of its levels.
async def main() -> None:
    await tools.set_mood(mood={"level": 3, "label": "low"})
