from __future__ import annotations
from typing import Any, Awaitable, Callable, Literal, Protocol, Required, TypedDict, overload

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class FindArgs(TypedDict):
    q: str

class FindArgsArgs(TypedDict, total=False):
    n: int

class GetArgs(TypedDict, total=False):
    id: str

class HiddenArgs(TypedDict):
    r: str

class LimitsArgs(TypedDict, total=False):
    big: Literal[9223372036854775807] | int
    huge: int

class NewArgs(TypedDict):
    kind: str

class ProtoArgs(TypedDict, total=False):
    constructor: int
    id: Required[str]
    toString: str
    valueOf: bool

class StrArgs(TypedDict, total=False):
    s: str

class Tools(Protocol):
    async def blank(self, args: dict[str, Any]) -> Any: ...
    async def find(self, args: FindArgs) -> Any:
        """Finds records."""
        ...
    async def get(self, args: GetArgs = ...) -> Any: ...
    async def limits(self, args: LimitsArgs = ...) -> Any: ...
    async def new(self, args: NewArgs) -> Any:
        """Named like a construct signature."""
        ...
    async def proto(self, args: ProtoArgs) -> Any: ...
    @overload
    def __getitem__(self, name: Literal["Any"]) -> Callable[[dict[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["FindArgs"]) -> Callable[[FindArgsArgs], Awaitable[Any]]:
        """Named like the arguments of find."""
    @overload
    def __getitem__(self, name: Literal["_hidden"]) -> Callable[[HiddenArgs], Awaitable[Any]]:
        """Private to a class for pyright, so reached by subscript."""
    @overload
    def __getitem__(self, name: Literal["overload"]) -> Callable[[dict[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["str"]) -> Callable[[StrArgs], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["with-dash"]) -> Callable[[dict[str, Any]], Awaitable[Any]]: ...

tools: Tools
