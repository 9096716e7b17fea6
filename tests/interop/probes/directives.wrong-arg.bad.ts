// expect: TS2322
async function main(): Promise<void> {
  await tools.annotate({ note: 1 });
}
