declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Send a notice by mail or by text message.
  notify(args: { channel: "mail" | "sms"; [key: string]: unknown }): Promise<unknown>;
  // Ship an order by courier or by post.
  ship(args: {
    mode: "courier" | "post";
    slot?: string; // Delivery window.
    tracked?: boolean;
    weight?: 1 | 5;
  }): Promise<unknown>;
  // Attach labels to an item.
  tag(args: { item: number; [key: string]: unknown }): Promise<unknown>;
};
