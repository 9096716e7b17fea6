# The result's type comes from the server's output schema.
async def main() -> str:
    converted = await tools.convert_time(source_timezone="Etc/UTC", target_timezone="Asia/Tokyo", time="12:00")
    dst: bool = converted["target"]["is_dst"]
    now = await tools.get_current_time(timezone="Europe/Paris")
    return now["day_of_week"] + converted["time_difference"] + str(dst)
