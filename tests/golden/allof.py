from __future__ import annotations
from typing import Any, Literal, Protocol

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Tools(Protocol):
    async def constrained(self, *, code: Any = ...) -> Any:
        """An allOf that is not made of objects."""
    async def create_user(self, *,
        age: int = ...,
        name: str,
        password: str,  # @minLength 12
    ) -> Any:
        """Create a user from a base profile plus credentials."""

tools: Tools
