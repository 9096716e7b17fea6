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
from typing import Any, Awaitable, Callable, Literal, Protocol, Required, TypedDict, overload

class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class FindArgs(TypedDict):
    q: str

class FindArgsArgs(TypedDict, total=False):
    n: int

class LimitsArgs(TypedDict, total=False):
    big: Literal[9223372036854775807] | int
    huge: int

class ProtoArgs(TypedDict, total=False):
    constructor: int
    id: Required[str]
    toString: str
    valueOf: bool

class StrArgs(TypedDict, total=False):
    s: str

class Tools(Protocol):
    # tools["Any"](args: dict[str, Any]) -> Any
    # tools["FindArgs"](args: FindArgsArgs) -> Any
    #   Named like the arguments of find.
    async def blank(self, args: dict[str, Any]) -> Any:
        ...
    async def find(self, args: FindArgs) -> Any:
        """Finds records."""
        ...
    async def limits(self, args: LimitsArgs = ...) -> Any:
        ...
    # tools["overload"](args: dict[str, Any]) -> Any
    async def proto(self, args: ProtoArgs) -> Any:
        ...
    # tools["str"](args: StrArgs) -> Any
    # tools["with-dash"](args: dict[str, Any]) -> Any
    @overload
    def __getitem__(self, name: Literal["Any"]) -> Callable[[dict[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["FindArgs"]) -> Callable[[FindArgsArgs], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["overload"]) -> Callable[[dict[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["str"]) -> Callable[[StrArgs], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["with-dash"]) -> Callable[[dict[str, Any]], Awaitable[Any]]: ...

tools: Tools
