// expect: TS2322
// `is_dst` is a boolean in the server's output schema.
async function main() {
  const converted = await tools.convert_time({ source_timezone: "Etc/UTC", target_timezone: "Asia/Tokyo", time: "12:00" });
  const dst: string = converted.target.is_dst;
  return dst;
}
