// expect: TS2322
// The switches give the label its values: "dim" is not one.
async function main() {
  await tools.set_dial({ dial: { kind: "on", label: "dim" } });
}
