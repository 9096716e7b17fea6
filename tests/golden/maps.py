from __future__ import annotations
from typing import Any, Literal, Never, Protocol, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class SetHeadersArgsLabelled(TypedDict):
    primary: ReadOnly[str]

class Tools(Protocol):
    async def set_headers(self, *, counts: dict[str, Any] = ..., headers: dict[str, str], labelled: SetHeadersArgsLabelled = ..., meta: dict[str, Any] = ..., sealed: dict[str, Never] = ...) -> Any:
        """Replace request headers and metadata."""

tools: Tools
