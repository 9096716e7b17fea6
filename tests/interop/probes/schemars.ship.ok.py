async def main() -> None:
    out = await tools.ship(
        to={"street": "Storgata 1", "postcode": None, "country": {"Other": "Iceland"}},
        shipping={"kind": "express", "days": 2},
        payment={"t": "Invoice", "c": {"due_days": 30}},
        quantity={"grams": 250.5},
        labels={"gift": "yes"},
        dimensions=(1.0, 2.0, 3.0),
        category={"name": "books", "children": [{"name": "poetry", "children": []}]},
        weights={"a": [1, None]},
    )
    eta = out.get("eta")
    if eta is not None:
        print(eta[0], out["tracking"])
