# Members of scalar types meet: an integer that is a number is an integer,
# and an enum's strings that are strings are those strings.
async def main() -> None:
    await tools.measure(count=3, unit="cm")
    await tools.measure(count=0, unit="in", scale=None)
    await tools.measure(count=1, unit="cm", scale=0.5)
