// A list of one tool's result objects, each with a key more, passed to
// another tool that only reads the keys it names.
async function main() {
  const seen = await tools.marks();
  await tools.pin({ marks: seen.marks });
  await tools.pin({ marks: [{ label: "peak" }] });
}
