declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Send a notification to a channel or a user.
  notify(args: { body: string | readonly string[]; target: { id: string; kind: "channel" } | {
    email: string; // @format email
    kind: "user";
  }; thread?: string | null }): Promise<{
    sent_at: string; // @format date-time
  } | null>;
};
