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
from typing import Any, Literal, NotRequired, Protocol, TypedDict

class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked"]

class BrokenArgs(TypedDict):
    bad_enum: NotRequired[Any]
    bad_items: NotRequired[list[Any]]
    bad_props: NotRequired[Any]
    bad_required: NotRequired[Any]
    fine: str
    missing: NotRequired[Any]
    number_schema: NotRequired[Any]
    object_enum: NotRequired[Any]
    remote: NotRequired[Any]
    unknown_type: NotRequired[Any]

class Tools(Protocol):
    async def broken(self, args: BrokenArgs) -> Any:
        """Schemas the renderer cannot fully express."""

tools: Tools
