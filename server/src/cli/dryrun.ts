// `lwir run --dry FILE` (the trace of one dry run) and `lwir test [PATH...]` (every scenario of every
// scenarios file, checked like a test runner): reading files and printing; the simulation is server/src/run/.
// The reading (a workflow checked before it runs, the scenario of a dry run, the scenarios files of the
// paths given, one scenarios file run) is exported for `lwir mcp`'s dry_run and test tools, which word and
// shape the same results for agents.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { analyzeText } from "../service/analysis";
import { decodeUtf8 } from "../document/decode";
import type { Position } from "../document/document";
import { explore, type Exploration } from "../run/explore";
import { generatedInput, isScenariosFileName, scenariosNamesFor, workflowNamesFor, type ScenarioResult } from "../run/scenarios";
import { findingsReason, parseScenariosText, runnableWorkflow, runScenarios, workflowPathsFor, type ParsedScenarios, type UnrunnableWorkflow } from "../run/scenarioRuns";
import { simulate, type RunError, type Trace, type TraceStep } from "../run/simulate";
import { formatTrace, jsonReplacer, short } from "../run/traceText";
import { readDecoded } from "./check";
import { collectFiles, reasonOf } from "./files";
import type { DryRunOptions, TestOptions } from "./args";

export type { Exploration, RunError, ScenarioResult, Trace, TraceStep };
export { formatTrace, jsonReplacer };

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Texts to read instead of the files on disk, by absolute path: the editor's documents with unsaved edits,
 * when the language server answers VS Code's tools. The CLI and `lwir mcp` read the disk only.
 */
export type Overlay = ReadonlyMap<string, string>;

const overlaid = (file: string, overlay: Overlay | undefined): string | undefined => overlay?.get(resolve(file));
const exists = (file: string, overlay: Overlay | undefined): boolean => overlaid(file, overlay) !== undefined || existsSync(file);

/** Why a workflow cannot be dry-run: unreadable, or not runnable (not parsing, or with findings). */
export type WorkflowProblem = { kind: "read"; reason: string } | UnrunnableWorkflow;

/** A workflow read and checked: its value when the runtime would register it, else why not. */
export type LoadedWorkflow = { ok: true; value: unknown } | { ok: false; problem: WorkflowProblem };

/** A workflow's bytes (the format from `formatName`'s extension, else sniffed), checked as `lwir validate` checks them. */
export function checkedWorkflow(bytes: Uint8Array, formatName: string): LoadedWorkflow {
  const { text, invalidUtf8, format } = readDecoded(decodeUtf8(bytes), formatName);
  return runnableWorkflow(analyzeText(text, format, invalidUtf8));
}

export function loadWorkflow(file: string, overlay?: Overlay): LoadedWorkflow {
  const text = overlaid(file, overlay);
  if (text !== undefined) return checkedWorkflow(Buffer.from(text, "utf8"), file);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { ok: false, problem: { kind: "read", reason: reasonOf(error, file) } };
  }
  return checkedWorkflow(bytes, file);
}

/** The CLI's words for a workflow problem, and its exit status (2: the file cannot be read). */
function cliReason(file: string, problem: WorkflowProblem): { code: 1 | 2; reason: string } {
  if (problem.kind === "read") return { code: 2, reason: problem.reason };
  if (problem.kind === "parse") return { code: 1, reason: `does not parse (lwir validate ${file} shows where)` };
  return { code: 1, reason: `${findingsReason(problem.count)} (lwir validate ${file} lists them)` };
}

/** A scenarios file read with positions, or why it cannot be. */
function loadScenarios(file: string, overlay?: Overlay): ParsedScenarios {
  let text = overlaid(file, overlay);
  if (text === undefined) {
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      return { ok: false, reason: reasonOf(error, file) };
    }
  }
  return parseScenariosText(text, file);
}

/** The scenarios file beside a workflow file, if any. */
function scenariosFileFor(workflow: string, overlay?: Overlay): string | undefined {
  for (const name of scenariosNamesFor(basename(workflow))) {
    const path = join(dirname(workflow), name);
    if (exists(path, overlay)) return path;
  }
  return undefined;
}

/** The workflow a scenarios file goes with: its `workflow:` key, else the file of the same name beside it. */
function workflowFileFor(scenariosFile: string, declared: string | undefined, overlay?: Overlay): string | undefined {
  const paths = workflowPathsFor(basename(scenariosFile), declared).map((p) => join(dirname(scenariosFile), p));
  return declared !== undefined ? paths[0] : paths.find((p) => exists(p, overlay));
}

/** What a dry run starts from: the input and sample outputs (generated, or a scenario's). */
export interface DryRunStart {
  input: unknown;
  inputFrom: string;
  outputs: Record<string, unknown>;
  /** The scenario's name, when one was asked for. */
  scenario?: string;
}

/**
 * The start of a dry run of `workflow` (read from `file`): the generated input, or with `scenario` that
 * scenario's input and outputs from the scenarios file beside `file`. A problem names the file it is about.
 */
export function dryRunStart(file: string, workflow: unknown, scenario: string | undefined, overlay?: Overlay): { ok: true; start: DryRunStart } | { ok: false; file: string; message: string } {
  const start: DryRunStart = { input: generatedInput(workflow), inputFrom: "generated from input.schema", outputs: {} };
  if (scenario === undefined) return { ok: true, start };
  const scenariosFile = scenariosFileFor(file, overlay);
  if (!scenariosFile) return { ok: false, file, message: `no scenarios file beside it (${scenariosNamesFor(basename(file)).join(", ")})` };
  const read = loadScenarios(scenariosFile, overlay);
  if (!read.ok) return { ok: false, file: scenariosFile, message: read.reason };
  const found = read.file.scenarios.find((s) => s.name === scenario);
  if (!found) {
    const names = read.file.scenarios.map((s) => JSON.stringify(s.name)).join(", ");
    return { ok: false, file: scenariosFile, message: `no scenario named ${JSON.stringify(scenario)} (it has ${names || "none"})` };
  }
  start.outputs = found.outputs;
  start.scenario = found.name;
  if (found.hasInput) {
    start.input = found.input;
    start.inputFrom = "from the scenario";
  }
  return { ok: true, start };
}

/** One dry run from its start, or the exploration of every combination of decision outcomes. */
export function dryRun(workflow: unknown, start: DryRunStart, exploring: true): Exploration;
export function dryRun(workflow: unknown, start: DryRunStart, exploring?: false): Trace;
export function dryRun(workflow: unknown, start: DryRunStart, exploring = false): Trace | Exploration {
  const options = { input: start.input, outputs: start.outputs };
  return exploring ? explore(workflow, options) : simulate(workflow, options);
}

// ---------------------------------------------------------------------------------------------
// lwir run --dry

export function runDry(options: DryRunOptions): CliRun {
  const loaded = loadWorkflow(options.file);
  if (!loaded.ok) {
    const { code, reason } = cliReason(options.file, loaded.problem);
    return { code, stdout: "", stderr: `lwir: ${options.file}: ${reason}\n` };
  }
  const workflow = loaded.value;
  const started = dryRunStart(options.file, workflow, options.scenario);
  if (!started.ok) return { code: 2, stdout: "", stderr: `lwir: ${started.file}: ${started.message}\n` };
  const start = started.start;
  const title = start.scenario !== undefined ? `, scenario ${JSON.stringify(start.scenario)}` : "";
  if (options.input !== undefined) {
    try {
      start.input = JSON.parse(readFileSync(options.input, "utf8"));
      start.inputFrom = `from ${options.input}`;
    } catch (error) {
      const reason = error instanceof SyntaxError ? `not JSON: ${error.message}` : reasonOf(error, options.input);
      return { code: 2, stdout: "", stderr: `lwir: ${options.input}: ${reason}\n` };
    }
  }
  if (options.explore) {
    const result = dryRun(workflow, start, true);
    const stdout = options.format === "json" ? JSON.stringify(result, null, 2) + "\n" : formatExploration(options.file, result);
    return { code: result.failing.length > 0 ? 1 : 0, stdout, stderr: "" };
  }
  const { input, inputFrom } = start;
  const trace = dryRun(workflow, start);
  const stdout = options.format === "json"
    ? JSON.stringify({ file: options.file, input, inputFrom, ...trace }, jsonReplacer, 2) + "\n"
    : formatTrace(`Dry run of ${options.file}${title}`, input, inputFrom, trace);
  return { code: trace.status === "completed" ? 0 : 1, stdout, stderr: "" };
}


function formatExploration(file: string, x: Exploration): string {
  let out = `Explored ${file}: ${x.paths.length} path${x.paths.length === 1 ? "" : "s"}${x.truncated ? ` (stopped at the limit of ${x.limit})` : ""}\n`;
  for (const p of x.paths) {
    const choices = p.choices.map((c) => `${c.decision}=${c.value}`).join(", ") || "(no decision)";
    out += `  ${p.status === "completed" ? "ok    " : "FAILS "} ${choices}${p.error ? `: ${p.error.stepPath ? `${p.error.stepPath}: ` : ""}${p.error.message}` : ""}\n`;
  }
  out += x.unreached.length > 0 ? `steps no explored path reaches: ${x.unreached.join(", ")}\n` : "every step is reached by some explored path\n";
  return out;
}

// ---------------------------------------------------------------------------------------------
// lwir test

export interface TestFileResult {
  file: string;
  workflow?: string;
  /** Why the file's scenarios could not run (unreadable, the workflow missing or invalid). */
  error?: string;
  problems: Array<{ message: string; position: Position }>;
  results: ScenarioResult[];
}

const SCENARIOS_UNMATCHED = "no *.lwir.test.yaml, *.lwir.test.yml or *.lwir.test.json file here";

/** What the paths given to `lwir test` hold: the scenarios files, and what to tell about the paths, in order. */
export interface ScenariosFiles {
  files: string[];
  /** Problems (a path that cannot be read, holds no scenarios file, a workflow without one beside it) and notices, each "PATH: what". */
  messages: Array<{ problem: boolean; text: string }>;
}

/** The scenarios files of the paths (folders searched as `lwir validate` searches them; a workflow file stands for the one beside it). */
export function scenariosFilesIn(paths: readonly string[], cwd: string, overlay?: Overlay): ScenariosFiles {
  const files: string[] = [];
  const messages: ScenariosFiles["messages"] = [];
  const seen = new Set<string>();
  const add = (f: string): void => {
    const key = resolve(cwd, f);
    if (!seen.has(key)) {
      seen.add(key);
      files.push(f);
    }
  };
  for (const path of paths) {
    // A workflow file named on the command line stands for the scenarios file beside it.
    if (!isScenariosFileName(basename(path)) && /\.lwir\.(json|ya?ml)$/i.test(path) && exists(resolve(cwd, path), overlay)) {
      const beside = scenariosFileFor(resolve(cwd, path), overlay);
      if (beside) add(join(dirname(path), basename(beside)));
      else messages.push({ problem: true, text: `${path}: no scenarios file beside it (${scenariosNamesFor(basename(path)).join(", ")})` });
      continue;
    }
    const collected = collectFiles([path], { cwd, take: (_absolute, name) => isScenariosFileName(name) });
    for (const f of collected.files) add(f);
    for (const f of collected.failures) messages.push({ problem: true, text: `${f.path}: ${f.reason}` });
    for (const folder of collected.emptyFolders) messages.push({ problem: true, text: `${folder}: ${SCENARIOS_UNMATCHED}` });
    for (const n of collected.notices) messages.push({ problem: false, text: n });
  }
  return { files, messages };
}

export function runTests(options: TestOptions, cwd = process.cwd()): CliRun {
  const paths = options.paths.length > 0 ? options.paths : ["."];
  const { files, messages } = scenariosFilesIn(paths, cwd);
  const stderr = messages.map((m) => (m.problem ? `lwir: ${m.text}\n` : `lwir: notice: ${m.text}\n`)).join("");
  const usageProblem = messages.some((m) => m.problem);
  const results = files.map((f) => testFile(f, cwd, options.scenario));
  const stdout = options.format === "json" ? formatTestJson(results) : options.format === "junit" ? formatJunit(results) : formatTestText(results);
  const failed = results.some((r) => r.error !== undefined || r.problems.length > 0 || r.results.some((s) => s.failures.length > 0));
  return { code: usageProblem ? 2 : failed ? 1 : 0, stdout, stderr };
}

/** Runs the scenarios of one scenarios file (`only`: those of that name) against its workflow. */
export function testFile(file: string, cwd: string, only: string | undefined, overlay?: Overlay): TestFileResult {
  const read = loadScenarios(resolve(cwd, file), overlay);
  if (!read.ok) return { file, error: read.reason, problems: [], results: [] };
  const scenarios = read.file;
  const workflowPath = workflowFileFor(resolve(cwd, file), scenarios.workflow, overlay);
  const shownWorkflow = workflowPath === undefined ? undefined : join(dirname(file), basename(workflowPath));
  if (!workflowPath) return { file, error: `no workflow beside it (${workflowNamesFor(basename(file)).join(", ")})`, problems: scenarios.problems, results: [] };
  const loaded = loadWorkflow(workflowPath, overlay);
  if (!loaded.ok) return { file, workflow: shownWorkflow, error: `${shownWorkflow}: ${cliReason(workflowPath, loaded.problem).reason}`, problems: scenarios.problems, results: [] };
  return { file, workflow: shownWorkflow, problems: scenarios.problems, results: runScenarios(read, loaded.value, only) };
}

const where = (file: string, p: Position): string => `${file}:${p.line + 1}:${p.character + 1}`;

export function counts(results: readonly TestFileResult[]): { passed: number; failed: number; errors: number } {
  let passed = 0;
  let failed = 0;
  let errors = 0;
  for (const r of results) {
    if (r.error !== undefined) errors++;
    errors += r.problems.length;
    for (const s of r.results) if (s.failures.length > 0) failed++;
      else passed++;
  }
  return { passed, failed, errors };
}

export function formatTestText(results: readonly TestFileResult[]): string {
  let out = "";
  for (const r of results) {
    out += `${r.file}${r.workflow ? ` (${r.workflow})` : ""}\n`;
    if (r.error !== undefined) out += `  error: ${r.error}\n`;
    for (const p of r.problems) out += `  ${where(r.file, p.position)}: ${p.message}\n`;
    for (const s of r.results) {
      const n = s.trace.steps.length;
      out += `  ${s.failures.length === 0 ? "✓" : "✗"} ${s.scenario.name} (${n} step${n === 1 ? "" : "s"}, ${s.trace.status})\n`;
      for (const f of s.failures) {
        out += `    ${where(r.file, f.position)}: ${f.what}: ${f.message}\n`;
        if (f.expected !== undefined || f.actual !== undefined) out += `      expected: ${short(f.expected)}\n      actual:   ${short(f.actual)}\n`;
      }
    }
  }
  const { passed, failed, errors } = counts(results);
  out += `\n${passed + failed} scenario${passed + failed === 1 ? "" : "s"} in ${results.length} file${results.length === 1 ? "" : "s"}: ${passed} passed, ${failed} failed`;
  out += errors > 0 ? `, ${errors} error${errors === 1 ? "" : "s"} in files\n` : "\n";
  return out;
}

function formatTestJson(results: readonly TestFileResult[]): string {
  const files = results.map((r) => ({
    file: r.file, workflow: r.workflow ?? null, ...(r.error !== undefined ? { error: r.error } : {}),
    problems: r.problems.map((p) => ({ message: p.message, line: p.position.line + 1, column: p.position.character + 1 })),
    scenarios: r.results.map((s) => ({
      name: s.scenario.name, line: s.scenario.position.line + 1, status: s.failures.length === 0 ? "passed" : "failed",
      run: s.trace.status, steps: s.trace.steps.map((t) => t.path), ...(s.trace.error ? { error: s.trace.error } : {}),
      failures: s.failures.map((f) => ({ what: f.what, message: f.message, line: f.position.line + 1, column: f.position.character + 1, expected: f.expected ?? null, actual: f.actual ?? null })),
    })),
  }));
  return JSON.stringify({ files, summary: counts(results) }, jsonReplacer, 2) + "\n";
}

function xml(text: string): string {
  // Characters XML 1.0 cannot carry are dropped; the rest escaped.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function formatJunit(results: readonly TestFileResult[]): string {
  const total = counts(results);
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="lwir test" tests="${total.passed + total.failed + total.errors}" failures="${total.failed}" errors="${total.errors}">\n`;
  for (const r of results) {
    const failures = r.results.filter((s) => s.failures.length > 0).length;
    const errors = (r.error !== undefined ? 1 : 0) + r.problems.length;
    out += `  <testsuite name="${xml(r.file)}" tests="${r.results.length + errors}" failures="${failures}" errors="${errors}">\n`;
    if (r.error !== undefined) out += `    <testcase name="(scenarios file)" classname="${xml(r.file)}" file="${xml(r.file)}"><error message="${xml(r.error)}"/></testcase>\n`;
    for (const p of r.problems) {
      out += `    <testcase name="(scenarios file)" classname="${xml(r.file)}" file="${xml(r.file)}" line="${p.position.line + 1}"><error message="${xml(p.message)}">${xml(where(r.file, p.position))}</error></testcase>\n`;
    }
    for (const s of r.results) {
      out += `    <testcase name="${xml(s.scenario.name)}" classname="${xml(r.file)}" file="${xml(r.file)}" line="${s.scenario.position.line + 1}"`;
      if (s.failures.length === 0) {
        out += "/>\n";
        continue;
      }
      const body = s.failures.map((f) => `${where(r.file, f.position)}: ${f.what}: ${f.message}${f.expected !== undefined || f.actual !== undefined ? `\nexpected: ${short(f.expected)}\nactual:   ${short(f.actual)}` : ""}`).join("\n");
      out += `>\n      <failure message="${xml(`${s.failures[0].what}: ${s.failures[0].message}`)}">${xml(body)}</failure>\n    </testcase>\n`;
    }
    out += "  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}
