# expect: call-arg
# expect-pyright: reportCallIssue
async def main() -> None:
    await tools.read_file(path="a.txt", encoding="latin1")
