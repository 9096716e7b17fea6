// expect: TS2322
// A listed flag holds only the flags' values.
async function main() {
  await tools.tag_flags({ level: "loud" });
}
