# expect: arg-type
async def main() -> None:
    await tools.ship(
        to={"street": "x", "country": "Norway"}, shipping={"kind": "standard"}, payment={"t": "Card", "c": "1234"},
        quantity=1, labels={}, dimensions=(1.0, 2.0), weights={},
    )
