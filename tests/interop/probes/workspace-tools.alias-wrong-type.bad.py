# expect: arg-type
# expect-pyright: reportArgumentType
# `search-issues` is declared as the method `search_issues`, typed as fully.
async def main() -> None:
    await tools.search_issues(query=7)
