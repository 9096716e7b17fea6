from __future__ import annotations
from typing import Any, Literal, NotRequired, Protocol, TypedDict

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class CreateUserArgs(TypedDict):
    age: NotRequired[int]
    name: str
    password: str  # @minLength 12

class Tools(Protocol):
    async def constrained(self, *, code: Any = ...) -> Any:
        """An allOf that is not made of objects."""
        ...
    async def create_user(self, args: CreateUserArgs) -> Any:
        """Create a user from a base profile plus credentials."""
        ...

tools: Tools
