// expect: TS2322
// The enum's number is not a string, so no member admits it.
async function main() {
  await tools.measure({ count: 3, unit: 3 });
}
