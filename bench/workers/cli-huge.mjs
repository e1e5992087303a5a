// The CLI on one huge workflow (issue 23): `lwir validate` on a 20,000+ step document, spawn → exit, as CI
// runs it. The same workflow three ways: JSON (the floor: the target is YAML within 3× of JSON), YAML as
// our generator writes it (one line per scalar), and YAML as a YAML writer writes it (`yaml`'s stringify:
// long text folded over lines, `>-` blocks, quoted text continued on the next lines), which is how a
// planner or a JSON → YAML conversion writes it. Each run's peak memory (VmHWM) is read before it exits.
//   --steps N   the workflow's size (run.mjs: 27,000, about 20 MB of YAML)
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { args, emit, interleave, median, require, round, summarize } from "../lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const a = args();
const cli = join(root, "dist", "cli.js");
const dir = join(root, "bench", "tmp", "cli-huge");
mkdirSync(dir, { recursive: true });

const files = {
  json: join(dir, `w-${a.steps}.lwir.json`),
  yaml: join(dir, `w-${a.steps}.lwir.yaml`),
  "yaml (as a YAML writer writes it)": join(dir, `w-${a.steps}-written.lwir.yaml`),
};
for (const [kind, file] of Object.entries(files).slice(0, 2)) {
  if (existsSync(file)) continue;
  const r = spawnSync(process.execPath, [join(root, "bench", "generate.mjs"), "--steps", String(a.steps), "--format", kind, "--seed", "1", "--out", file], { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`bench/generate.mjs failed (${r.status})`);
}
const written = files["yaml (as a YAML writer writes it)"];
if (!existsSync(written)) writeFileSync(written, require("yaml").stringify(JSON.parse(readFileSync(files.json, "utf8"))));

/** Spawn → exit of the CLI on one file; the child's peak resident memory is read from /proc while it runs. */
function run(file) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, "validate", "--format", "json", file], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let peak = 0;
    const poll = setInterval(() => {
      try {
        const kb = Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch {
        // the child has exited
      }
    }, 20);
    child.stdout.on("data", (d) => { out += d; });
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(poll);
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`lwir validate ${file} exited ${code}: ${out.slice(0, 300)}`));
      resolve({ ms, peakMb: peak / 1024 });
    });
  });
}

const peaks = Object.fromEntries(Object.keys(files).map((k) => [k, []]));
const subjects = {};
for (const [kind, file] of Object.entries(files).slice(1)) {
  subjects[kind] = async () => {
    const r = await run(file);
    peaks[kind].push(r.peakMb);
    return r.ms;
  };
}
const { results, floorSamples } = await interleave({
  warmup: Math.min(a.warmup, 1),
  iterations: a.iterations,
  subjects,
  floor: async () => {
    const r = await run(files.json);
    peaks.json.push(r.peakMb);
    return r.ms;
  },
});

const FLOOR_NAME = "lwir validate of the same workflow as JSON";
const mb = (file) => round(statSync(file).size / 2 ** 20, 1);
const out = [];
for (const [kind, samples] of Object.entries(results)) {
  out.push(summarize("lwir validate, one huge workflow", "ours CLI", kind, a.steps, samples, FLOOR_NAME, floorSamples, {
    group: "huge", file_mb: mb(files[kind]), peak_mb: round(median(peaks[kind]), 0), floor_peak_mb: round(median(peaks.json), 0),
  }));
}
out.push(summarize("lwir validate, one huge workflow", "ours CLI", "json", a.steps, floorSamples, FLOOR_NAME, floorSamples, {
  group: "huge", file_mb: mb(files.json), peak_mb: round(median(peaks.json), 0), floor_peak_mb: round(median(peaks.json), 0),
}));
emit(out);
