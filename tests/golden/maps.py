from __future__ import annotations
from typing import Any, Literal, Mapping, Never, NotRequired, Protocol, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Label(TypedDict, total=False):
    label: ReadOnly[Literal["on", "off"]]

class NotesOutput(TypedDict):
    entries: list[str | dict[str, Any]]

class SetBadgeArgsBadge(TypedDict):
    label: ReadOnly[Literal["on", "off"]]

class SetBadgeArgsBadge2(TypedDict):
    label: ReadOnly[Any]

class SetDialArgsDial(TypedDict):
    kind: ReadOnly[Literal["on"]]
    label: NotRequired[ReadOnly[Literal["on", "off"]]]

class SetDialArgsDial2(TypedDict):
    kind: ReadOnly[Literal["off"]]

class SetHeadersArgsLabelled(TypedDict):
    primary: ReadOnly[str]

class SetLightsArgsPanel(TypedDict, total=False):
    label: ReadOnly[Literal["on", "off"]]
    zone: ReadOnly[Literal["on", "off"]]

class SetMoodArgsMood(TypedDict):
    label: NotRequired[ReadOnly[Literal["low", "high"]]]
    level: ReadOnly[int]

class SetPanelArgsPanel(TypedDict):
    label: NotRequired[ReadOnly[Literal["on", "off"]]]
    scene: ReadOnly[Literal["on", "off"]]

class SetPanelArgsPanel2(TypedDict):
    room: ReadOnly[Literal["on", "off"]]

class SetSceneArgsScene(TypedDict):
    label: NotRequired[ReadOnly[str]]
    preset: ReadOnly[str]

class WhoamiOutput(TypedDict):
    account: WhoamiOutputAccount

class WhoamiOutputAccount(TypedDict):
    id: int
    name: str

class Tools(Protocol):
    async def notes(self, **kwargs: Any) -> NotesOutput:
        """The notes, each a line of text or a structured entry."""
        ...
    async def save_notes(self, *, entries: list[str | dict[str, Any]]) -> Any:
        """Replace the notes."""
    async def set_badge(self, *, badge: SetBadgeArgsBadge | SetBadgeArgsBadge2) -> Any:
        """Set a badge, as switches each on or off, whose label is text or a number."""
    async def set_dial(self, *, dial: SetDialArgsDial | SetDialArgsDial2) -> Any:
        """Set a dial: switches each on or off, of a kind that is on (with a label) or off."""
    async def set_headers(self, *, counts: Mapping[str, Any] = ..., headers: dict[str, str], labelled: SetHeadersArgsLabelled = ..., meta: Mapping[str, Any] = ..., sealed: dict[str, Never] = ...) -> Any:
        """Replace request headers and metadata."""
    async def set_lights(self, *, panel: SetLightsArgsPanel) -> Any:
        """Set the lights of a zone, each on or off, in a panel that also has a label."""
    async def set_mood(self, *, mood: Label | SetMoodArgsMood) -> Any:
        """Set a mood, as switches each on or off or as dimmers each low or high at a level, with a label."""
    async def set_panel(self, *, panel: SetPanelArgsPanel | SetPanelArgsPanel2) -> Any:
        """Set a panel: switches each on or off, showing a scene (with a label) or a room."""
    async def set_scene(self, *, scene: Label | SetSceneArgsScene) -> Any:
        """Set a scene, as switches each on or off or as a named preset, with a label."""
    async def set_switches(self, *, panel: Label) -> Any:
        """Set switches, each on or off, in a panel that also has a label."""
    async def tag_flags(self, *,
        level: Literal["on", "off"] = ...,  # The level flag.
        **extra: Literal["on", "off"],
    ) -> Any:
        """Set flags, each on or off; the level is also a flag."""
    async def whoami(self, **kwargs: Any) -> WhoamiOutput:
        """The signed-in account."""
        ...

tools: Tools
