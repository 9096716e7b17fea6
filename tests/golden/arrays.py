from __future__ import annotations
from typing import Any, Literal, NotRequired, Protocol, Sequence, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class CenterOnArgsPoint(TypedDict):
    x: ReadOnly[float]
    y: ReadOnly[float]

class CursorOutput(TypedDict):
    at: CursorOutputAt

class CursorOutputAt(TypedDict):
    x: int
    y: int

class ExtentOutput(TypedDict):
    span: tuple[float] | tuple[float, float]

class MarksOutput(TypedDict):
    marks: list[MarksOutputMarksItem]

class MarksOutputMarksItem(TypedDict):
    at: str
    label: str
    size: int

class PinArgsMarksItem(TypedDict):
    at: NotRequired[ReadOnly[str]]
    label: ReadOnly[str]

class TileArgsWindowsItem(TypedDict):
    bounds: ReadOnly[Sequence[float]]

class ViewOutput(TypedDict):
    window: ViewOutputWindow

class ViewOutputWindow(TypedDict):
    bounds: list[float]
    label: str

class ZoomArgsWindow(TypedDict):
    bounds: ReadOnly[Sequence[float]]
    label: NotRequired[ReadOnly[str]]

class Tools(Protocol):
    async def center_on(self, *, point: CenterOnArgsPoint) -> Any:
        """Center the plot on a point."""
    async def cursor(self, **kwargs: Any) -> CursorOutput:
        """Where the cursor is, in whole pixels."""
        ...
    async def extent(self, **kwargs: Any) -> ExtentOutput:
        """The plot's extent along x: where it starts, and where it ends when it has an end."""
        ...
    async def marks(self, **kwargs: Any) -> MarksOutput:
        """The plot's marks, with where each one sits."""
        ...
    async def pin(self, *, marks: Sequence[PinArgsMarksItem]) -> Any:
        """Pin marks to the plot by their labels, each where it says or at the top."""
    async def plot(self, *, empty: tuple[()] = ..., points: Sequence[tuple[float, float]], range: tuple[float] | tuple[float, float] = ..., series: Sequence[Sequence[float | None]] = ..., tags: tuple[str | int, ...] = ...) -> list[str]:
        """Plot points and labelled series."""
        ...
    async def tile(self, *, windows: Sequence[TileArgsWindowsItem]) -> Any:
        """Show several windows side by side."""
    async def view(self) -> ViewOutput:
        """The plot's window."""
        ...
    async def zoom(self, *, window: ZoomArgsWindow) -> Any:
        """Zoom the plot to a window."""

tools: Tools
