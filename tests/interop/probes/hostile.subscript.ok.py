async def main() -> None:
    await tools["class"]({"class": "x", "from": 1})
    await tools["*/ end comment"]({"*/": "y"})
    await tools["\ufb01le"]({"\ufb01eld": True})
    await tools.get_weather()
