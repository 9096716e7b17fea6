// expect: TS2322
async function main(): Promise<void> {
  await tools["update_ticket"]({ id: 1, status: { state: "closed", resolution: "solved" } });
}
