from __future__ import annotations
from typing import Any, Literal, Protocol, Sequence, TypedDict

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class ViewOutput(TypedDict):
    window: ViewOutputWindow

class ViewOutputWindow(TypedDict):
    bounds: list[float]
    label: str

class ZoomArgsWindow(TypedDict):
    bounds: list[float]

class Tools(Protocol):
    async def plot(self, *, empty: tuple[()] = ..., points: Sequence[tuple[float, float]], range: tuple[float] | tuple[float, float] = ..., series: Sequence[Sequence[float | None]] = ..., tags: tuple[str | int, ...] = ...) -> list[str]:
        """Plot points and labelled series."""
        ...
    async def view(self) -> ViewOutput:
        """The plot's window."""
        ...
    async def zoom(self, *, window: ZoomArgsWindow) -> Any:
        """Zoom the plot to a window."""

tools: Tools
