// Runs the TextMate grammar fixtures in test/grammar/ (vscode-tmgrammar-test format) against the host
// grammars from tm-grammars (JSON, YAML) plus the LWIR expression grammar and its injections.
//   node scripts/test-grammars.mjs [fixture files...]
// Prints each failed assertion and a summary `grammar: N passed, N failed` (N counts single ^ assertions).
import { createRequire } from "node:module";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";

const require = createRequire(import.meta.url);
const root = process.cwd();
const { createRegistry } = require("vscode-tmgrammar-test/dist/common/index.js");
const { parseGrammarTestCase, runGrammarTestCase } = require("vscode-tmgrammar-test/dist/unit/index.js");

const hosts = [
  { scopeName: "source.json", path: "node_modules/tm-grammars/grammars/json.json" },
  { scopeName: "source.yaml", path: "node_modules/tm-grammars/grammars/yaml.json" },
];
// Same entries as the contributes.grammars snippet for package.json; used when package.json has none.
const builtIn = [
  { scopeName: "source.lwir-expression", path: "./syntaxes/lwir-expression.tmLanguage.json" },
  { scopeName: "lwir.injection.json", path: "./syntaxes/lwir-json.injection.tmLanguage.json", injectTo: ["source.json"] },
  { scopeName: "lwir.injection.yaml", path: "./syntaxes/lwir-yaml.injection.tmLanguage.json", injectTo: ["source.yaml"] },
  { scopeName: "lwir.injection.yaml-double", path: "./syntaxes/lwir-yaml-double.injection.tmLanguage.json", injectTo: ["source.yaml"] },
  { scopeName: "lwir.injection.yaml-single", path: "./syntaxes/lwir-yaml-single.injection.tmLanguage.json", injectTo: ["source.yaml"] },
];

function ourGrammars() {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const contributed = (pkg.contributes?.grammars ?? []).filter((g) => /(^|\/)syntaxes\//.test(g.path ?? ""));
  if (contributed.length === 0) {
    console.log("(package.json contributes no LWIR grammars yet; using the built-in list)");
    return builtIn;
  }
  return contributed.map((g) => ({ scopeName: g.scopeName, path: g.path, injectTo: g.injectTo }));
}

const grammars = [...hosts, ...ourGrammars()].map((g) => ({ ...g, path: resolve(root, g.path) }));
for (const g of grammars) if (!existsSync(g.path)) { console.error(`missing grammar file ${g.path}`); process.exit(1); }
const registry = createRegistry(grammars);

const dir = join(root, "test/grammar");
const files = process.argv.length > 2
  ? process.argv.slice(2)
  : readdirSync(dir).filter((f) => /\.test\.(json|ya?ml)$/.test(f)).sort().map((f) => join("test/grammar", f));
if (files.length === 0) { console.error("no grammar fixtures found"); process.exit(1); }

let passed = 0;
let failed = 0;
for (const file of files) {
  let tc;
  try {
    tc = parseGrammarTestCase(readFileSync(resolve(root, file), "utf8"));
  } catch (e) {
    failed++;
    console.log(`FAIL ${file}: cannot parse fixture: ${e.message}`);
    continue;
  }
  // Count single assertions: when the file has failures, run each assertion on its own to tell which.
  const count = tc.assertions.reduce((n, l) => n + l.scopeAssertions.length, 0);
  let whole;
  try { whole = await runGrammarTestCase(registry, tc); } catch { whole = null; }
  let ok = 0;
  let bad = 0;
  if (whole && whole.length === 0) ok = count;
  else for (const line of tc.assertions) {
    for (const a of line.scopeAssertions) {
      let failures;
      try {
        failures = await runGrammarTestCase(registry, { ...tc, assertions: [{ ...line, scopeAssertions: [a] }] });
      } catch (e) {
        failures = [{ error: e.message }];
      }
      if (failures.length === 0) { ok++; continue; }
      bad++;
      const src = tc.source[line.sourceLineNumber] ?? "";
      const want = `${a.scopes.join(" ")}${a.exclude.length ? ` - ${a.exclude.join(" ")}` : ""}`;
      console.log(`FAIL ${file}:${line.testCaseLineNumber + 1}:${a.from + 1} ${JSON.stringify(src.slice(a.from, a.to))} expected [${want}]`);
      for (const f of failures) {
        if (f.error) { console.log(`     error: ${f.error}`); continue; }
        console.log(`     token ${JSON.stringify(src.slice(f.start, f.end))}: actual [${f.actual.join(" ")}]`);
      }
    }
  }
  passed += ok;
  failed += bad;
  console.log(`${bad ? "FAIL" : "ok  "} ${file} (${ok}/${ok + bad})`);
}
console.log(`grammar: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
