// Runs chosen test files quickly without compiling the whole project: each is bundled with esbuild
// into a temporary folder and run with node's test runner. `npm test` compiles everything with tsc.
//   node scripts/run-test.mjs test/unit/expressions.test.ts [more...] [--test-name-pattern=REGEX]
// (options starting with -- go to node's test runner)
import { build } from "esbuild";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, basename } from "node:path";
import { spawnSync } from "node:child_process";

const files = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const options = process.argv.slice(2).filter((a) => a.startsWith("--"));
const dir = mkdtempSync(join(tmpdir(), "lwir-test-"));
const outs = [];
for (const [i, f] of files.entries()) {
  const outfile = join(dir, `${i}-${basename(f).replace(/\.ts$/, ".js")}`);
  await build({ entryPoints: [f], bundle: true, platform: "node", format: "cjs", target: "node20", outfile, mainFields: ["module", "main"],
    sourcemap: "inline", logLevel: "warning" });
  outs.push(outfile);
}
const r = spawnSync(process.execPath, ["--enable-source-maps", "--test", "--test-reporter=spec", ...options, ...outs], { stdio: "inherit", cwd: process.cwd() });
process.exit(r.status ?? 1);
