declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Schemas the renderer cannot fully express.
  broken(args: { bad_enum?: unknown; bad_items?: readonly unknown[]; bad_props?: unknown; bad_required?: unknown; fine: string; missing?: unknown; number_schema?: unknown; object_enum?: unknown; remote?: unknown; unknown_type?: unknown }): Promise<unknown>;
};
