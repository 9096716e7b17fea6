// expect: TS2322
// `raw` is a boolean.
async function main() {
  await tools.fetch({ url: "https://example.com", raw: "yes" });
}
