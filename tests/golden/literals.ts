declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Switch the thermostat mode.
  set_mode(args: { confirm: true; level?: 1 | 2 | 3 | null; mode: "heat" | "cool" | "off"; quote?: "it's \"quoted\" \\ here"; ratio?: 0.5 | 1 }): Promise<unknown>;
};
