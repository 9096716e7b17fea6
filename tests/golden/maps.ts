declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

type Dimmers = { level: number; [key: string]: "low" | "high" | number };

type Labelled = { label?: string };

type Lights = Switches & Zoned & { zone?: "on" | "off" };

type Preset = { preset: string };

type Showing = { label?: string; scene: string } | { room: string };

type Switches = { [key: string]: "on" | "off" };

type Zoned = { zone?: string };

declare const tools: {
  // The notes, each a line of text or a structured entry.
  notes(args?: { [key: string]: unknown }): Promise<{ entries: (string | { [key: string]: unknown })[] }>;
  // Replace the notes.
  save_notes(args: { entries: readonly (string | { [key: string]: unknown })[] }): Promise<unknown>;
  // Set a badge, as switches each on or off, whose label is text or a number.
  set_badge(args: { badge: Switches & ({ label: string } | { label: number }) & { label?: "on" | "off" } }): Promise<unknown>;
  // Set a dial: switches each on or off, of a kind that is on (with a label) or off.
  set_dial(args: { dial: Switches & ({ kind: "on"; label?: string } | { kind: "off" }) & { kind?: "on" | "off"; label?: "on" | "off" } }): Promise<unknown>;
  // Replace request headers and metadata.
  set_headers(args: { counts?: { [key: string]: unknown }; headers: { [key: string]: string }; labelled?: { primary: string; [key: string]: boolean | string }; meta?: { [key: string]: unknown }; sealed?: { [key: string]: never } }): Promise<unknown>;
  // Set the lights of a zone, each on or off, in a panel that also has a label.
  set_lights(args: { panel: Lights & Labelled & { label?: "on" | "off"; zone?: "on" | "off" } }): Promise<unknown>;
  // Set a mood, as switches each on or off or as dimmers each low or high at a level, with a label.
  set_mood(args: { mood: (Switches | Dimmers) & Labelled & { label?: "on" | "off" | "low" | "high" } }): Promise<unknown>;
  // Set a panel: switches each on or off, showing a scene (with a label) or a room.
  set_panel(args: { panel: Switches & Showing & { label?: "on" | "off"; room?: "on" | "off"; scene?: "on" | "off" } }): Promise<unknown>;
  // Set a scene, as switches each on or off or as a named preset, with a label.
  set_scene(args: { scene: (Switches | Preset) & Labelled }): Promise<unknown>;
  // Set switches, each on or off, in a panel that also has a label.
  set_switches(args: { panel: Switches & Labelled & { label?: "on" | "off" } }): Promise<unknown>;
  // Set flags, each on or off; the level is also a flag.
  tag_flags(args: { level?: "on" | "off"; [key: string]: "on" | "off" | undefined } & {
    level?: string; // The level flag.
  }): Promise<unknown>;
  // The signed-in account.
  whoami(args?: { [key: string]: unknown }): Promise<{ account: { id: number; name: string } }>;
};
