// The GitHub Action (action.yml) run here the way the runner runs a composite action: its steps' scripts in
// order with bash -eo pipefail, `${{ }}` expressions substituted from the inputs and contexts (any other
// expression fails the test), GITHUB_ACTION_PATH / GITHUB_WORKSPACE / GITHUB_OUTPUT / RUNNER_TEMP set, the
// first failing step ending the action. The action path is a fresh copy of this repository; the only part
// replaced is the download in `npm ci` (tests/unit/repo-copy.ts links this checkout's node_modules instead);
// `npm run build` runs for real.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv-draft-04";
import { parse as parseYaml } from "yaml";
import { copyCheckout, npmStandIn, tempDir, type NpmStandIn } from "./repo-copy";

interface ActionYaml {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}
interface Step {
  id?: string;
  name?: string;
  shell?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
}
interface ActionRun {
  status: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

const action = parseYaml(readFileSync("action.yml", "utf8")) as ActionYaml;

/** `${{ a.b }}` → its value; only plain context lookups are allowed (no functions, no operators). */
function substitute(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    if (!(expr in context)) throw new Error(`action.yml uses an expression the harness does not know: ${expr}`);
    return context[expr];
  });
}

/** The runner's GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
function readOutputs(file: string): Record<string, string> {
  const lines = readFileSync(file, "utf8").split("\n");
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (lines[i].includes("=")) {
      out[lines[i].slice(0, lines[i].indexOf("="))] = lines[i].slice(lines[i].indexOf("=") + 1);
    }
  }
  return out;
}

function runAction(actionPath: string, npm: NpmStandIn, workspace: string, given: Record<string, string>): ActionRun {
  const context: Record<string, string> = {
    "github.action_path": actionPath,
    "github.workspace": workspace,
    "runner.temp": join(workspace, "..", "runner-temp"),
  };
  for (const [name, input] of Object.entries(action.inputs)) context[`inputs.${name}`] = input.default ?? "";
  for (const [name, value] of Object.entries(given)) {
    assert.ok(name in action.inputs, `no input ${name}`);
    context[`inputs.${name}`] = value;
  }
  mkdirSync(context["runner.temp"], { recursive: true });
  let stdout = "";
  let stderr = "";
  let status = 0;
  for (const [i, step] of action.runs.steps.entries()) {
    const output = join(context["runner.temp"], `output-${i}`);
    writeFileSync(output, "");
    const script = join(context["runner.temp"], `step-${i}.sh`);
    writeFileSync(script, substitute(step.run!, context));
    const env: Record<string, string> = {
      PATH: `${npm.bin}:${process.env.PATH}`,
      HOME: process.env.HOME ?? workspace,
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      RUNNER_TEMP: context["runner.temp"],
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(String(v), context);
    // `shell: bash` runs as `bash --noprofile --norc -eo pipefail {0}`, in the workspace.
    const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { cwd: workspace, env, encoding: "utf8", maxBuffer: 64 << 20 });
    stdout += r.stdout;
    stderr += r.stderr;
    if (step.id) for (const [k, v] of Object.entries(readOutputs(output))) context[`steps.${step.id}.outputs.${k}`] = v;
    status = r.status ?? 1;
    if (status !== 0) break;
  }
  const outputs: Record<string, string> = {};
  for (const [name, o] of Object.entries(action.outputs)) outputs[name] = o.value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => context[e] ?? "");
  return { status, stdout, stderr, outputs };
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
  files: { file: string; parseErrors: { message: string; range: Range }[]; findings: { code: string; message: string; severity: string; range: Range }[] }[];
}
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
  writeFileSync(join(ws, "notes.json"), "{ not lwir");
  return ws;
}

describe("GitHub Action (action.yml)", () => {
  let actionPath = "";
  let npm: NpmStandIn;

  before(() => {
    actionPath = copyCheckout();
    npm = npmStandIn();
  });

  test("is a composite action whose steps the harness can run: bash, no other action, inputs through env", () => {
    assert.equal(action.runs.using, "composite");
    assert.ok(action.name && action.description);
    for (const [name, input] of Object.entries(action.inputs)) assert.ok(input.description, `input ${name} has no description`);
    for (const [name, o] of Object.entries(action.outputs)) assert.ok(o.description && o.value, `output ${name}`);
    for (const step of action.runs.steps) {
      assert.equal(step.shell, "bash");
      assert.equal(typeof step.run, "string");
      assert.equal(step.uses, undefined);
      assert.equal(step.if, undefined, "a step condition would need the harness to evaluate it");
      // Inputs pasted into a script would be code: they must arrive as environment variables.
      assert.doesNotMatch(step.run!, /\$\{\{\s*inputs\./);
    }
    assert.deepEqual(Object.keys(action.outputs).sort(), ["exit-code", "problems", "sarif-file"]);
  });

  test("on a folder with problems: installs and builds in the action path, annotates every problem, writes valid SARIF, fails", () => {
    const ws = makeWorkspace();
    const installsBefore = npm.installs().length;
    const run = runAction(actionPath, npm, ws, {});
    assert.equal(run.status, 1, run.stderr);
    const installs = npm.installs().slice(installsBefore);
    assert.deepEqual(installs.map((i) => [i.cwd, i.args[0]]), [[actionPath, "ci"]]);
    assert.ok(installs[0].args.includes("--ignore-scripts"));
    assert.ok(existsSync(join(actionPath, "dist", "cli.js")), "the build step made dist/cli.js");

    // What the annotations must say: the JSON report of the same files.
    const json = spawnSync(process.execPath, [join(actionPath, "dist", "cli.js"), "validate", "--format", "json", "."], { cwd: ws, encoding: "utf8" });
    const report = JSON.parse(json.stdout) as JsonReport;
    const expected = report.files.flatMap((f) => [
      ...f.parseErrors.map((p) => ({ severity: "error", code: "parse", message: p.message.split(/\n\s*\n/)[0].trim().replace(/\r\n|\r|\n/g, " "), range: p.range })),
      ...f.findings,
    ].map((p) => ({
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
    for (const a of annotations(run.stdout)) assert.ok(Number(a.props.endColumn) >= 1, JSON.stringify(a));

    // SARIF: where the output says, valid 2.1.0, one result per annotation, paths relative to the workspace.
    assert.equal(run.outputs["sarif-file"], join(ws, "..", "runner-temp", "lwir-results.sarif"));
    const sarif = JSON.parse(readFileSync(run.outputs["sarif-file"], "utf8")) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[]; originalUriBaseIds: Record<string, { uri: string }> }[] };
    const validate = sarifValidator();
    assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3)));
    assert.equal(sarif.runs[0].results.length, expected.length);
    assert.equal(sarif.runs[0].originalUriBaseIds["%SRCROOT%"].uri, `file://${ws}/`);
    assert.ok(sarif.runs[0].results.some((r) => r.locations[0].physicalLocation.artifactLocation.uri === "flows/bad%20review.lwir.yaml"));
    assert.equal(run.outputs.problems, String(expected.length));
    assert.equal(run.outputs["exit-code"], "1");
  });

  test("valid files given one per line: no annotation, SARIF with no result where sarif-file says, success", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, npm, ws, { paths: "flows/good.lwir.yaml\n  flows/good.lwir.json\n\n", "sarif-file": "reports/lwir.sarif" });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(annotations(run.stdout), []);
    assert.match(run.stdout, /lwir: 2 files checked, no problems/);
    assert.equal(run.outputs["sarif-file"], join(ws, "reports", "lwir.sarif"));
    const sarif = JSON.parse(readFileSync(join(ws, "reports", "lwir.sarif"), "utf8")) as { runs: { results: unknown[] }[] };
    assert.ok(sarifValidator()(sarif));
    assert.deepEqual(sarif.runs[0].results, []);
    assert.deepEqual([run.outputs.problems, run.outputs["exit-code"]], ["0", "0"]);
  });

  test("fail-on-problems false and annotations false: the text report, the step passes, the outputs still tell", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, npm, ws, { paths: "flows", "fail-on-problems": "false", annotations: "false" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(annotations(run.stdout), []);
    assert.match(run.stdout, /^flows\/bad review\.lwir\.yaml:48:14 {2}error {2}model\.disallowed {2}/m);
    assert.equal(run.outputs["exit-code"], "1");
    assert.equal(run.outputs.problems, "4");
  });

  test("a path that cannot be read fails the step (exit 2) with an annotation; paths are data, never code", () => {
    const ws = makeWorkspace();
    const run = runAction(actionPath, npm, ws, { paths: "flows/good.lwir.json $(touch${IFS}pwned) missing", "fail-on-problems": "false" });
    assert.equal(run.status, 2);
    assert.equal(run.outputs["exit-code"], "2");
    const errors = annotations(run.stdout).filter((a) => a.props.title === "lwir");
    assert.deepEqual(errors.map((a) => a.message).sort(), ["cannot read $(touch${IFS}pwned): no such file or folder", "cannot read missing: no such file or folder"]);
    assert.equal(existsSync(join(ws, "pwned")), false);
  });
});
