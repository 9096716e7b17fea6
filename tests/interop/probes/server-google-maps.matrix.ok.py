async def main() -> None:
    await tools.maps_distance_matrix(origins=["Paris"], destinations=["Lyon", "Nice"], mode="transit")
    await tools.maps_elevation(locations=[{"latitude": 48.85, "longitude": 2.35}])
