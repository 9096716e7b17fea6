declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

type User = {
  id: string;
  name: string; // Display name
};

declare const tools: {
  // One user.
  "get_user"(args: { id: string }): Promise<User>;
  // Every user.
  "list_users"(args?: { [key: string]: unknown }): Promise<{ users: User[] }>;
  // Renames a user and returns it.
  "rename_user"(args: { user: User }): Promise<User>;
};
