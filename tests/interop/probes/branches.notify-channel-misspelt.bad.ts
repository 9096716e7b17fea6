// expect: TS2322
// The object's own keys keep their types.
async function main(): Promise<void> {
  await tools.notify({ channel: "fax" });
}
