from __future__ import annotations
from typing import Any, Literal, Protocol, Required, TypedDict

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class GreetArgs(TypedDict, total=False):
    loud: bool
    name: Required[str]  # Who to greet.
    times: int  # @minimum 1 @default 1

class GreetOutput(TypedDict):
    message: str

class Tools(Protocol):
    async def greet(self, args: GreetArgs) -> GreetOutput:
        """Say hello to someone."""
        ...
    async def ping(self, args: dict[str, Any]) -> Any: ...

tools: Tools
