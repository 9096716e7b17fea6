// expect: TS2353
async function main(): Promise<void> {
  await tools["send_notification"]({ target: { kind: "user", channel: "ops" }, text: "hi" });
}
