// expect: TS2322
// The switches give the label its values: a number is not one.
async function main() {
  await tools.set_panel({ panel: { room: "on", label: 3 } });
}
