// expect: TS2322
// A review comment gives a position in the diff or a line, not both: each
// shape of the union is closed.
async function main() {
  await tools.create_pull_request_review({
    owner: "o", repo: "r", pull_number: 1, body: "b", event: "COMMENT",
    comments: [{ path: "src/lib.rs", position: 4, line: 12, body: "nit" }],
  });
}
