# expect: list-item
# expect-pyright: reportArgumentType
# The same in Python: neither TypedDict has both keys.
async def main() -> None:
    await tools.create_pull_request_review(
        owner="o", repo="r", pull_number=1, body="b", event="COMMENT",
        comments=[{"path": "src/lib.rs", "position": 4, "line": 12, "body": "nit"}],
    )
