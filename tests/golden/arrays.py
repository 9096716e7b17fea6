from __future__ import annotations
from typing import Literal, Protocol, Required, TypedDict

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class PlotArgs(TypedDict, total=False):
    empty: tuple[()]
    points: Required[list[tuple[float, float]]]
    range: tuple[float] | tuple[float, float]
    series: list[list[float | None]]
    tags: tuple[str | int, ...]

class Tools(Protocol):
    async def plot(self, args: PlotArgs) -> list[str]:
        """Plot points and labelled series."""
        ...

tools: Tools
