from __future__ import annotations
from typing import Any, Literal, Protocol

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Tools(Protocol):
    async def set_mode(self, *, confirm: Literal[True], level: Literal[1, 2, 3] | None = ..., mode: Literal["heat", "cool", "off"], quote: Literal["it's \"quoted\" \\ here"] = ..., ratio: float | Literal[1] = ...) -> Any:
        """Switch the thermostat mode."""

tools: Tools
