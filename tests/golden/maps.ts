declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Replace request headers and metadata.
  set_headers(args: { counts?: { [key: string]: unknown }; headers: { [key: string]: string }; labelled?: { primary: string; [key: string]: boolean | string }; meta?: { [key: string]: unknown }; sealed?: { [key: string]: never } }): Promise<unknown>;
  // The signed-in account.
  whoami(args?: { [key: string]: unknown }): Promise<{ account: { id: number; name: string } }>;
};
