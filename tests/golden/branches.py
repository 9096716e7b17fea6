from __future__ import annotations
from typing import Any, Literal, Protocol

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Tools(Protocol):
    async def notify(self, *, channel: Literal["mail", "sms"], **extra: Any) -> Any:
        """Send a notice by mail or by text message."""
    async def ship(self, *,
        mode: Literal["courier", "post"],
        slot: str = ...,  # Delivery window.
        tracked: bool = ...,
        weight: Literal[1, 5] = ...,
    ) -> Any:
        """Ship an order by courier or by post."""
    async def tag(self, *, item: int, **extra: Any) -> Any:
        """Attach labels to an item."""

tools: Tools
