from __future__ import annotations
from typing import Any, Literal, NotRequired, Protocol, TypeAlias, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Filter(TypedDict):
    field: ReadOnly[str]
    value: NotRequired[ReadOnly[str]]

class IdName(TypedDict):
    id: NotRequired[ReadOnly[int]]
    name: ReadOnly[str]

class LabelArgsLabel(TypedDict):
    id: ReadOnly[int]
    name: NotRequired[ReadOnly[str]]

Note: TypeAlias = 'str | None'

class PickArgsItem(TypedDict):
    id: ReadOnly[str]

class TagArgsTag(TypedDict):
    kind: ReadOnly[str]
    note: NotRequired[ReadOnly[str]]

class Tools(Protocol):
    async def annotate(self, *, note: Note) -> Any:
        """Attach a note, which may be text or null; a note object must have text."""
    async def constrained(self, *, code: Any = ...) -> Any:
        """An allOf that is not made of objects."""
    async def create_user(self, *,
        age: int = ...,
        name: str,
        password: str,  # @minLength 12
    ) -> Any:
        """Create a user from a base profile plus credentials."""
    async def label(self, *, label: str | None | IdName | LabelArgsLabel) -> Any:
        """Label an item with text, nothing, or a label object that names it or gives its id."""
    async def measure(self, *, count: int, scale: float | None = ..., unit: Literal["cm", "in"]) -> Any:
        """Record a measurement."""
    async def pick(self, *, item: PickArgsItem | None) -> Any:
        """Pick an item by id, or pass null to pick none."""
    async def rename(self, *, target: str | None | IdName) -> Any:
        """Rename a target given by path, by nothing, or as an object with its id."""
    async def schedule(self, *,
        every: int = ...,  # @minimum 1
        job: str,
        repeat: bool = ...,
    ) -> Any:
        """Schedule a job; a job that repeats must say how often."""
    async def search(self, *, filter: Filter | None) -> Any:
        """Search notes, optionally through a filter object, or null for none."""
    async def tag(self, *, tag: str | None | TagArgsTag) -> Any:
        """Tag an item with text, nothing, or a tag object that names its kind."""

tools: Tools
