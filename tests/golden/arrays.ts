declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

declare const tools: {
  // Center the plot on a point.
  center_on(args: { point: { x: number; y: number } }): Promise<unknown>;
  // Where the cursor is, in whole pixels.
  cursor(args?: { [key: string]: unknown }): Promise<{ at: { x: number; y: number } }>;
  // The plot's extent along x: where it starts, and where it ends when it has an end.
  extent(args?: { [key: string]: unknown }): Promise<{ span: [number] | [number, number] }>;
  // The plot's marks, with where each one sits.
  marks(args?: { [key: string]: unknown }): Promise<{ marks: { at: string; label: string; size: number }[] }>;
  // Pin marks to the plot by their labels, each where it says or at the top.
  pin(args: { marks: readonly { at?: string; label: string }[] }): Promise<unknown>;
  // Plot points and labelled series.
  plot(args: { empty?: readonly []; points: readonly (readonly [number, number])[]; range?: readonly [number] | readonly [number, number]; series?: readonly (readonly (number | null)[])[]; tags?: readonly [string, ...number[]] }): Promise<string[]>;
  // Show several windows side by side.
  tile(args: { windows: readonly { bounds: readonly number[] }[] }): Promise<unknown>;
  // The plot's window.
  view(args?: { [key: string]: never }): Promise<{ window: { bounds: number[]; label: string } }>;
  // Zoom the plot to a window.
  zoom(args: { window: { bounds: readonly number[]; label?: string } }): Promise<unknown>;
};
