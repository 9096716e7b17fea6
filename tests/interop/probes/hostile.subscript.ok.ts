async function main(): Promise<void> {
  await tools["class"]({ class: "x", from: 1 });
  await tools["*/ end comment"]({ "*/": "y" });
  await tools["line\u2028sep\u2029para"]({ "\u2028": "\u2029" });
  await tools["get_weather"]();
}
