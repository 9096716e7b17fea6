declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Plot points and labelled series.
  plot(args: { empty?: []; points: [number, number][]; range?: [number, number?]; series?: (number | null)[][]; tags?: [string, ...number[]] }): Promise<string[]>;
  // Show several windows side by side.
  tile(args: { windows: { bounds: number[] }[] }): Promise<unknown>;
  // The plot's window.
  view(args?: { [key: string]: never }): Promise<{ window: { bounds: number[]; label: string } }>;
  // Zoom the plot to a window.
  zoom(args: { window: { bounds: number[]; label?: string } }): Promise<unknown>;
};
