// Runs the suite in a child process (test-web, untrusted-web.mjs, electron-run.mjs; or graph-web.mjs's checks)
// and turns its report into lib.mjs checks; shared by run.mjs and electron.mjs. The child gets its own
// process group and temp folder, so a hung editor is killed whole (the node process, the server, the
// browser or Electron and their helpers) and leaves nothing behind.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARTIFACTS, ROOT, log } from "../lib.mjs";

/** A report line of suite/reporter.ts, anywhere in an output line (the host may prefix it). */
const MARKER = /LWIR-E2E (\{.*\})\s*$/;

export class SuiteRunner {
  /**
   * @param checks   lib.mjs Checks the results go to
   * @param part     prefix of the log files in ARTIFACTS (`<part>-<label>.log`)
   * @param timeoutMs a whole run, startup included; past it the process group is killed
   */
  constructor(checks, part, timeoutMs) {
    this.checks = checks;
    this.part = part;
    this.timeoutMs = timeoutMs;
    this.children = new Set();
    /** TMPDIR of the children (browser profiles and the like), removed by cleanUp(). */
    this.scratch = mkdtempSync(join(tmpdir(), `lwir-e2e-${part}-`));
    const onSignal = () => {
      this.cleanUp();
      process.exit(130);
    };
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  }

  /** Kills the child's whole process group; it was started detached, so its pid is the group's id. */
  static killGroup(child, signal = "SIGKILL") {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }

  cleanUp() {
    for (const child of this.children) SuiteRunner.killGroup(child);
    this.children.clear();
    rmSync(this.scratch, { recursive: true, force: true });
  }

  /** Runs a part's `main`, a throw being one failed check, cleans up, and exits with the checks' status. */
  async runMain(main, started) {
    try {
      await main();
    } catch (e) {
      this.checks.fail("run the suite", e instanceof Error ? e.stack ?? e.message : e);
    } finally {
      this.cleanUp();
    }
    log(this.part, `${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.exit(this.checks.finish());
  }

  /**
   * Runs `node args…` (behind `wrapper`, e.g. ["xvfb-run", "-a"]) until it exits or the timeout; collects
   * the report lines. Resolves with { plan, results, end, code, output, timedOut }.
   */
  run(label, args, { env = {}, wrapper = [] } = {}) {
    return new Promise((resolve) => {
      const [command, ...rest] = [...wrapper, process.execPath, ...args];
      const child = spawn(command, rest, {
        cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env, TMPDIR: this.scratch },
      });
      this.children.add(child);
      const state = { plan: undefined, results: [], end: undefined, code: null, output: [], timedOut: false };
      const onLine = (line) => {
        state.output.push(line);
        const m = MARKER.exec(line);
        if (!m) return;
        let report;
        try {
          report = JSON.parse(m[1]);
        } catch {
          return;
        }
        if (report.event === "plan") state.plan = report.tests;
        else if (report.event === "result") state.results.push(report);
        else if (report.event === "end") state.end = report;
      };
      for (const stream of [child.stdout, child.stderr]) {
        let rest = "";
        stream.setEncoding("utf8");
        stream.on("data", (chunk) => {
          const parts = (rest + chunk).split("\n");
          rest = parts.pop();
          parts.forEach(onLine);
        });
        stream.on("end", () => rest && onLine(rest));
      }
      const timer = setTimeout(() => {
        state.timedOut = true;
        SuiteRunner.killGroup(child, "SIGTERM");
        setTimeout(() => SuiteRunner.killGroup(child), 5000).unref();
      }, this.timeoutMs);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        SuiteRunner.killGroup(child); // whatever the child left behind (a browser whose parent died)
        this.children.delete(child);
        state.code = code ?? signal;
        mkdirSync(ARTIFACTS, { recursive: true });
        writeFileSync(join(ARTIFACTS, `${this.part}-${label}.log`), state.output.join("\n") + "\n");
        resolve(state);
      });
    });
  }

  /**
   * For a run that reports its checks as it goes, with no plan first (graph-web.mjs): one check per result,
   * "<label> › <title>", and a failed one if the run reported none or did not finish.
   */
  async recordReported(label, state) {
    const checks = this.checks;
    const log = `test-results/e2e/${this.part}-${label}.log`;
    const ended = () => (state.timedOut ? `timed out after ${this.timeoutMs / 1000} s` : `exited with ${state.code}`);
    const tail = () => state.output.filter((l) => !MARKER.test(l)).slice(-15).join("\n");
    for (const r of state.results) {
      await checks.run(`${label} › ${r.title}`, async () => {
        if (r.state !== "passed") throw new Error(r.error ?? r.state);
      });
      checks.results[checks.results.length - 1].ms = r.ms;
    }
    if (state.results.length === 0) checks.fail(`${label}: the checks ran`, `${ended()} before reporting any; last output (all of it in ${log}):\n${tail()}`);
    else if (!state.end) checks.fail(`${label}: the checks finished`, `${ended()}; last output (all of it in ${log}):\n${tail()}`);
    else if (state.end.failures === 0 && state.code !== 0) checks.fail(`${label}: the run exited cleanly`, `exit status ${state.code} although every check passed (${log})`);
  }

  /** One check per test of the plan, named "<label> › <test>", with the test's own duration. */
  async record(label, state) {
    const checks = this.checks;
    const log = `test-results/e2e/${this.part}-${label}.log`;
    const ended = () => (state.timedOut ? `timed out after ${this.timeoutMs / 1000} s` : `exited with ${state.code}`);
    const tail = () => state.output.filter((l) => !MARKER.test(l)).slice(-15).join("\n");
    if (!state.plan) {
      checks.fail(`${label}: the suite ran`, `${ended()} before the suite started; last output (all of it in ${log}):\n${tail()}`);
      return;
    }
    const byTitle = new Map();
    for (const r of state.results) if (!byTitle.has(r.title) || r.state === "failed") byTitle.set(r.title, r);
    const planned = new Set(state.plan);
    // a failed hook (mocha then skips the tests it was for) is named in the tests' own results
    const hook = state.results.find((r) => r.state === "failed" && !planned.has(r.title));
    const missing = hook ? `not run: ${hook.title} failed: ${String(hook.error).split("\n")[0]}` : `no result: the run ${ended()} first (${log})`;
    for (const title of state.plan) {
      const r = byTitle.get(title);
      byTitle.delete(title);
      await checks.run(`${label} › ${title}`, async () => {
        if (!r) throw new Error(missing);
        if (r.state === "pending") throw new Error("skipped");
        if (r.state === "failed") throw new Error(r.error);
      });
      if (r) checks.results[checks.results.length - 1].ms = r.ms;
    }
    // failures outside the tests (hooks) come under their own titles
    for (const r of byTitle.values()) checks.fail(`${label} › ${r.title}`, r.error ?? r.state);
    if (!state.end) checks.fail(`${label}: the suite finished`, `${ended()}; last output (all of it in ${log}):\n${tail()}`);
    else if (state.end.failures === 0 && state.code !== 0) checks.fail(`${label}: the run exited cleanly`, `exit status ${state.code} although every test passed (${log})`);
  }
}
