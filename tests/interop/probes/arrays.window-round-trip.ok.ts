// One tool's result passed back as another's argument, a key more and all.
async function main() {
  const seen = await tools.view();
  await tools.zoom({ window: seen.window });
}
