// expect: TS2345
async function main(): Promise<void> {
  await catalog.describe("get_weather");
}
