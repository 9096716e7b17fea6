// expect: TS2345
// `text` is required.
async function main() {
  await tools.slack_post_message({ channel_id: "C0123" });
}
