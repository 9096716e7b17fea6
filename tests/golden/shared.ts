declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

type User = {
  id: string;
  name: string; // Display name
};

declare const tools: {
  // One user.
  get_user(args: { id: string }): Promise<User>;
  // Every user.
  list_users(args?: { [key: string]: unknown }): Promise<{ users: User[] }>;
  // Reads a note.
  read_note(args: { path: string }): Promise<{ content: string }>;
  // Renames a user and returns it.
  rename_user(args: { user: User }): Promise<User>;
  // Sizes a note.
  stat_note(args: { path: string }): Promise<{ content: string }>;
  // Tags a note; its path is described, so its arguments are a class of their own.
  tag_note(args: {
    path: string; // Where the note is
  }): Promise<{ tags: { content: string }[] }>;
};
