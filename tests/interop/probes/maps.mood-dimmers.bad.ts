// expect: TS2322
// No choice takes this label: a dimmer's keys are low or high, a switch's on or off.
async function main() {
  await tools.set_mood({ mood: { level: 3, label: "dim" } });
}
