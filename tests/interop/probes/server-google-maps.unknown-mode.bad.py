# expect: arg-type
# expect-pyright: reportArgumentType
# The travel mode is one of four words.
async def main() -> None:
    await tools.maps_distance_matrix(origins=["Paris"], destinations=["Lyon"], mode="flying")
