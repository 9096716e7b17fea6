// A result's object passed where a tool takes any object.
async function main() {
  const me = await tools.whoami();
  await tools.set_headers({ headers: {}, meta: me.account });
}
