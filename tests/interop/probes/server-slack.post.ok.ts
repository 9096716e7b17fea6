async function main() {
  await tools.slack_post_message({ channel_id: "C0123", text: "deployed" });
  await tools.slack_get_thread_replies({ channel_id: "C0123", thread_ts: "1700000000.000100" });
}
