# expect: call-arg
# expect-pyright: reportCallIssue
# A tool declared with keyword parameters takes no positional dict.
async def main() -> None:
    await tools.read_file({"path": "a.txt"})
