// A key one choice of a tagged union lists keeps the switches' values.
async function main() {
  await tools.set_dial({ dial: { kind: "on", label: "on" } });
  await tools.set_dial({ dial: { kind: "off", label: "off" } });
}
