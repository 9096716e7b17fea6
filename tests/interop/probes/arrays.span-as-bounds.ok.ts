// A tuple whose second number may be missing is a list of numbers, so a
// result's span passes for `bounds` and for `range`, and its items read as
// numbers (a JSON array holds no `undefined`).
async function main() {
  const { span } = await tools.extent();
  await tools.zoom({ window: { bounds: span } });
  await tools.plot({ points: [], range: span });
  const total: number = span.reduce((a, b) => a + b, 0);
  return total;
}
