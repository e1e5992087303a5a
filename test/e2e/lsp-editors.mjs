// What the Neovim and Emacs parts share: the headless editor drives dist/server.js over stdio, following a plan
// (the fixture below), and prints one JSON report; these are the fixture, the editor runner, the comparison
// helpers and the checks that read the same fields of both reports. Each part's run.mjs keeps what belongs to its
// editor: how it is started, what it stores of a diagnostic, and the checks only it can make.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import assert from "node:assert/strict";
import { ARTIFACTS, Checks, ROOT, cliReport, ensureApt, freshWorkspace, log } from "./lib.mjs";

/** Hard limit for the whole editor run; a normal run takes a few seconds. */
const EDITOR_TIMEOUT_MS = 90_000;
/** What the script may spend waiting for answers and publishes, all together (then it reports what it has). */
const BUDGET_MS = 30_000;
/** What it waits for the server to leave after the editor's shutdown. */
export const SHUTDOWN_WAIT_MS = 10_000;
/** A clean shutdown is a shutdown request, an exit notification and the process leaving: fast. */
export const SHUTDOWN_LIMIT_MS = 5_000;

/**
 * Installs the editor, builds the workspace and the plan, runs the editor and reads its report. Exits the part
 * (with one failed check saying why) when nothing can be checked: no install, no report, no server.
 *   part: "neovim" | "emacs"; packages: Debian packages; command/args: the editor, run in the workspace;
 *   serverPids(report): the servers it started; startFailureInfo(report): more text for a failed start;
 *   collect(home): more stderr read from the editor's temporary HOME before it is removed.
 * Returns what the checks need: { checks, ws, fixture, cliFor, run, r, leftovers, noPhaseError }.
 */
export async function startEditorPart({ part, packages, command, args, serverPids, startFailureInfo = () => "", collect }) {
  const checks = new Checks(part);
  try {
    ensureApt(packages);
  } catch (e) {
    checks.fail(`install ${packages.join(" and ")}`, e);
    process.exit(checks.finish());
  }

  const ws = freshWorkspace(part);
  const fixture = makeFixture(ws);
  // What the editor must show, computed before it runs (the quick fix check saves the edited file).
  const cli = cliReport(fixture.docs.map((d) => d.path), ws);
  const cliFor = (name) => cli.files.find((f) => basename(f.file) === name);
  const started = Date.now();
  const run = await runEditor({ command, args, plan: fixture.plan, collect });
  log(part, `${command} exited with ${run.code ?? run.signal} after ${Date.now() - started} ms`);
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${part}.report.json`), JSON.stringify(run.report ?? { stdout: run.stdout, stderr: run.stderr }, null, 2));

  if (!run.report) {
    checks.fail(`${part} ran and reported`, `no report (exit ${run.code ?? run.signal}${run.timedOut ? ", timed out" : ""})\nstderr: ${run.stderr.slice(-2000)}\nstdout: ${run.stdout.slice(-2000)}`);
    process.exit(checks.finish());
  }
  const r = run.report;
  // Servers the editor left running: recorded for the shutdown check, then ended (we started them).
  const leftovers = serverPids(r).filter(alive);
  for (const pid of leftovers) { try { process.kill(pid, "SIGKILL"); } catch {} }
  const startFailure = r.errors.filter((e) => e.phase === "start" || e.phase === "main");
  if (startFailure.length > 0) {
    // Nothing else can be checked without a running server: one failure that says why.
    checks.fail(`${part} started the server`,
      `${startFailure.map((e) => `${e.phase}: ${e.error}`).join("\n")}${startFailureInfo(r)}\nstderr: ${run.stderr.slice(-2000)}`);
    process.exit(checks.finish());
  }
  /** Errors the script hit in one phase, added to that phase's check so the cause is visible. */
  const phaseError = (name) => r.errors.filter((e) => e.phase === name).map((e) => `${e.phase}: ${e.error}`).join("\n");
  const noPhaseError = (...names) => {
    const msg = [...new Set(["main", "start", ...names])].map(phaseError).filter(Boolean).join("\n");
    if (msg) throw new Error(`${msg}\nstderr: ${run.stderr.slice(-1500)}`);
  };
  return { checks, ws, fixture, cliFor, run, r, leftovers, noPhaseError };
}

// ---- checks both editors make the same way ------------------------------------------------------------

/** Raw publishes of the two broken documents equal the CLI; shown(doc, expected) checks what the editor stores. */
export async function checkDiagnostics({ checks, fixture, cliFor, r, noPhaseError }, shown) {
  for (const name of [fixture.broken, fixture.mistakes]) {
    await checks.run(`diagnostics of ${name} equal lwir validate's`, () => {
      noPhaseError("diagnostics");
      const doc = r.docs[name];
      const expected = expectedFromCli(cliFor(name));
      assert.ok(expected.length > 0, "the fixture should have findings");
      assert.ok(Array.isArray(doc.raw), `no publishDiagnostics for ${doc.uri}`);
      for (const d of doc.raw) {
        assert.equal(d.source, "lwir");
        assert.equal(typeof d.data, "object", "each diagnostic carries data for its quick fix");
      }
      assert.deepEqual(sorted(doc.raw.map(lspShape)), expected, "the raw publish differs from the CLI");
      shown(doc, expected);
    });
  }
}

/** notEmpty(name): the message when the editor still shows diagnostics for a valid document. */
export async function checkValidExamples({ checks, fixture, cliFor, r, noPhaseError }, notEmpty) {
  await checks.run("valid examples get an empty diagnostics list", () => {
    noPhaseError("diagnostics");
    for (const name of fixture.valid) {
      assert.equal(cliFor(name).findings.length + cliFor(name).parseErrors.length, 0, `${name} is not valid for the CLI`);
      const doc = r.docs[name];
      assert.ok(Array.isArray(doc.raw), `the server published nothing for ${name}`);
      assert.deepEqual(doc.raw, [], `${name}: published diagnostics`);
      assert.deepEqual(doc.shown, [], notEmpty(name));
    }
  });
}

/** offered(c, spec): optional, what the editor's own completion offers (checked after the server's labels). */
export async function checkCompletion({ checks, fixture, r, noPhaseError }, offered = () => {}) {
  for (const [key, spec] of Object.entries(fixture.plan.completion)) {
    await checks.run(`completion after \`{{ steps.\` in ${spec.doc} offers ${spec.expected.join(", ")}`, () => {
      noPhaseError(`completion ${key}`);
      const c = r[`completion_${key}`];
      assert.ok(c, "no completion result");
      assert.ok(c.line_text.endsWith(`${spec.insert}${spec.after}`), `the typed text is not in the buffer: ${c.line_text}`);
      assert.deepEqual(c.position, { line: spec.line, character: spec.character + spec.insert.length });
      assert.deepEqual(c.items.map((i) => i.label).sort(), [...spec.expected].sort());
      offered(c, spec);
      // Accepting a step the prompt's step does not need yet also adds the needs entry.
      for (const [label, adds] of Object.entries(spec.addsNeeds)) {
        assert.equal(c.items.find((i) => i.label === label)?.adds_needs, adds, `${label}: additionalTextEdits (needs entry)`);
      }
    });
  }
}

/**
 * The quick fix, applied with the editor's function `appliedWith`: sent(ca, spec) checks the request's
 * diagnostics, `versioned` names what carries the version, shownAfter(ca, remaining) what the editor stores after.
 */
export async function checkQuickFix({ checks, ws, fixture, cliFor, r, noPhaseError }, { appliedWith, sent, versioned, shownAfter }) {
  await checks.run(`quick fix adds the missing needs entry, applied with ${appliedWith}`, () => {
    noPhaseError("code action");
    const ca = r.code_action;
    const spec = fixture.plan.codeAction;
    sent(ca, spec);
    assert.deepEqual(ca.actions.map((a) => a.title), [spec.title]);
    assert.equal(ca.actions[0].kind, "quickfix");
    assert.equal(ca.actions[0].isPreferred, true);
    assert.equal(ca.line_after, spec.lineAfter);
    assert.ok(ca.version_after > ca.version_before, `the ${versioned} version did not move`);
    // The next publish: that diagnostic gone, the others still there, exactly as the CLI reports the fixed file.
    const before = expectedFromCli(cliFor(fixture.broken));
    const remaining = before.filter((d) => d.code !== spec.code);
    assert.equal(remaining.length, before.length - 1);
    const after = expectedFromCli(cliReport([join(ws, fixture.broken)], ws).files[0]);
    assert.deepEqual(after, remaining, "the CLI on the fixed file should report the other findings only");
    assert.deepEqual(sorted(ca.raw_after.map(lspShape)), remaining);
    shownAfter(ca, remaining);
  });
}

/** Hover, go to definition and the server's log: the same fields in both reports. */
export async function checkHoverDefinitionLog({ checks, fixture, r, noPhaseError }) {
  await checks.run("hover on a needs entry names the step's uses", () => {
    noPhaseError("hover");
    const value = r.hover?.contents?.value;
    assert.equal(r.hover?.contents?.kind, "markdown");
    assert.match(value, /fetch-diff/);
    assert.match(value, /tool\.call/);
  });

  await checks.run("go to definition from a needs entry lands on the step's id", () => {
    noPhaseError("definition");
    const locs = Array.isArray(r.definition) ? r.definition : [r.definition];
    assert.equal(locs.length, 1);
    assert.equal(locs[0].uri, r.docs[fixture.broken].uri);
    assert.deepEqual(locs[0].range, fixture.plan.definition.target);
  });

  await checks.run("the server logged no errors or warnings", () => {
    noPhaseError();
    assert.ok(r.server_log.some((m) => /language server started/.test(m.message)), "the server's log messages did not arrive");
    // window/logMessage types: 1 error, 2 warning (an exception in a handler is logged as an error).
    assert.deepEqual(r.server_log.filter((m) => m.type <= 2), []);
  });
}

// ---- fixture, runner, comparison helpers --------------------------------------------------------------

/**
 * The workspace documents and the plan lsp.lua / lsp.el follow. Positions are computed from the text so that they
 * say what they point at; expectations come from reading the server's completion/code-action rules for these files.
 */
function makeFixture(dir) {
  const broken = "broken-review.lwir.yaml";
  const mistakes = "mistakes.lwir.json";
  const valid = ["release-notes.lwir.json", "support-triage.lwir.yaml"];
  // A JSON document with two mistakes: write-notes reads steps.list-merged without needing it, and needs a step
  // that does not exist. "résumé 🚀" before the read makes UTF-16 columns differ from bytes and characters.
  let json = readFileSync(join(dir, "release-notes.lwir.json"), "utf8");
  json = replaceOnce(json, '"prompt": "Release {{ input.version }} of {{ input.repo }}.',
    '"prompt": "Release {{ input.version }} of {{ input.repo }} (résumé 🚀 {{ len(steps.list-merged.output.pulls) }} pulls).');
  json = replaceOnce(json, '"needs": [\n        "group-changes"\n      ]', '"needs": [\n        "group-changes",\n        "changelog"\n      ]');
  writeFileSync(join(dir, mistakes), json);

  const yaml = readFileSync(join(dir, broken), "utf8").split("\n");
  const jsonLines = json.split("\n");
  const lineOf = (lines, text, from = 0) => {
    const i = lines.findIndex((l, k) => k >= from && l.includes(text));
    if (i < 0) throw new Error(`fixture: no line with ${text}`);
    return i;
  };
  const at = (lines, line, text) => ({ line, character: lines[line].indexOf(text) });
  const stepLine = (id) => lineOf(yaml, `- id: ${id}`);
  // Completion: type ` {{ steps.` just before the closing quote of a one-line prompt.
  const yamlPrompt = lineOf(yaml, 'prompt: "Write the review comment');
  const jsonPrompt = lineOf(jsonLines, '"prompt": "Release');
  const insert = " {{ steps.";
  const reviewId = at(yaml, stepLine("review"), "review");
  const plan = {
    node: process.execPath,
    server: join(ROOT, "dist", "server.js"),
    root: dir,
    budgetMs: BUDGET_MS,
    shutdownMs: SHUTDOWN_WAIT_MS,
    docs: [broken, mistakes, ...valid].map((name) => ({ name, path: join(dir, name), filetype: name.endsWith(".json") ? "json" : "yaml" })),
    completion: {
      // publish may read every other step of the list (not itself: it runs once); it already needs review.
      yaml: { doc: broken, line: yamlPrompt, character: yaml[yamlPrompt].length - 1, insert, after: '"',
        expected: ["fetch-diff", "review", "gate"], addsNeeds: { "fetch-diff": true, review: false } },
      // write-notes may read the two steps before it.
      json: { doc: mistakes, line: jsonPrompt, character: jsonLines[jsonPrompt].length - 1, insert, after: '"',
        expected: ["list-merged", "group-changes"], addsNeeds: { "group-changes": false } },
    },
    codeAction: {
      doc: broken, code: "step.undeclared_dependency", title: 'Add "fetch-diff" to the needs of "publish"',
      needsLine: lineOf(yaml, "needs: [review]", stepLine("publish")), lineAfter: "    needs: [review, fetch-diff]",
    },
    // review's `needs: [fetch-diff]`: the hover names fetch-diff's uses (tool.call).
    hover: { doc: broken, ...at(yaml, lineOf(yaml, "needs: [fetch-diff]", stepLine("review")), "fetch-diff") },
    // gate's `needs: [review]` → review's id.
    definition: {
      doc: broken, ...at(yaml, lineOf(yaml, "needs: [review]", stepLine("gate")), "review"),
      target: { start: reviewId, end: { line: reviewId.line, character: reviewId.character + "review".length } },
    },
  };
  // Where fetch-diff is declared: the related location of the undeclared read of it.
  const fetchDiffId = at(yaml, stepLine("fetch-diff"), "fetch-diff");
  return { plan, broken, mistakes, valid, docs: plan.docs, fetchDiffId };
}

function replaceOnce(text, from, to) {
  if (text.split(from).length !== 2) throw new Error(`fixture: expected one occurrence of ${from}`);
  return text.replace(from, to);
}

/**
 * Runs the editor with its own HOME/XDG folders, the plan in $LWIR_E2E_PLAN, stdin from /dev/null and a hard
 * timeout; detached, so a timeout can kill the editor and the servers together (the whole process group).
 */
function runEditor({ command, args, plan, collect }) {
  const home = mkdtempSync(join(tmpdir(), `lwir-e2e-${command}-`));
  const env = {
    ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"), XDG_CACHE_HOME: join(home, "cache"), LWIR_E2E_PLAN: JSON.stringify(plan),
  };
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: plan.root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (b) => (stdout += b));
    child.stderr.on("data", (b) => (stderr += b));
    const killGroup = () => { try { process.kill(-child.pid, "SIGKILL"); } catch {} };
    const timer = setTimeout(() => { timedOut = true; killGroup(); }, EDITOR_TIMEOUT_MS);
    // Interrupted (Ctrl-C reaches our process group, not the editor's): take the editor down too.
    const interrupted = (signal) => { killGroup(); process.exit(signal === "SIGINT" ? 130 : 143); };
    process.once("SIGINT", interrupted).once("SIGTERM", interrupted);
    const done = (code, signal, error) => {
      clearTimeout(timer);
      process.off("SIGINT", interrupted).off("SIGTERM", interrupted);
      if (collect) stderr += collect(home);
      rmSync(home, { recursive: true, force: true });
      const line = stdout.split("\n").find((l) => l.startsWith("LWIR_REPORT "));
      let report;
      try { report = line ? JSON.parse(line.slice("LWIR_REPORT ".length)) : undefined; } catch (e) { stderr += `\nbad report: ${e.message}`; }
      if (error) stderr += `\n${error.message}`;
      resolve({ code, signal, timedOut, stdout, stderr, report });
    };
    child.on("error", (e) => done(null, null, e));
    child.on("close", (code, signal) => done(code, signal));
  });
}

/** CLI findings (and parse errors) as the LSP diagnostics the editor must show. */
function expectedFromCli(file) {
  const severity = { error: 1, warning: 2, information: 3, hint: 4 };
  return sorted([
    ...file.parseErrors.map((p) => ({ code: "parse", message: p.message, severity: 1, range: p.range })),
    ...file.findings.map((f) => ({ code: f.code, message: f.message, severity: severity[f.severity], range: f.range })),
  ]);
}

function lspShape(d) {
  return { code: d.code, message: d.message, severity: d.severity, range: d.range };
}

export function sorted(list) {
  const key = (d) => [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.code, d.message];
  return [...list].sort((a, b) => {
    const x = key(a), y = key(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}

function alive(pid) {
  if (typeof pid !== "number") return false;
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === "EPERM"; }
}

export function ms(x) {
  return typeof x === "number" ? `${Math.round(x)} ms` : "?";
}
