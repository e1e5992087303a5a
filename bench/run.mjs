#!/usr/bin/env node
// The benchmark (issue 7): `npm run bench` (100, 1,000 and 5,000 steps... see SIZES) or
// `npm run bench -- --quick` (100 and 1,000 steps). Not part of `npm test`.
//
// Each series runs in its own Node process (bench/workers/*.mjs) with warm-up rounds, then at least 30
// measured rounds; every round also times the parse floor of the format on the same text, interleaved,
// and each figure carries its median ratio to that floor, so machine noise (this machine is shared and
// noisy) largely cancels. Workloads come from bench/generate.mjs (ours). Writes bench/results.json
// and bench/RESULTS.md.
//
//   node bench/run.mjs [--quick] [--sizes 100,1000] [--formats json,yaml]
//                      [--only floor,ours,ours-lsp,peers,yamlls-lsp,graph,dryrun,coldstart,cli-many,workspace,cli-huge]
//                      [--iterations 30] [--warmup 5] [--no-build]   (--only graph: the workflow graph series alone)
//                      [--merge]   keep the series of the last bench/results.json this run does not measure
//                                  (e.g. --only coldstart,workspace --merge: those measured again, the rest as they were)
// coldstart (1,000 steps, whatever --sizes says) and cli-many (the conformance corpus copied 8 times) start
// a process per measurement, so they run at most COLD_ITERATIONS measured rounds; cli-huge (one 27,000-step
// workflow through the CLI, JSON and YAML) at most 5.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem, loadavg, platform, release } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { renderMarkdown } from "./report.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const tmp = join(here, "tmp");
const GEN = join(here, "generate.mjs");

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const quick = flag("quick");
const sizes = option("sizes", quick ? "100,1000" : "10,100,1000,5000").split(",").map(Number);
const formats = option("formats", "json,yaml").split(",");
const only = option("only", `floor,ours,ours-lsp,peers,yamlls-lsp,graph,dryrun,coldstart,cli-many,workspace${quick ? "" : ",cli-huge"}`).split(",");
const iterations = Number(option("iterations", 30));
const warmupDefault = Number(option("warmup", 5));

mkdirSync(tmp, { recursive: true });
if (!flag("no-build")) {
  // Start-up series (coldstart, cli-many): also what ships, the minified production bundles, kept aside
  if (only.includes("coldstart") || only.includes("cli-many")) {
    const r = spawnSync(process.execPath, [join(root, "scripts", "build.mjs"), "--production"], { cwd: root, stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
    mkdirSync(join(tmp, "prod"), { recursive: true });
    for (const f of ["server.js", "server-main.js", "cli.js"]) copyFileSync(join(root, "dist", f), join(tmp, "prod", f));
  }
  // the LSP series runs the built server; the in-process series a bundle of the same sources
  const r = spawnSync(process.execPath, [join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
  const common = { bundle: true, platform: "node", format: "cjs", target: "node20", mainFields: ["module", "main"], logLevel: "warning" };
  await build({ ...common, entryPoints: [join(here, "ours-entry.ts")], outfile: join(tmp, "ours.cjs") });
  await build({ ...common, entryPoints: [join(root, "test", "lsp", "harness.ts")], outfile: join(tmp, "harness.cjs") });
}

function workload(steps, format) {
  const file = join(tmp, `w-${steps}.lwir.${format}`);
  if (!existsSync(file)) {
    const r = spawnSync(process.execPath, [GEN, "--steps", String(steps), "--format", format, "--seed", "1", "--out", file], { stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) throw new Error(`bench/generate.mjs failed for ${steps} ${format}`);
  }
  return file;
}

function runWorker(script, extraArgs) {
  return new Promise((resolve) => {
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, [join(here, "workers", script), ...extraArgs], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderrTail = "";
    child.stdout.on("data", (d) => { stdout += d; });
    child.stderr.on("data", (d) => {
      process.stderr.write(d);
      stderrTail = (stderrTail + d).slice(-8192);
    });
    child.on("exit", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith("@@RESULT "));
      if (code !== 0 || !line) {
        process.stderr.write(`bench: ${script} ${extraArgs.join(" ")} failed (exit ${code})\n${stdout.slice(-2000)}\n`);
        // V8's own last words (a peer out of memory), so RESULTS.md can say why
        const fatal = /FATAL ERROR:[^\n]*/.exec(stderrTail)?.[0];
        const note = fatal ? `${fatal.trim()} after ${Math.round((Date.now() - spawnedAt) / 1000)} s` : undefined;
        failures.push({ worker: script, args: extraArgs.filter((a) => !a.includes("/")).join(" "), exit: code, signal: signalOf(code), note });
        resolve([]);
      } else resolve(JSON.parse(line.slice("@@RESULT ".length)));
    });
  });
}

/** Series whose worker died (a peer running out of memory, say): kept in results.json and shown in RESULTS.md. */
const failures = [];
const signalOf = (code) => (code === null ? "killed (e.g. out of memory)" : undefined);

const plan = [];
for (const steps of sizes) {
  for (const format of formats) {
    const warmup = steps >= 5000 ? Math.min(warmupDefault, 3) : warmupDefault;
    const base = ["--format", format, "--steps", String(steps), "--iterations", String(iterations), "--warmup", String(warmup)];
    if (only.includes("floor")) plan.push(["floor.mjs", base]);
    if (only.includes("ours")) plan.push(["ours.mjs", base]);
    if (only.includes("ours-lsp")) plan.push(["lsp.mjs", [...base, "--server", "ours"]]);
    if (only.includes("peers")) plan.push(["peers.mjs", base]);
    // the graph is built from the parsed value, so one format suffices; its floor is yaml parseDocument
    // of the same document. elkjs (for comparison only) is left out at 5,000 steps, where it takes minutes.
    // A layout of 5,000 steps takes tens of seconds on this machine: fewer rounds there (the figure is
    // still the median of per-round ratios).
    if (format === "yaml" && only.includes("graph")) {
      const rounds = steps >= 5000 ? ["--iterations", String(Math.min(iterations, 5)), "--warmup", "1", "--elk", "no"]
        : steps >= 1000 ? ["--iterations", String(Math.min(iterations, 10)), "--warmup", String(Math.min(warmup, 2))] : [];
      plan.push(["graph.mjs", [...base, ...rounds]]);
      // over LSP: an edge changed → the graph answer, and a completion meanwhile (the layout in the worker)
      if (steps === 1000) plan.push(["graph-lsp.mjs", [...base, "--iterations", String(Math.min(iterations, 10)), "--warmup", "2"]]);
      // one graph action (issue 26): the edit, applied, analysed again and the graph model rebuilt
      if (steps === 1000) plan.push(["graph-edit.mjs", [...base, "--iterations", String(Math.min(iterations, 10)), "--warmup", "2"]]);
    }
    // the dry run (issue 24): 1,000 steps against text → diagnostics; explore on 100 steps
    if (format === "json" && only.includes("dryrun") && (steps === 1000 || steps === 100)) {
      plan.push(["dryrun.mjs", [...base, ...(steps === 100 ? ["--explore", "yes", "--iterations", String(Math.min(iterations, 10)), "--warmup", "2"] : [])]]);
    }
    if (format === "yaml" && only.includes("yamlls-lsp")) {
      plan.push(["lsp.mjs", [...base, "--server", "yamlls-nodelay"]]);
      plan.push(["lsp.mjs", [...base, "--server", "yamlls"]]);
    }
  }
}

// ---- start-up series (issue 16) ----
const COLD_ITERATIONS = 15;
const HUGE_STEPS = 27000;
const coldBase = ["--iterations", String(Math.min(iterations, COLD_ITERATIONS)), "--warmup", "2"];
const prod = (f) => join(tmp, "prod", f);
if (only.includes("coldstart")) {
  for (const format of formats) {
    // the production bundle as started by other editors, and as VS Code starts it (with a code cache folder)
    const server = existsSync(prod("server.js")) ? prod("server.js") : join(root, "dist", "server.js");
    const servers = [server, `${server}+cache`];
    plan.push(["coldstart.mjs", ["--format", format, "--steps", "1000", ...coldBase, "--ours", servers.join(",")]]);
  }
}
if (only.includes("cli-many")) {
  const clis = existsSync(prod("cli.js")) ? [prod("cli.js"), join(root, "dist", "cli.js")] : [join(root, "dist", "cli.js")];
  plan.push(["cli-many.mjs", ["--format", "mixed", "--steps", "0", ...coldBase, "--cli", clis.join(",")]]);
}
// The workspace scan (bench/workers/workspace.mjs): a 1,000-file folder against the CLI, and typing in a
// 1,000-step JSON document while it is scanned; once per run, whatever the sizes.
if (only.includes("workspace")) {
  plan.push(["workspace.mjs", ["--format", "json", "--steps", "1000", "--iterations", String(Math.min(iterations, 15)), "--warmup", "2"]]);
}

// One huge workflow through the CLI (issue 23): 27,000 steps (about 20 MB of YAML), a few rounds.
if (only.includes("cli-huge")) {
  plan.push(["cli-huge.mjs", ["--format", "mixed", "--steps", String(HUGE_STEPS), "--iterations", String(Math.min(iterations, 5)), "--warmup", "1"]]);
}

const started = Date.now();
const series = [];
for (const [script, base] of plan) {
  const steps = Number(base[base.indexOf("--steps") + 1]);
  const format = base[base.indexOf("--format") + 1];
  const file = format === "mixed" ? "" : workload(steps, format);
  const t0 = Date.now();
  const got = await runWorker(script, [...base, "--file", file]);
  series.push(...got);
  const label = base.includes("--server") ? `${script} ${base[base.indexOf("--server") + 1]}` : script;
  process.stderr.write(`bench: ${label} ${format} ${steps}: ${((Date.now() - t0) / 1000).toFixed(0)} s; ` +
    got.map((s) => `${s.tool} ${s.name} ${s.median_ms} ms (${s.ratio_to_floor}×)`).join("; ") + "\n");
}

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const version = (name) => {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
};
// --merge: the last run's series that this run did not measure again stay, and RESULTS.md says which are whose.
const key = (s) => JSON.stringify([s.name, s.tool, s.format, s.steps]);
let earlier;
if (flag("merge") && existsSync(join(here, "results.json"))) {
  earlier = JSON.parse(readFileSync(join(here, "results.json"), "utf8"));
  const measured = new Set(series.map(key));
  const ranWorkers = new Set(plan.map(([script]) => script));
  series.unshift(...earlier.series.filter((s) => !measured.has(key(s))));
  failures.unshift(...(earlier.failures ?? []).filter((f) => !ranWorkers.has(f.worker)));
}
/** Which workers this run measured, and for the rest, which earlier run (a merged one names its own parts). */
function mergedFrom(before, now) {
  const between = before.merged
    ? [...(before.merged.between ?? []), { workers: before.merged.measured_now.filter((w) => !now.includes(w)), machine: before.machine }]
      .map((b) => ({ ...b, workers: b.workers.filter((w) => !now.includes(w)) })).filter((b) => b.workers.length > 0)
    : [];
  return { measured_now: now, between, earlier_machine: before.merged?.earlier_machine ?? before.machine };
}
const results = {
  ...(earlier ? { merged: mergedFrom(earlier, [...new Set(plan.map(([script]) => script))]) } : {}),
  machine: {
    node: process.version,
    platform: `${platform()} ${release()}`,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    load_average_at_end: loadavg().map((x) => Math.round(x * 100) / 100),
    date: new Date().toISOString(),
    duration_s: Math.round((Date.now() - started) / 1000),
    quick,
    iterations,
    versions: {
      "lwir-tools": pkg.version,
      "jsonc-parser": version("jsonc-parser"),
      yaml: version("yaml"),
      "@dagrejs/dagre": version("@dagrejs/dagre"),
      elkjs: version("elkjs"),
      "vscode-json-languageservice": version("vscode-json-languageservice"),
      "yaml-language-server": version("yaml-language-server"),
    },
  },
  series,
  failures,
};
writeFileSync(join(here, "results.json"), JSON.stringify(results, null, 2) + "\n");
writeFileSync(join(here, "RESULTS.md"), renderMarkdown(results));
process.stderr.write(`bench: wrote bench/results.json and bench/RESULTS.md in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
