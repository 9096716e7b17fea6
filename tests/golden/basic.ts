declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Say hello to someone.
  greet(args: {
    loud?: boolean;
    name: string; // Who to greet.
    times?: number; // @minimum 1 @default 1
  }): Promise<{ message: string }>;
  ping(args?: { [key: string]: unknown }): Promise<unknown>;
};
