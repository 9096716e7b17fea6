// The Python reference servers declare output schemas; the SDK types the
// result, so a program reads it without casts.
async function main() {
  const converted = await tools.convert_time({ source_timezone: "Etc/UTC", target_timezone: "Asia/Tokyo", time: "12:00" });
  const dst: boolean = converted.target.is_dst;
  const now = await tools.get_current_time({ timezone: "Europe/Paris" });
  return [dst, converted.time_difference.length, now.day_of_week.toUpperCase()];
}
