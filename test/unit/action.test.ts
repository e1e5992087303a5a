// The GitHub Action (action.yml, a JavaScript action) run the way the runner runs it: `node` on its `main` file
// in the workspace, with the environment the runner sets (an INPUT_<NAME> variable for every input, the default
// where the workflow gives none; GITHUB_WORKSPACE, GITHUB_OUTPUT, RUNNER_TEMP). The action folder holds only
// action.yml and the committed bundle/ (what `uses: …@tag` downloads, minus what the action does not read): no
// node_modules, no build, so the test fails if the action needs either.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv-draft-04";
import { parse as parseYaml } from "yaml";
import { tempDir } from "./repo-copy";

interface ActionYaml {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value?: string }>;
  runs: { using: string; main: string; steps?: unknown };
}
interface ActionRun {
  status: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  ms: number;
}

const action = parseYaml(readFileSync("action.yml", "utf8")) as ActionYaml;

/** The runner's GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
function readOutputs(file: string): Record<string, string> {
  const lines = readFileSync(file, "utf8").split("\n");
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      assert.ok(end > i, `output ${heredoc[1]}: no closing delimiter`);
      out[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (lines[i].includes("=")) {
      out[lines[i].slice(0, lines[i].indexOf("="))] = lines[i].slice(lines[i].indexOf("=") + 1);
    }
  }
  return out;
}

/** Runs the action's main as the runner does: `node main` in the workspace with INPUT_* and GITHUB_* set. */
function runAction(actionPath: string, workspace: string, given: Record<string, string>): ActionRun {
  const temp = join(workspace, "..", "runner-temp");
  mkdirSync(temp, { recursive: true });
  const output = join(temp, `output-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(output, "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? workspace,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: output,
    RUNNER_TEMP: temp,
  };
  // The runner's name for an input: INPUT_ + the name upper-cased, spaces as _ (hyphens stay).
  for (const [name, input] of Object.entries(action.inputs)) env[`INPUT_${name.toUpperCase()}`] = input.default ?? "";
  for (const [name, value] of Object.entries(given)) {
    assert.ok(name in action.inputs, `no input ${name}`);
    env[`INPUT_${name.toUpperCase()}`] = value;
  }
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(actionPath, action.runs.main)], { cwd: workspace, env, encoding: "utf8", maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr, outputs: readOutputs(output), ms };
}

interface Annotation {
  level: string;
  props: Record<string, string>;
  message: string;
}

const unescape = (s: string) => s.replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");

/** Workflow-command lines as the runner reads them. */
function annotations(stdout: string): Annotation[] {
  return stdout.split("\n").filter((l) => l.startsWith("::")).map((line) => {
    const m = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
    assert.ok(m, `not a workflow command: ${line}`);
    const props: Record<string, string> = {};
    for (const kv of (m[2] ?? "").split(",").filter(Boolean)) props[kv.slice(0, kv.indexOf("="))] = unescape(kv.slice(kv.indexOf("=") + 1));
    return { level: m[1], props, message: unescape(m[3]) };
  });
}

function sarifValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  ajv.addFormat("uri", (s: string) => { try { new URL(s); return true; } catch { return false; } });
  ajv.addFormat("uri-reference", (s: string) => { try { new URL(s, "file:///base/"); return !/[\s\\]/.test(s); } catch { return false; } });
  ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)));
  return ajv.compile(JSON.parse(readFileSync("node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json", "utf8")));
}

interface JsonReport {
  files: { file: string; parseErrors: { message: string; range: Range }[]; findings: Problem[]; notices?: Problem[] }[];
}
interface Problem { code: string; message: string; severity: string; range: Range }
interface Range { start: { line: number; character: number }; end: { line: number; character: number } }

/** A workspace with valid, invalid and unparsable workflows (one name with a space) and a non-LWIR file. */
function makeWorkspace(): string {
  const ws = join(tempDir("lwir-ws-"), "workspace");
  mkdirSync(join(ws, "flows"), { recursive: true });
  mkdirSync(join(ws, "other"));
  copyFileSync("examples/support-triage.lwir.yaml", join(ws, "flows", "good.lwir.yaml"));
  copyFileSync("examples/release-notes.lwir.json", join(ws, "flows", "good.lwir.json"));
  copyFileSync("examples/broken-review.lwir.yaml", join(ws, "flows", "bad review.lwir.yaml"));
  copyFileSync("test/fixtures/cli/tree/unparsable.lwir.yaml", join(ws, "other", "unparsable.lwir.yaml"));
  copyFileSync("test/fixtures/cli/notices/unquoted.lwir.yaml", join(ws, "other", "unquoted.lwir.yaml")); // valid, one warning
  writeFileSync(join(ws, "notes.json"), "{ not lwir");
  return ws;
}

describe("GitHub Action (action.yml)", () => {
  let actionPath = "";

  before(() => {
    actionPath = join(tempDir("lwir-action-"), "lwir-tools");
    mkdirSync(actionPath);
    copyFileSync("action.yml", join(actionPath, "action.yml"));
    cpSync("bundle", join(actionPath, "bundle"), { recursive: true });
  });

  test("is a node20 JavaScript action whose main is a committed bundle; every input and output described", () => {
    assert.equal(action.runs.using, "node20");
    assert.equal(action.runs.steps, undefined);
    assert.match(action.runs.main, /^bundle\/[\w-]+\.js$/);
    assert.ok(existsSync(action.runs.main), "the main file is in the repository");
    assert.ok(action.name && action.description);
    for (const [name, input] of Object.entries(action.inputs)) assert.ok(input.description, `input ${name} has no description`);
    for (const [name, o] of Object.entries(action.outputs)) {
      assert.ok(o.description, `output ${name}`);
      assert.equal(o.value, undefined, "a JavaScript action sets its outputs itself");
    }
    assert.deepEqual(Object.keys(action.outputs).sort(), ["exit-code", "problems", "sarif-file", "warnings"]);
    // What `problems` counts is what its description says: errors, warnings apart.
    assert.match(action.outputs.problems.description, /errors/);
    assert.match(action.outputs.warnings.description, /warnings/);
  });

  test("on a folder with problems: annotates every problem, writes valid SARIF, counts errors and warnings apart, fails", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, ws, {});
    assert.equal(run.status, 1, run.stderr);

    // What the annotations must say: the JSON report of the same files, by the same bundle.
    const json = spawnSync(process.execPath, [join(actionPath, "bundle", "lwir.js"), "validate", "--format", "json", "."], { cwd: ws, encoding: "utf8" });
    const report = JSON.parse(json.stdout) as JsonReport;
    const problems = (f: JsonReport["files"][number]) => [
      ...f.parseErrors.map((p) => ({ severity: "error", code: "parse", message: p.message.split(/\n\s*\n/)[0].trim().replace(/\r\n|\r|\n/g, " "), range: p.range })),
      ...f.findings, ...(f.notices ?? []),
    ];
    const expected = report.files.flatMap((f) => problems(f).map((p) => ({
      level: p.severity, file: f.file.replace(/^\.\//, ""), title: p.code, message: p.message,
      line: String(p.range.start.line + 1), col: String(p.range.start.character + 1), endLine: String(p.range.end.line + 1),
    }))).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    assert.ok(expected.length >= 5, `the workspace should have several problems, found ${expected.length}`);
    const got = annotations(run.stdout).map((a) => ({
      level: a.level, file: a.props.file, title: a.props.title, message: a.message, line: a.props.line, col: a.props.col, endLine: a.props.endLine,
    })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    assert.deepEqual(got, expected);
    assert.ok(got.some((a) => a.file === "flows/bad review.lwir.yaml"));
    assert.ok(got.some((a) => a.file === "other/unparsable.lwir.yaml" && a.title === "parse"));
    assert.ok(got.some((a) => a.file === "other/unquoted.lwir.yaml" && a.level === "warning"));
    for (const a of annotations(run.stdout)) assert.ok(Number(a.props.endColumn) >= 1, JSON.stringify(a));

    // SARIF: where the output says, valid 2.1.0, one result per annotation, paths relative to the workspace.
    assert.equal(run.outputs["sarif-file"], join(ws, "..", "runner-temp", "lwir-results.sarif"));
    const sarif = JSON.parse(readFileSync(run.outputs["sarif-file"], "utf8")) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[]; originalUriBaseIds: Record<string, { uri: string }> }[] };
    const validate = sarifValidator();
    assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3)));
    assert.equal(sarif.runs[0].results.length, expected.length);
    assert.equal(sarif.runs[0].originalUriBaseIds["%SRCROOT%"].uri, `file://${ws}/`);
    assert.ok(sarif.runs[0].results.some((r) => r.locations[0].physicalLocation.artifactLocation.uri === "flows/bad%20review.lwir.yaml"));
    // problems: the errors only (the description's word); warnings in their own output
    assert.equal(run.outputs.problems, String(expected.filter((p) => p.level === "error").length));
    assert.equal(run.outputs.warnings, String(expected.filter((p) => p.level === "warning").length));
    assert.notEqual(run.outputs.warnings, "0");
    assert.equal(run.outputs["exit-code"], "1");
  });

  test("valid files given one per line: no annotation, SARIF with no result where sarif-file says, success", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, ws, { paths: "flows/good.lwir.yaml\n  flows/good.lwir.json\n\n", "sarif-file": "reports/lwir.sarif" });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(annotations(run.stdout), []);
    assert.match(run.stdout, /lwir: 2 files checked, no problems/);
    assert.equal(run.outputs["sarif-file"], join(ws, "reports", "lwir.sarif"));
    const sarif = JSON.parse(readFileSync(join(ws, "reports", "lwir.sarif"), "utf8")) as { runs: { results: unknown[] }[] };
    assert.ok(sarifValidator()(sarif));
    assert.deepEqual(sarif.runs[0].results, []);
    assert.deepEqual([run.outputs.problems, run.outputs.warnings, run.outputs["exit-code"]], ["0", "0", "0"]);
  });

  test("a valid file with a warning: the step passes, the warning is annotated and counted apart", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, ws, { paths: "other/unquoted.lwir.yaml" });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(annotations(run.stdout).map((a) => a.level), ["warning"]);
    assert.deepEqual([run.outputs.problems, run.outputs.warnings, run.outputs["exit-code"]], ["0", "1", "0"]);
  });

  test("fail-on-problems false and annotations false: the text report, the step passes, the outputs still tell", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, ws, { paths: "flows", "fail-on-problems": "false", annotations: "false" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(annotations(run.stdout), []);
    assert.match(run.stdout, /^flows\/bad review\.lwir\.yaml:48:14 {2}error {2}model\.disallowed {2}/m);
    assert.equal(run.outputs["exit-code"], "1");
    assert.equal(run.outputs.problems, "4");
  });

  test("a path that cannot be read fails the step (exit 2) with an annotation; paths are data, never code", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, ws, { paths: "flows/good.lwir.json $(touch${IFS}pwned) missing", "fail-on-problems": "false" });
    assert.equal(run.status, 2);
    assert.equal(run.outputs["exit-code"], "2");
    const errors = annotations(run.stdout).filter((a) => a.props.title === "lwir");
    assert.deepEqual(errors.map((a) => a.message).sort(), ["cannot read $(touch${IFS}pwned): no such file or folder", "cannot read missing: no such file or folder"]);
    assert.equal(existsSync(join(ws, "pwned")), false);
    assert.doesNotMatch(run.stdout, /no problems/, "the summary says no problems although paths could not be checked");
  });

  test("an empty paths input is an error annotation, exit 2", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, ws, { paths: " \n " });
    assert.equal(run.status, 2);
    assert.deepEqual(annotations(run.stdout).map((a) => a.message), ["the paths input names no file or folder"]);
  });
});
