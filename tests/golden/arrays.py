from __future__ import annotations
from typing import Literal, Protocol, Sequence

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Tools(Protocol):
    async def plot(self, *, empty: tuple[()] = ..., points: Sequence[tuple[float, float]], range: tuple[float] | tuple[float, float] = ..., series: Sequence[Sequence[float | None]] = ..., tags: tuple[str | int, ...] = ...) -> list[str]:
        """Plot points and labelled series."""
        ...

tools: Tools
