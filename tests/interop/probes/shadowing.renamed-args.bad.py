# expect: call-arg
# expect-pyright: reportCallIssue
async def main() -> None:
    await tools.FindArgs(q="x")
