// The CLI on many small files (issue 16): the conformance corpus (test/corpus/conformance, its LWIR files
// only) copied 8 times into one folder, then one `lwir validate` process on the whole folder, spawn → exit,
// start-up included, its output read through a pipe as CI reads it. Default text output and
// `--format json`. The floor, interleaved round by round, is a process that reads and parses the same
// files without positions (cli-many-floor.mjs: readFileSync + JSON.parse or `yaml`'s parse), start-up
// included. Figures are per file; the ratio is CLI / floor per round.
//   --cli FILE   the CLI bundle to run (default dist/cli.js); run.mjs passes its production build too
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { args, emit, interleave, round, summarize } from "../lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const a = args();
const COPIES = 8;
const corpus = join(root, "test", "corpus", "conformance");
const folder = join(root, "bench", "tmp", "cli-many");
const cliFiles = String(a.raw.cli ?? join(root, "dist", "cli.js")).split(",");

const names = readdirSync(corpus).filter((n) => /\.lwir\.(json|ya?ml)$/.test(n));
const expected = names.length * COPIES;
// (Re)made when missing or stale: the corpus may have grown since the last run.
if (!existsSync(folder) || countFiles(folder) !== expected) {
  rmSync(folder, { recursive: true, force: true });
  for (let c = 1; c <= COPIES; c++) {
    const copy = join(folder, `copy-${c}`);
    mkdirSync(copy, { recursive: true });
    for (const n of names) cpSync(join(corpus, n), join(copy, n));
  }
}

function countFiles(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? countFiles(join(dir, e.name)) : /\.lwir\.(json|ya?ml)$/.test(e.name) ? 1 : 0;
  return n;
}

/** Spawn → exit of `node script ...argv`, stdout drained through a pipe; resolves with [ms, stdout bytes, exit code]. */
function run(script, argv) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script, ...argv], { cwd: root, stdio: ["ignore", "pipe", "ignore"] });
    let bytes = 0;
    let head = "";
    child.stdout.on("data", (d) => {
      if (bytes === 0) head = String(d).slice(0, 20);
      bytes += d.length;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - started, bytes, code, head }));
  });
}

const outputs = {};
const subjects = {};
for (const cli of cliFiles) {
  for (const format of ["text", "json"]) {
    const bundle = cli.includes(join("bench", "tmp", "prod")) ? "production bundle, minified" : cli.slice(root.length + 1);
    const key = `${bundle}|${format}`;
    subjects[key] = async () => {
      const r = await run(cli, ["validate", "--format", format, folder]);
      // 1: the corpus holds invalid cases; anything else (2: files it could not check) is a broken run
      if (r.code !== 1) throw new Error(`${cli} validate --format ${format} exited ${r.code}`);
      outputs[key] = r.bytes;
      return r.ms;
    };
  }
}
let floorFiles = 0;
const { results, floorSamples } = await interleave({
  warmup: Math.min(a.warmup, 2),
  iterations: a.iterations,
  subjects,
  floor: async () => {
    const r = await run(join(here, "cli-many-floor.mjs"), [folder]);
    floorFiles = Number(r.head.trim());
    if (r.code !== 0 || floorFiles !== expected) throw new Error(`cli-many-floor.mjs read ${r.head.trim()} files (exit ${r.code}), expected ${expected}`);
    return r.ms;
  },
});

const perFile = (v) => v.map((ms) => ms / expected);
const FLOOR_NAME = "read + parse without positions (own process)";
const out = [];
for (const [key, samples] of Object.entries(results)) {
  const [bundle, format] = key.split("|");
  const s = summarize(`lwir validate ${format === "json" ? "--format json" : "(text)"}, per file`, `ours CLI (${bundle})`, "mixed", expected, perFile(samples), FLOOR_NAME, perFile(floorSamples), {
    group: "startup",
    files: expected,
    total_ms: round(samples.slice().sort((x, y) => x - y)[Math.floor(samples.length / 2)]),
    output_bytes: outputs[key],
  });
  out.push(s);
}
out.push(summarize("read + parse without positions, per file", "floor", "mixed", expected, perFile(floorSamples), FLOOR_NAME, perFile(floorSamples), { group: "startup", files: floorFiles }));
emit(out);
