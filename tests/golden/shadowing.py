from __future__ import annotations
from typing import Any, Awaitable, Callable, Literal, Mapping, NotRequired, Protocol, Sequence, TypedDict, overload
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class HiddenArgs(TypedDict):
    r: ReadOnly[str]

ProtoKeyArgs = TypedDict("ProtoKeyArgs", {
    "__proto__": 'ReadOnly[str]',
    "id": 'NotRequired[ReadOnly[int]]',
})

class ProtoStyleArgsStyle(TypedDict, total=False):
    toString: ReadOnly[str]
    valueOf: ReadOnly[float]

class ReadOnlyArgs(TypedDict):
    frame: ReadOnly[ReadOnlyArgsFrame]

ReadOnlyArgsFrame = TypedDict("ReadOnlyArgsFrame", {
    "ReadOnly": 'ReadOnly[str]',
    "xs": 'ReadOnly[Sequence[float]]',
})

class StrArgs(TypedDict, total=False):
    s: ReadOnly[str]

UnicodeArgs = TypedDict("UnicodeArgs", {
    "k󠄀": 'ReadOnly[bool]',
    "été": 'ReadOnly[str]',
    "𞀰": 'ReadOnly[int]',
}, total=False)

class Tools(Protocol):
    async def FindArgs(self, *, n: int = ...) -> Any:
        """Named like the arguments of find."""
    async def blank(self, args: Mapping[str, Any]) -> Any: ...
    async def find(self, *, q: str) -> Any:
        """Finds records."""
    async def get(self, *, id: str = ...) -> Any: ...
    async def limits(self, *, big: Literal[9223372036854775807] | int = ..., huge: int = ..., least: int = ...) -> Any: ...
    async def new(self, *, kind: str) -> Any:
        """Named like a construct signature."""
    async def proto(self, *, constructor: int = ..., id: str, toString: str = ..., valueOf: bool = ...) -> Any: ...
    async def proto_key(self, args: ProtoKeyArgs) -> Any:
        """A key an object literal cannot write plainly."""
    async def proto_style(self, *, style: ProtoStyleArgsStyle) -> Any:
        """Every key optional, two named like Object members."""
    async def unicode(self, args: UnicodeArgs = ...) -> Any:
        """One key Python 3.11 can spell as a name, one it cannot."""
    async def with_dash(self, **kwargs: Any) -> Any: ...
    @overload
    def __getitem__(self, name: Literal["Any"]) -> Callable[[Mapping[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["ReadOnly"]) -> Callable[[ReadOnlyArgs], Awaitable[Any]]:
        """Named like the mark of a read-only field."""
    @overload
    def __getitem__(self, name: Literal["_hidden"]) -> Callable[[HiddenArgs], Awaitable[Any]]:
        """Private to a class for pyright, so reached by subscript."""
    @overload
    def __getitem__(self, name: Literal["a\u034fb"]) -> Callable[[Mapping[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["a\u200cb"]) -> Callable[[Mapping[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["overload"]) -> Callable[[Mapping[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["str"]) -> Callable[[StrArgs], Awaitable[Any]]: ...

tools: Tools
