// Runs the compiled test files (out/test/**/*.test.js) with node's test runner; Node 20's --test does not
// expand glob patterns itself. With no argument every folder but out/test/robust runs (`npm test`); with
// folder arguments (e.g. `out/test/robust`) only those run (`npm run test:robust`). Other arguments starting
// with `--` go to node's test runner.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

function find(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? find(full) : name.endsWith(".test.js") ? [full] : [];
  });
}
const args = process.argv.slice(2);
const options = args.filter((a) => a.startsWith("--"));
const folders = args.filter((a) => !a.startsWith("--"));
const files = folders.length > 0
  ? folders.flatMap((f) => (existsSync(f) ? find(f) : []))
  : find("out/test").filter((f) => !f.startsWith(join("out", "test", "robust")));
if (files.length === 0) {
  console.error(`no test files found in ${folders.join(", ") || "out/test"}`);
  process.exit(1);
}
// Tests may leave figures (JSON objects) in LWIR_FIGURES_DIR (test/robust does): printed together at the end.
const figuresDir = join("out", "figures");
rmSync(figuresDir, { recursive: true, force: true });
const started = Date.now();
const r = spawnSync(process.execPath, ["--enable-source-maps", "--test", "--test-reporter=spec", ...options, ...files], {
  stdio: "inherit",
  env: { ...process.env, LWIR_FIGURES_DIR: figuresDir },
});
if (existsSync(figuresDir)) {
  console.log(`\nfigures (${((Date.now() - started) / 1000).toFixed(0)} s in all):`);
  for (const name of readdirSync(figuresDir).sort()) {
    const figures = JSON.parse(readFileSync(join(figuresDir, name), "utf8"));
    console.log(`  ${name.replace(/\.json$/, "")}: ${Object.entries(figures).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  }
}
process.exit(r.status ?? 1);
