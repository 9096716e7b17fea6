// A dimmer's label is one of its levels, as every other key of a dimmer is.
async function main() {
  await tools.set_mood({ mood: { level: 3, label: "low" } });
  await tools.set_mood({ mood: { hall: "on", label: "off" } });
}
