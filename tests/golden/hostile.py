from __future__ import annotations
from typing import Any, Awaitable, Callable, Literal, Mapping, Protocol, Required, TypeAlias, TypedDict, overload
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

ClassArgs = TypedDict("ClassArgs", {
    "class": 'Required[ReadOnly[str]]',
    "from": 'ReadOnly[int]',
    "list": 'ReadOnly[str]',
    "ok": 'ReadOnly[list[str]]',
}, total=False)

EndCommentArgs = TypedDict("EndCommentArgs", {
    "*/": 'ReadOnly[str]',  # key */ here
}, total=False)

LeArgs = TypedDict("LeArgs", {
    "ﬁeld": 'ReadOnly[bool]',
}, total=False)

LineSepParaArgs = TypedDict("LineSepParaArgs", {
    "\u2028": 'ReadOnly[Literal["\\u2029"]]',
}, total=False)

QuoteBackSlashArgs = TypedDict("QuoteBackSlashArgs", {
    "a\"b": 'ReadOnly[str]',
    "c\\d": 'ReadOnly[int]',
}, total=False)

ToolCallErrorType: TypeAlias = 'str'

class UnicodArgs(TypedDict, total=False):
    naïve: ReadOnly[str]

class Tools(Protocol):
    async def get_weather(self, *,
        city: str = ...,  # @pattern ^[^*/]+$ @default "*/ \"\"\" \\"
    ) -> Any:
        """# not a comment
\"\"\"
'''
        """
    async def tools(self, *, ToolCallError: ToolCallErrorType = ...) -> Any:
        """Named like the global"""
    async def unicodé(self, args: UnicodArgs = ...) -> Any:
        """Unicode identifiers are fine in Python"""
    @overload
    def __getitem__(self, name: Literal[""]) -> Callable[[Mapping[str, Any]], Awaitable[Any]]:
        """The empty name"""
    @overload
    def __getitem__(self, name: Literal["*/ end comment"]) -> Callable[[EndCommentArgs], Awaitable[Any]]:
        """Closes */ a comment and opens /* another"""
    @overload
    def __getitem__(self, name: Literal["__init__"]) -> Callable[[Mapping[str, Any]], Awaitable[Any]]:
        """A dunder name"""
    @overload
    def __getitem__(self, name: Literal["__private"]) -> Callable[[Mapping[str, Any]], Awaitable[Any]]: ...
    @overload
    def __getitem__(self, name: Literal["class"]) -> Callable[[ClassArgs], Awaitable[Any]]:
        """A Python keyword \"\"\" with a triple quote"""
    @overload
    def __getitem__(self, name: Literal["ctrl\u0001\u007f"]) -> Callable[[Mapping[str, Any]], Awaitable[Any]]:
        """Control \\u{0} \\u{7} \\u{1b} characters"""
    @overload
    def __getitem__(self, name: Literal["line\u2028sep\u2029para"]) -> Callable[[LineSepParaArgs], Awaitable[Any]]:
        """Separators
 inside
 text
and a newline
and CRLF
        """
    @overload
    def __getitem__(self, name: Literal["quote\"back\\slash"]) -> Callable[[QuoteBackSlashArgs], Awaitable[Any]]:
        """Ends with a backslash \\"""
    @overload
    def __getitem__(self, name: Literal["ﬁle"]) -> Callable[[LeArgs], Awaitable[Any]]:
        """Not NFKC-stable: the ligature fi"""

tools: Tools
