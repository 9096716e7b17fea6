declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

// @format uuid
type AB = string;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

type LocationType = { lat: number; lon: number };

type NestedFilterArgs = { and?: NestedFilterArgs[]; escaped?: AB; field?: string; location?: LocationType };

type Path = string[];

// A node and its children.
type Tree = { children: Tree[]; value: number };

declare const tools: {
  // A filter that refers to itself through the root.
  nested_filter(args?: NestedFilterArgs): Promise<unknown>;
  // Insert a value into a tree.
  tree_insert(args: { at?: Path; tree: Tree; value: Json }): Promise<Tree>;
};
