// Members of scalar types meet: an integer that is a number is an integer,
// and an enum's strings that are strings are those strings.
async function main() {
  await tools.measure({ count: 3, unit: "cm" });
  await tools.measure({ count: 0, unit: "in", scale: null });
  await tools.measure({ count: 1, unit: "cm", scale: 0.5 });
}
