"""Typed stubs of the tools a Code Mode program can call.

These declarations are static stubs: nothing here runs. At run time exactly
two names are bound, `tools` and `ToolCallError`; the TypedDict classes below
do not exist then, so never call one: pass plain dict/list values, e.g.
`{"city": "Oslo"}`, not `FooArgs(city="Oslo")`.

Every call is awaited: `await tools.name(args)`. A tool whose name is not
a Python identifier is listed as a comment; call it as
`await tools["its-name"](args)`. A failed call raises ToolCallError
(`.toolName`, `.kind`).
"""
from typing import Any, Literal, Never, NotRequired, Protocol, TypedDict

class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked"]

class SetHeadersArgs(TypedDict):
    counts: NotRequired[dict[str, int]]
    headers: dict[str, str]
    labelled: NotRequired[SetHeadersArgsLabelled]
    meta: NotRequired[dict[str, Any]]
    sealed: NotRequired[dict[str, Never]]

class SetHeadersArgsLabelled(TypedDict):
    primary: str

class Tools(Protocol):
    async def set_headers(self, args: SetHeadersArgs) -> Any:
        """Replace request headers and metadata."""

tools: Tools
