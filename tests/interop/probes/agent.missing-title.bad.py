# expect: call-arg
async def main() -> None:
    await tools.create_ticket(priority="urgent")
