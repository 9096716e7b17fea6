from __future__ import annotations
from typing import Any, Literal, Never, Protocol, Required, TypedDict

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class SetHeadersArgs(TypedDict, total=False):
    counts: dict[str, Any]
    headers: Required[dict[str, str]]
    labelled: SetHeadersArgsLabelled
    meta: dict[str, Any]
    sealed: dict[str, Never]

class SetHeadersArgsLabelled(TypedDict):
    primary: str

class Tools(Protocol):
    async def set_headers(self, args: SetHeadersArgs) -> Any:
        """Replace request headers and metadata."""
        ...

tools: Tools
