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
from typing import Any, Literal, NotRequired, Protocol, TypedDict

class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class ConstrainedArgs(TypedDict, total=False):
    code: Any

class CreateUserArgs(TypedDict):
    age: NotRequired[int]
    name: str
    password: str  # @minLength 12

class Profile(TypedDict):
    age: NotRequired[int]
    name: str

class Tools(Protocol):
    async def constrained(self, args: ConstrainedArgs = ...) -> Any:
        """An allOf that is not made of objects."""
        ...
    async def create_user(self, args: CreateUserArgs) -> Any:
        """Create a user from a base profile plus credentials."""
        ...

tools: Tools
