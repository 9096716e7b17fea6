"""Typed stubs of the tools a Code Mode program can call.

These declarations are static stubs: nothing here runs. At run time exactly
two names are bound, `tools` and `ToolCallError`; the TypedDict classes below
do not exist then, so never call one: pass plain dict/list values, e.g.
`{"city": "Oslo"}`, not `FooArgs(city="Oslo")`.

Every call is awaited: `await tools.name(args)`. A tool listed as a
comment (its name is not an identifier, or is one the types here use)
is called as `await tools["its-name"](args)`. A failed call raises
ToolCallError (`.toolName`, `.kind`).
"""
from __future__ import annotations
from typing import Literal, NotRequired, Protocol, TypeAlias, TypedDict

class ToolCallError(Exception):
    """Raised by a failed tool call."""
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Address(TypedDict):
    """Where a parcel goes."""
    country: Country
    postcode: NotRequired[str | None]  # Postal code, if the country uses them.
    street: str

class Category(TypedDict):
    """A category tree."""
    children: list[Category]
    name: str

# ISO country, externally tagged (serde's default).
Country: TypeAlias = 'Literal["Norway", "Chile"] | CountryOther'

class CountryOther(TypedDict):
    Other: str

# Adjacently tagged.
Payment: TypeAlias = 'PaymentCard | PaymentInvoice'

class PaymentCard(TypedDict):
    c: str
    t: Literal["Card"]

class PaymentInvoice(TypedDict):
    c: PaymentInvoiceC
    t: Literal["Invoice"]

class PaymentInvoiceC(TypedDict):
    due_days: int  # @format uint16 @minimum 0 @maximum 65535

# Untagged.
Quantity: TypeAlias = 'int | QuantityGrams'

class QuantityGrams(TypedDict):
    grams: float

class ShipArgs(TypedDict):
    category: NotRequired[Category | None]
    dimensions: tuple[float, float, float]
    labels: dict[str, str]  # Extra label lines.
    payment: Payment
    quantity: Quantity
    shipping: Shipping
    to: Address
    weights: dict[str, list[int | None]]

class ShipOutput(TypedDict):
    eta: NotRequired[tuple[int, int, int] | None]
    tracking: str

# Internally tagged.
Shipping: TypeAlias = 'ShippingStandard | ShippingExpress'

class ShippingExpress(TypedDict):
    days: int  # @format uint8 @minimum 0 @maximum 255
    kind: Literal["express"]

class ShippingStandard(TypedDict):
    kind: Literal["standard"]

class Tools(Protocol):
    async def ship(self, args: ShipArgs) -> ShipOutput:
        """Ship an order."""
        ...

tools: Tools
