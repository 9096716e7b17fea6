# User IDs held as integers: the schema's numbers take them, and so must the
# parameter, though the program's list is a list of ints.
async def main() -> None:
    ids = [3, 7]
    await tools.create_issue(project_id="group/project", title="Broken build", assignee_ids=ids)
