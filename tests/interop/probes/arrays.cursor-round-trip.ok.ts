// One tool's result object passed whole to another tool that only reads it.
async function main() {
  const here = await tools.cursor();
  await tools.center_on({ point: here.at });
  await tools.center_on({ point: { x: 0.5, y: 2 } });
}
