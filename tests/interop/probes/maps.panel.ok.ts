// The union a named type spells, read beside the switches, closes no key:
// a room may carry a label, since the switches admit any key.
async function main() {
  await tools.set_panel({ panel: { room: "on", label: "off" } });
  await tools.set_panel({ panel: { scene: "off", label: "on" } });
}
