async function main() {
  await tools.create_pull_request_review({
    owner: "o", repo: "r", pull_number: 1, body: "b", event: "COMMENT",
    comments: [{ path: "src/lib.rs", position: 4, body: "nit" }, { path: "src/lib.rs", line: 12, body: "typo" }],
  });
}
