// Renders the same tool list with json-schema-to-typescript (format: false)
// and, when it loads, Cloudflare's @cloudflare/codemode type generator, and
// prints the best milliseconds per full render of the list, as JSON.
// Usage: node compare.mjs FILE ROUNDS
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const [file, roundsText] = process.argv.slice(2);
const rounds = Math.max(1, Number(roundsText) || 1);
const tools = JSON.parse(readFileSync(file, "utf8")).tools;
const require = createRequire(import.meta.url);

async function best(render) {
  let best = Infinity;
  let bytes = 0;
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint();
    const text = await render();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
    bytes = text.length;
  }
  return { best_ms: best, bytes };
}

const out = { tools: tools.length };

// json-schema-to-typescript: one compile per schema (input and output),
// without prettier, as a Code Mode SDK generator built on it would do.
const { compile } = require("json-schema-to-typescript");
const options = { format: false, bannerComment: "", additionalProperties: false, strictIndexSignatures: false };
out["json-schema-to-typescript"] = await best(async () => {
  const parts = [];
  for (const tool of tools) {
    parts.push(await compile(structuredClone(tool.inputSchema), `${tool.name}_input`, options));
    if (tool.outputSchema) parts.push(await compile(structuredClone(tool.outputSchema), `${tool.name}_output`, options));
  }
  return parts.join("\n");
});

// @cloudflare/codemode: its main entry needs the Workers runtime, so load the
// bundled chunk that holds generateTypesFromJsonSchema.
try {
  // The package exports no ./package.json; find it next to this script.
  const dist = join(dirname(fileURLToPath(import.meta.url)), "node_modules", "@cloudflare", "codemode", "dist");
  const chunk = readdirSync(dist).find((f) => /^json-schema-types-.*\.js$/.test(f));
  const module = await import(join(dist, chunk));
  const generate = module.t;
  if (typeof generate !== "function") throw new Error("generateTypesFromJsonSchema not found in " + chunk);
  const descriptors = Object.fromEntries(tools.map((t) => [t.name, { description: t.description, inputSchema: t.inputSchema, outputSchema: t.outputSchema }]));
  out["@cloudflare/codemode"] = await best(async () => generate(structuredClone(descriptors)));
} catch (e) {
  out["@cloudflare/codemode"] = { error: String(e.message || e) };
}

console.log(JSON.stringify(out));
