// Lists a program declared read-only, passed where a tool only reads them.
async function main() {
  const bounds = [0, 0, 640, 480] as const;
  const corners: readonly (readonly [number, number])[] = [[0, 0], [640, 480]];
  const range = [0, 10] as const;
  const windows = [{ bounds }, { bounds: [1, 2] }] as const;
  await tools.zoom({ window: { bounds } });
  await tools.tile({ windows });
  await tools.plot({ points: corners, range });
  // A result's list stays one the program may change.
  const seen = await tools.view();
  seen.window.bounds.push(1);
}
