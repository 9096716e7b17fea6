# expect: call-arg
# expect-pyright: reportCallIssue
# `password` is required by the second member of the allOf.
async def main() -> None:
    await tools.create_user(name="Ada")
