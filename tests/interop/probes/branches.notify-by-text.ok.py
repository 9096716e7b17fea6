# A branch that is a `$ref` may name keys the SDK does not read, so the
# call admits them.
async def main() -> None:
    await tools.notify(channel="sms", number="+15550100")
    await tools.notify(channel="mail")
