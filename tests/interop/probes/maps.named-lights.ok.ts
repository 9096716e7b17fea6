// A key one member lists keeps the literals that a member inside another
// named allOf gives every key.
async function main() {
  await tools.set_lights({ panel: { label: "on", zone: "off", hall: "on" } });
}
