# expect: arg-type
# expect-pyright: reportArgumentType
# `labels` is a list of names; a lone string must not pass for one.
async def main() -> None:
    await tools.create_issue(project_id="group/project", title="Broken build", labels="ci")
