from __future__ import annotations
from typing import Literal, Protocol, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class NotifyArgsTargetChannel(TypedDict):
    id: ReadOnly[str]
    kind: ReadOnly[Literal["channel"]]

class NotifyArgsTargetUser(TypedDict):
    email: ReadOnly[str]  # @format email
    kind: ReadOnly[Literal["user"]]

class NotifyOutputSentAt(TypedDict):
    sent_at: str  # @format date-time

class Tools(Protocol):
    async def notify(self, *, body: str | list[str], target: NotifyArgsTargetChannel | NotifyArgsTargetUser, thread: str | None = ...) -> NotifyOutputSentAt | None:
        """Send a notification to a channel or a user."""
        ...

tools: Tools
