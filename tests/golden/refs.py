"""Typed stubs of the tools a Code Mode program can call.

These declarations are static stubs: nothing here runs. At run time exactly
two names are bound, `tools` and `ToolCallError`; the TypedDict classes below
do not exist then, so never call one: pass plain dict/list values, e.g.
`{"city": "Oslo"}`, not `FooArgs(city="Oslo")`.

Every call is awaited: `await tools.name(args)`. A tool listed as a
comment (its name is not an identifier, or is one the types here use)
is called as `await tools["its-name"](args)`. A failed call raises
ToolCallError (`.toolName`, `.kind`).
"""
from __future__ import annotations
from typing import Any, Literal, NotRequired, Protocol, TypeAlias, TypedDict

class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

# @format uuid
AB: TypeAlias = 'str'

Json: TypeAlias = 'str | float | bool | None | list[Json] | dict[str, Json]'

class Location(TypedDict):
    lat: float
    lon: float

NestedFilterArgs = TypedDict("NestedFilterArgs", {
    "and": 'list[NestedFilterArgs]',
    "escaped": 'AB',
    "field": 'str',
    "location": 'Location',
}, total=False)

Path: TypeAlias = 'list[str]'

class Tree(TypedDict):
    """A node and its children."""
    children: list[Tree]
    value: int

class TreeInsertArgs(TypedDict):
    at: NotRequired[Path]
    tree: Tree
    value: Json

class Tools(Protocol):
    async def nested_filter(self, args: NestedFilterArgs = ...) -> Any:
        """A filter that refers to itself through the root."""
        ...
    async def tree_insert(self, args: TreeInsertArgs) -> Tree:
        """Insert a value into a tree."""
        ...

tools: Tools
