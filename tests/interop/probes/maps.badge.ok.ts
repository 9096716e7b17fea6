// A label every choice lists keeps the switches' values.
async function main() {
  await tools.set_badge({ badge: { label: "on", hall: "off" } });
}
