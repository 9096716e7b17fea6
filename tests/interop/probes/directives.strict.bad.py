# expect: no-untyped-def
# expect-pyright: reportMissingParameterType
# A checker directive formed by the SDK's text (mypy: ignore-errors, pyright:
# basic) would let this through.
def helper(x):
    return x

async def main() -> None:
    await tools.annotate(note="n", tag="t", kind="plain")
