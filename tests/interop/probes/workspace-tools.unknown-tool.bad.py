# expect: attr-defined
async def main() -> None:
    await tools.delete_everything()
