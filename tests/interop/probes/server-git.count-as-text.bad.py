# expect: arg-type
# expect-pyright: reportArgumentType
# `max_count` is an integer.
async def main() -> None:
    await tools.git_log(repo_path="/repo", max_count="5")
