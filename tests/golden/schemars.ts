declare class ToolCallError extends Error { readonly toolName: string; readonly kind: "unknown_tool" | "invalid_arguments" | "tool_failed" | "tool_panicked" | "timeout" | "invalid_result" | "denied" | "unavailable" | "server_error" }

// Where a parcel goes.
type Address = {
  country: Country;
  postcode?: string | null; // Postal code, if the country uses them.
  street: string;
};

// A category tree.
type Category = { children: readonly Category[]; name: string };

/**
ISO country, externally tagged (serde's default).
"Norway": Ships from Oslo.
 */
type Country = "Chile" | "Norway" | { Other: string };

// Adjacently tagged.
type Payment = { c: string; t: "Card" } | { c: {
  due_days: number; // @format uint16
}; t: "Invoice" };

// Untagged.
type Quantity = number | { grams: number };

// Internally tagged.
type Shipping = { kind: "standard" } | {
  days: number; // @format uint8
  kind: "express";
};

declare const tools: {
  // Ship an order.
  ship(args: {
    category?: Category | null;
    dimensions: readonly [number, number, number];
    labels: { [key: string]: string }; // Extra label lines.
    payment: Payment;
    quantity: Quantity;
    shipping: Shipping;
    to: Address;
    weights: { [key: string]: readonly (number | null)[] };
  }): Promise<{ eta?: [number, number, number] | null; tracking: string }>;
};
