from __future__ import annotations
from typing import Literal, Mapping, NotRequired, Protocol, Sequence, TypeAlias, TypedDict
from typing_extensions import ReadOnly

class ToolCallError(Exception):
    toolName: str
    kind: Literal["unknown_tool", "invalid_arguments", "tool_failed", "tool_panicked", "timeout", "invalid_result", "denied", "unavailable", "server_error"]

class Address(TypedDict):
    """Where a parcel goes."""
    country: ReadOnly[Country]
    postcode: NotRequired[ReadOnly[str | None]]  # Postal code, if the country uses them.
    street: ReadOnly[str]

class Category(TypedDict):
    """A category tree."""
    children: ReadOnly[Sequence[Category]]
    name: ReadOnly[str]

# ISO country, externally tagged (serde's default).
# "Norway": Ships from Oslo.
Country: TypeAlias = 'Literal["Chile", "Norway"] | CountryOther'

class CountryOther(TypedDict):
    Other: ReadOnly[str]

# Adjacently tagged.
Payment: TypeAlias = 'PaymentCard | PaymentInvoice'

class PaymentCard(TypedDict):
    c: ReadOnly[str]
    t: ReadOnly[Literal["Card"]]

class PaymentInvoice(TypedDict):
    c: ReadOnly[PaymentInvoiceC]
    t: ReadOnly[Literal["Invoice"]]

class PaymentInvoiceC(TypedDict):
    due_days: ReadOnly[int]  # @format uint16

# Untagged.
Quantity: TypeAlias = 'int | QuantityGrams'

class QuantityGrams(TypedDict):
    grams: ReadOnly[float]

class ShipOutput(TypedDict):
    eta: NotRequired[tuple[int, int, int] | None]
    tracking: str

# Internally tagged.
Shipping: TypeAlias = 'ShippingStandard | ShippingExpress'

class ShippingExpress(TypedDict):
    days: ReadOnly[int]  # @format uint8
    kind: ReadOnly[Literal["express"]]

class ShippingStandard(TypedDict):
    kind: ReadOnly[Literal["standard"]]

class Tools(Protocol):
    async def ship(self, *,
        category: Category | None = ...,
        dimensions: tuple[float, float, float],
        labels: dict[str, str],  # Extra label lines.
        payment: Payment,
        quantity: Quantity,
        shipping: Shipping,
        to: Address,
        weights: Mapping[str, Sequence[int | None]],
    ) -> ShipOutput:
        """Ship an order."""
        ...

tools: Tools
