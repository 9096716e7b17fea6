# expect: call-arg
# expect-pyright: reportCallIssue
async def main() -> None:
    await tools.create_issue(body="no title")
