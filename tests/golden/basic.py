from __future__ import annotations
from typing import Any, Literal, Protocol, TypedDict

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class GreetOutput(TypedDict):
    message: str

class Tools(Protocol):
    async def greet(self, *,
        loud: bool = ...,
        name: str,  # Who to greet.
        times: int = ...,  # @minimum 1 @default 1
    ) -> GreetOutput:
        """Say hello to someone."""
        ...
    async def ping(self, **kwargs: Any) -> Any: ...

tools: Tools
