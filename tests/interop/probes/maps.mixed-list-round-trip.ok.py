# A result's list of strings and objects passed back as it is, and a
# list the program built: a list that may hold strings stays a `list`,
# so its items keep their exact types.
async def main() -> None:
    got = await tools.notes()
    await tools.save_notes(entries=got["entries"])
    mine: list[str | dict[str, object]] = ["a", {"b": 1}]
    await tools.save_notes(entries=mine)
