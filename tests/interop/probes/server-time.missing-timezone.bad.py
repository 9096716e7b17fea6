# expect: call-arg
# expect-pyright: reportCallIssue
# `timezone` is required.
async def main() -> None:
    await tools.get_current_time()
