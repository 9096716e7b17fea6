// A branch that is a `$ref` may name keys the SDK does not read, so the
// object admits them.
async function main(): Promise<void> {
  await tools.notify({ channel: "sms", number: "+15550100" });
  await tools.notify({ channel: "mail" });
}
