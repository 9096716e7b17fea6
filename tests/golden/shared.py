from __future__ import annotations
from typing import Any, Literal, Protocol, TypedDict

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Content(TypedDict):
    content: str

class ListUsersOutput(TypedDict):
    users: list[User]

class TagNoteOutput(TypedDict):
    tags: list[Content]

class User(TypedDict):
    id: str
    name: str  # Display name

class Tools(Protocol):
    async def get_user(self, *, id: str) -> User:
        """One user."""
        ...
    async def list_users(self, **kwargs: Any) -> ListUsersOutput:
        """Every user."""
        ...
    async def read_note(self, *, path: str) -> Content:
        """Reads a note."""
        ...
    async def rename_user(self, *, user: User) -> User:
        """Renames a user and returns it."""
        ...
    async def stat_note(self, *, path: str) -> Content:
        """Sizes a note."""
        ...
    async def tag_note(self, *,
        path: str,  # Where the note is
    ) -> TagNoteOutput:
        """Tags a note; its path is described, so its arguments are a class of their own."""
        ...

tools: Tools
