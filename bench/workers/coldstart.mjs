// Cold start (issue 16): process spawn → first diagnostics of an opened document, over stdio, as an editor
// starts a server: spawn, `initialize`, `initialized`, `didOpen`, then the first publishDiagnostics.
// Timed in the same run, interleaved round by round:
//   - ours: the built server (dist/server.js), `lwir.validation.delay` 0 (push mode);
//   - yaml-language-server with the LWIR schema, debounce removed (bench/yamlls-nodelay.cjs) and as shipped;
//   - bare Node start-up: `node -e 0`, spawn → exit;
//   - our warm in-process figure: `analyzeText` + `toDiagnostics` of a fresh text in this (warmed-up) process;
//   - a fresh process that loads our analysis alone and analyses the text once (first-analysis.cjs): what
//     any cold start of our code pays before a server adds anything (V8 compiling and first running it).
// The "floor" of every series is bare Node start-up + the warm figure of the same round, so each ratio is
// cold start / (node -e 0 + warm). yaml-language-server reads the JSON document as YAML (JSON is YAML).
//   --ours A.js,A.js+cache                 our server bundles, each its own series (default dist/server.js);
//                                          `+cache`: started with a code cache folder (LWIR_CODE_CACHE_DIR, as the
//                                          VS Code extension starts it), primed by one start before measuring
//   --servers ours,yamlls-nodelay,yamlls,fresh   which to start (default all four; fresh: first-analysis.cjs)
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { args, emit, interleave, readWorkload, require, round, median, summarize, timedSync, variant, yamllsSettings } from "../lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const { LspClient } = require("./tmp/harness.cjs");
const ours = require("./tmp/ours.cjs");
const a = args();
const base = readWorkload(a.file);
const oursBundles = String(a.raw.ours ?? join(root, "dist", "server.js")).split(",");
const servers = String(a.raw.servers ?? "ours,yamlls-nodelay,yamlls,fresh").split(",").flatMap((s) => (s === "ours" ? oursBundles.map((_, k) => `ours${k}`) : [s]));
const TIMEOUT = 120_000;

const yamlSettings = yamllsSettings(root);

/** How a bundle is named in the results: the production build run.mjs keeps in bench/tmp/prod, or dist/. */
const bundleName = (file) => (file.includes(join("bench", "tmp", "prod")) ? "production bundle" : `${file.slice(root.length + 1)}`);
const CACHE_DIR = join(root, "bench", "tmp", "code-cache");
const SERVERS = {
  fresh: { tool: "fresh process: our analysis alone, loaded and run once (no server)" },
  ...Object.fromEntries(oursBundles.map((entry, k) => {
    const cached = entry.endsWith("+cache");
    const file = cached ? entry.slice(0, -"+cache".length) : entry;
    return [`ours${k}`, {
      tool: `ours (LSP, delay 0, ${bundleName(file)}${cached ? ", code cache" : ""})`,
      cached,
      options: () => ({ serverPath: file, env: cached ? { LWIR_CODE_CACHE_DIR: CACHE_DIR } : undefined, initializationOptions: { settings: { validation: { delay: 0 } } } }),
    }];
  })),
  "yamlls-nodelay": {
    tool: "yaml-language-server (LSP, debounce removed)",
    options: () => yamllsOptions(["--require", join(here, "..", "yamlls-nodelay.cjs")]),
    configure: (client) => client.notify("workspace/didChangeConfiguration", { settings: { yaml: yamlSettings } }),
  },
  yamlls: {
    tool: "yaml-language-server (LSP, 200 ms debounce)",
    options: () => yamllsOptions([]),
    configure: (client) => client.notify("workspace/didChangeConfiguration", { settings: { yaml: yamlSettings } }),
  },
};

function yamllsOptions(nodeArgs) {
  return {
    serverPath: require.resolve("yaml-language-server/bin/yaml-language-server"),
    configurationRequests: true,
    configuration: { yaml: yamlSettings, "[yaml]": {}, http: {}, editor: {}, files: {} },
    nodeArgs,
  };
}

/** One cold start: spawn → initialize → initialized → didOpen → first diagnostics; the stop is not timed. */
async function coldStart(name, i) {
  const server = SERVERS[name];
  const text = variant(base, i);
  const uri = pathToFileURL(join(root, "bench", "tmp", `cold-${i}.lwir.${a.format}`)).href;
  const started = performance.now();
  const client = await LspClient.start({ pull: false, timeout: TIMEOUT, ...server.options() });
  server.configure?.(client);
  // yaml-language-server reads any document as YAML; ours picks the format from the language id
  client.open(uri, text, name.startsWith("ours") ? a.format : "yaml");
  const published = await client.waitForNotification("textDocument/publishDiagnostics", (p) => p.uri === uri, TIMEOUT);
  const ms = performance.now() - started;
  // the workload is valid for the runtime: no error (the generator's loop reads a step that runs later, which
  // lwir.loop_read_before_run warns about; a warning is still a full analysis)
  const errors = published.diagnostics.filter((d) => d.severity === 1);
  if (name.startsWith("ours") && errors.length !== 0) throw new Error(`ours: ${errors.length} errors on a valid workload: ${errors[0].message}`);
  await client.stop();
  return ms;
}

/** The fresh-process reference: spawn → our analysis loaded → one text's diagnostics written (exit not timed). */
function freshProcess(i) {
  const file = join(root, "bench", "tmp", `cold-fresh-${i}.lwir.${a.format}`);
  writeFileSync(file, variant(base, i));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(here, "first-analysis.cjs"), file, a.format], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.on("error", reject);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (!out.endsWith("\n")) return;
      const ms = performance.now() - started;
      if (out.trim() !== "0") reject(new Error(`fresh process: ${out.trim()} errors on a valid workload`));
      child.on("exit", () => resolve(ms));
    });
  });
}

function bareNode() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", () => resolve(performance.now() - started));
  });
}

function warm(i) {
  const text = variant(base, 10_000 + i);
  const uri = `file:///bench/warm.lwir.${a.format}`;
  return timedSync(() => {
    const analysis = ours.analyzeText(text, a.format);
    ours.toDiagnostics(analysis, { uri, relatedInformation: true });
  });
}

// Code cache series: a fresh cache, written by one server that runs past serverLoader.ts's write delay.
if (Object.values(SERVERS).some((s) => s.cached)) {
  rmSync(CACHE_DIR, { recursive: true, force: true });
  const server = Object.values(SERVERS).find((s) => s.cached);
  const client = await LspClient.start({ pull: false, timeout: TIMEOUT, ...server.options() });
  const uri = pathToFileURL(join(root, "bench", "tmp", `cold-prime.lwir.${a.format}`)).href;
  client.open(uri, base, a.format);
  await client.waitForNotification("textDocument/publishDiagnostics", (p) => p.uri === uri, TIMEOUT);
  for (let waited = 0; !existsSync(CACHE_DIR) || readdirSync(CACHE_DIR).length === 0; waited += 250) {
    if (waited > 30_000) throw new Error("the server wrote no code cache");
    await new Promise((r) => setTimeout(r, 250));
  }
  await client.stop();
}

// The warm figure is warm: many rounds before the first measured one.
for (let i = 0; i < 30; i++) warm(-i - 1);

const nodeSamples = [];
const warmSamples = [];
const subjects = {};
for (const name of servers) subjects[name] = name === "fresh" ? freshProcess : (i) => coldStart(name, i);
const { results, floorSamples } = await interleave({
  warmup: Math.min(a.warmup, 2),
  iterations: a.iterations,
  subjects,
  floor: async (i) => {
    const n = await bareNode();
    const w = warm(i);
    if (i >= Math.min(a.warmup, 2)) {
      nodeSamples.push(n);
      warmSamples.push(w);
    }
    return n + w;
  },
});

const FLOOR_NAME = "node -e 0 + warm in-process";
const out = [];
const extra = { group: "startup", node_ms: round(median(nodeSamples)), warm_ms: round(median(warmSamples)) };
for (const name of servers) {
  const s = summarize("cold start → first diagnostics", SERVERS[name].tool, a.format, a.steps, results[name], FLOOR_NAME, floorSamples, extra);
  if (!name.startsWith("ours") && results.ours0) {
    // ours (the first bundle) / theirs per round, so both sides of each ratio saw the same machine load
    s.ours_ratio = round(median(results.ours0.map((o, k) => o / results[name][k])), 3);
  }
  out.push(s);
}
out.push(summarize("node -e 0 (spawn → exit)", "floor", a.format, a.steps, nodeSamples, FLOOR_NAME, floorSamples, { group: "startup" }));
out.push(summarize("warm in-process text → diagnostics", "floor", a.format, a.steps, warmSamples, FLOOR_NAME, floorSamples, { group: "startup" }));
emit(out);
