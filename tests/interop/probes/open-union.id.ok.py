# A key written as "absent, or of this type" keeps its type; a key that
# one `anyOf` member lists beside a member that admits any value may hold
# anything.
async def main() -> None:
    await tools.update_record(record={"id": 2})
    await tools.update_record(record={"title": "t"})
    await tools.merge_records(into={"id": "any", "title": "t"})
    await tools.tag_record(target={"key": 1, "tag": "t"})
