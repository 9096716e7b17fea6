# A list or tuple literal of dicts, where the parameter is a union of
# sequences: mypy types the dicts from the parameter.
async def main() -> None:
    await tools.add_rows(rows=[{"name": "a"}])
    await tools.add_rows(rows=[1, 2])
    await tools.move_to(target=({"place": "hall"},))
    await tools.move_to(target=({"place": "hall"}, 2))
