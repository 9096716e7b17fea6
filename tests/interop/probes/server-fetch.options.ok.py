async def main() -> object:
    return await tools.fetch(url="https://example.com", max_length=100, raw=True)
