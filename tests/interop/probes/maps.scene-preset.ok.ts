// The preset choice takes any label.
async function main() {
  await tools.set_scene({ scene: { preset: "evening", label: "hall" } });
}
