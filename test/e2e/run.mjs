// npm run test:e2e: the extension and its server in real editors, one part after another (they share two
// cores and Chromium), each installing what it needs into the cache first. Prints "N passed, N failed" for
// all checks together and exits 1 if any failed or a part could not report.
//   node test/e2e/run.mjs [part...]    parts: neovim, emacs, vscode (the suite in VS Code for the Web), code-server,
//                                      pre-commit (the real pre-commit, and the packed CLI installed globally),
//                                      mcp (lwir mcp driven by the MCP Inspector's command-line mode) (default: all)
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ARTIFACTS, ROOT } from "./lib.mjs";

const PARTS = ["neovim", "emacs", "vscode", "code-server", "pre-commit", "mcp"];
const asked = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const unknown = asked.filter((p) => !PARTS.includes(p));
if (unknown.length > 0) {
  console.error(`unknown part(s): ${unknown.join(", ")}; parts: ${PARTS.join(", ")}`);
  process.exit(2);
}
const parts = asked.length > 0 ? asked : PARTS;
if (!existsSync(join(ROOT, "dist", "server.js"))) {
  console.error("dist/ is missing: run `npm run build` first (npm run test:e2e does)");
  process.exit(2);
}

const started = Date.now();
let passed = 0;
let failed = 0;
const summary = [];
for (const part of parts) {
  const resultsFile = join(ARTIFACTS, `${part}.results.json`);
  rmSync(resultsFile, { force: true });
  const t0 = Date.now();
  console.log(`\n[e2e] ${part}`);
  const r = spawnSync(process.execPath, [join(ROOT, "test", "e2e", part, "run.mjs")], { stdio: "inherit", cwd: ROOT });
  let results = [];
  try {
    results = JSON.parse(readFileSync(resultsFile, "utf8"));
  } catch {
    results = [{ name: `${part} reported no results`, ok: false }];
  }
  if (r.status !== 0 && results.every((x) => x.ok)) results.push({ name: `${part} exited with ${r.status ?? r.signal}`, ok: false });
  const ok = results.filter((x) => x.ok).length;
  passed += ok;
  failed += results.length - ok;
  summary.push(`  ${part}: ${ok} passed, ${results.length - ok} failed (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  for (const x of results.filter((x) => !x.ok)) summary.push(`    ✗ ${x.name}${x.error ? `: ${x.error.split("\n")[0]}` : ""}`);
}
console.log(`\n[e2e] ${((Date.now() - started) / 1000).toFixed(0)} s\n${summary.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
