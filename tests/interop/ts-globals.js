// Prints every global name the pinned TypeScript lib files declare, sorted, one per line:
// the list codemode-core keeps in src/ident/ts_globals.txt.
const ts = require("typescript");
const fs = require("fs");
const path = require("path");
const dir = path.dirname(require.resolve("typescript/lib/lib.d.ts"));
const names = new Set();
for (const f of fs.readdirSync(dir)) {
  if (!/^lib\..*\.d\.ts$/.test(f)) continue;
  const sf = ts.createSourceFile(f, fs.readFileSync(path.join(dir, f), "utf8"), ts.ScriptTarget.Latest);
  for (const st of sf.statements) {
    if (st.name && ts.isIdentifier(st.name)) names.add(st.name.text);
    if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
    if (ts.isModuleDeclaration(st) && st.name.text === "global") {}
  }
}
console.log([...names].sort().join("\n"));
