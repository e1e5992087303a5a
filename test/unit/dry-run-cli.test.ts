// Scenarios files, `lwir run --dry` and `lwir test` (the built dist/cli.js; `npm test` builds it first), and
// every valid document of the corpora and examples/ dry-run with generated samples without a crash of ours.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Ajv from "ajv";
import { parseArgs } from "../../server/src/cli/args";
import { parseDocument } from "../../server/src/document/document";
import { readScenarios, runScenario, generatedInput } from "../../server/src/run/scenarios";
import { simulate } from "../../server/src/run/simulate";
import { explore } from "../../server/src/run/explore";
import { CONFORMANCE, REALWORLD, corpusCases } from "../corpus";

const CLI = resolve("dist/cli.js");
const lwir = (args: string[], cwd = process.cwd()) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd });

const WORKFLOW = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata: { name: t, version: "1" }
input: { schema: { type: object, required: [text], properties: { text: { type: string } } } }
output: { schema: { type: string } }
permissions: { models: [m], tools: [], secrets: [], network: [] }
steps:
  - id: classify
    uses: ai.generate
    with: { model: m, prompt: "Classify {{ input.text }}" }
    output: { mode: choice, values: [bug, other] }
  - id: route
    uses: decision
    needs: [classify]
    with:
      cases:
        - when: "{{ steps.classify.output == \\"bug\\" }}"
          to: fix
      default: answer
  - id: fix
    uses: ai.generate
    with: { model: m }
    output: { mode: text }
  - id: answer
    uses: ai.generate
    with: { model: m }
    output: { mode: text }
`;

const SCENARIOS = `scenarios:
  - name: a bug
    input: { text: crash }
    outputs: { classify: bug, fix: patched }
    expect:
      steps: [classify, route, fix]
      chosen: { route: fix }
      output: patched
  - name: wrong expectation
    input: { text: hello }
    outputs: { classify: other }
    expect:
      chosen:
        route: fix
`;

function tempProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "lwir-dry-"));
  writeFileSync(join(dir, "flow.lwir.yaml"), WORKFLOW);
  writeFileSync(join(dir, "flow.lwir.test.yaml"), SCENARIOS);
  return dir;
}

describe("scenarios files", () => {
  test("scenarios are read with their positions; an expectation that fails is reported at its line", () => {
    const doc = parseDocument(SCENARIOS, "yaml");
    const file = readScenarios(doc);
    assert.deepEqual(file.problems, []);
    assert.deepEqual(file.scenarios.map((s) => [s.name, s.position.line]), [["a bug", 1], ["wrong expectation", 8]]);
    const workflow = parseDocument(WORKFLOW, "yaml").value;
    const ok = runScenario(workflow, file.scenarios[0], doc);
    assert.deepEqual(ok.failures, []);
    const bad = runScenario(workflow, file.scenarios[1], doc);
    assert.equal(bad.failures.length, 1);
    assert.equal(bad.failures[0].what, "expect.chosen.route");
    assert.deepEqual([bad.failures[0].expected, bad.failures[0].actual], ["fix", "answer"]);
    assert.equal(bad.failures[0].position.line, 13, "the line of `route: fix`");
  });

  test("unknown keys, a missing name and a wrong shape are problems at their lines", () => {
    const doc = parseDocument("scenarios:\n  - input: {}\n    expects: {}\n  - name: x\n    expect: { step: [] }\n", "yaml");
    const file = readScenarios(doc);
    assert.deepEqual(file.problems.map((p) => [p.position.line, p.message]), [
      [2, "Unknown scenario key 'expects' (expected name, input, outputs, expect)."],
      [1, "A scenario needs a name (a non-empty string)."],
      [4, "Unknown expectation 'step' (expected steps, chosen, output, error)."],
    ]);
  });

  test("expect.error: the step path (or its id) and a part of either wording", () => {
    const doc = parseDocument([
      "- name: runtime's words", "  input: {}", "  expect: { error: { message: required property 'text' } }",
      "- name: ours", "  input: {}", "  expect: { error: { message: must have property \"text\" } }",
      "- name: wrong step", "  input: {}", "  expect: { error: { step: classify } }",
      "- name: at a step", "  input: { text: x }", "  outputs: { classify: nope }", "  expect: { error: { step: classify, message: output.values } }",
    ].join("\n"), "yaml");
    const workflow = parseDocument(WORKFLOW, "yaml").value;
    const results = readScenarios(doc).scenarios.map((s) => runScenario(workflow, s, doc));
    assert.deepEqual(results.map((r) => r.trace.status), ["failed", "failed", "failed", "failed"]);
    assert.deepEqual(results.map((r) => r.failures.map((f) => `${f.position.line}: ${f.message}`)), [[], [], ["8: the run failed at another step"], []]);
  });

  test("schemas/lwir-test.schema.json accepts the examples' scenarios files and refuses a misspelt expectation", () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync("schemas/lwir-test.schema.json", "utf8")) as object);
    for (const file of ["examples/support-triage.lwir.test.yaml", "examples/release-notes.lwir.test.yaml"]) {
      assert.ok(validate(parseDocument(readFileSync(file, "utf8"), "yaml").value), `${file}: ${ajv.errorsText(validate.errors)}`);
    }
    assert.equal(validate(parseDocument(SCENARIOS, "yaml").value), true);
    assert.equal(validate([{ name: "x", expect: { step: [] } }]), false);
    assert.equal(validate({ scenarios: [{ input: {} }] }), false);
  });

  test("no scenarios file: the input is generated from input.schema", () => {
    assert.deepEqual(generatedInput({ input: { schema: { type: "object", required: ["q"], properties: { q: { type: "string" }, n: { type: "integer", minimum: 2 }, list: { type: "array", items: { type: "boolean" } } } } } }), { q: "q", n: 2, list: [false] });
    assert.deepEqual(generatedInput({}), {});
  });
});

describe("the CLI", () => {
  test("arguments of run and test", () => {
    assert.deepEqual(parseArgs(["run", "--dry", "f.lwir.yaml", "--scenario", "s", "--format", "json"]), { kind: "run", file: "f.lwir.yaml", format: "json", explore: false, scenario: "s" });
    assert.equal(parseArgs(["run", "f.lwir.yaml"]).kind, "usage-error");
    assert.equal(parseArgs(["run", "--dry", "--format", "junit", "f"]).kind, "usage-error");
    assert.deepEqual(parseArgs(["test", "--format", "junit"]), { kind: "test", paths: [], format: "junit" });
    assert.equal(parseArgs(["test", "--fix"]).kind, "usage-error");
  });

  test("lwir test examples passes (every scenario of the examples' scenarios files)", () => {
    const r = lwir(["test", "examples"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /\n5 scenarios in 2 files: 5 passed, 0 failed\n$/);
  });

  test("a failing expectation: exit 1, reported at file:line:column, in text, JSON and JUnit XML", () => {
    const dir = tempProject();
    try {
      const text = lwir(["test"], dir);
      assert.equal(text.status, 1, text.stderr);
      assert.match(text.stdout, /✓ a bug \(3 steps, completed\)/);
      assert.match(text.stdout, /✗ wrong expectation/);
      assert.match(text.stdout, /flow\.lwir\.test\.yaml:14:9: expect\.chosen\.route: decision 'route' chose otherwise\n {6}expected: "fix"\n {6}actual: {3}"answer"/);
      const json = JSON.parse(lwir(["test", "--format", "json", "flow.lwir.yaml"], dir).stdout);
      assert.deepEqual(json.summary, { passed: 1, failed: 1, errors: 0 });
      assert.deepEqual(json.files[0].scenarios[1].failures[0].line, 14);
      const junit = lwir(["test", "--format", "junit", "."], dir);
      assert.equal(junit.status, 1);
      assert.match(junit.stdout, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="lwir test" tests="2" failures="1" errors="0">/);
      assert.match(junit.stdout, /<testcase name="wrong expectation" classname="flow\.lwir\.test\.yaml" file="flow\.lwir\.test\.yaml" line="9">\n {6}<failure message="expect\.chosen\.route: decision &apos;route&apos; chose otherwise|<failure message="expect\.chosen\.route: decision 'route' chose otherwise/);
      const one = lwir(["test", "--scenario", "a bug"], dir);
      assert.equal(one.status, 0, one.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a folder without scenarios files is exit 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "lwir-dry-"));
    try {
      const r = lwir(["test", "."], dir);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /no \*\.lwir\.test\.yaml/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("lwir run --dry prints the trace with the exact user message; --input; --format json; exit 1 where the run fails", () => {
    const dir = tempProject();
    try {
      const r = lwir(["run", "--dry", "flow.lwir.yaml", "--scenario", "a bug"], dir);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /user {3}│Classify crash\n {14}│\n {14}│Input:\n {14}│\{\n {14}│ {2}"text": "crash"\n {14}│\}\n/);
      assert.match(r.stdout, /chose fix \(case 0\)/);
      writeFileSync(join(dir, "in.json"), "{\"other\": 1}");
      const failed = lwir(["run", "--dry", "flow.lwir.yaml", "--input", "in.json", "--format", "json"], dir);
      assert.equal(failed.status, 1);
      const trace = JSON.parse(failed.stdout);
      assert.equal(trace.status, "failed");
      assert.equal(trace.error.cause, "input_schema_error");
      assert.equal(trace.error.message, 'The workflow input does not match input.schema: input must have property "text".');
      assert.deepEqual(trace.steps, []);
      const unknown = lwir(["run", "--dry", "flow.lwir.yaml", "--scenario", "nope"], dir);
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /no scenario named "nope" \(it has "a bug", "wrong expectation"\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("lwir run --dry --explore: every decision outcome, the failing paths and the steps never reached", () => {
    const x = explore(parseDocument(WORKFLOW, "yaml").value, { input: { text: "t" } });
    assert.deepEqual(x.paths.map((p) => [p.choices.map((c) => `${c.decision}=${c.value}`), p.status]), [[["route=fix"], "completed"], [["route=answer"], "completed"]]);
    assert.deepEqual(x.unreached, []);
    const dir = tempProject();
    try {
      const r = lwir(["run", "--dry", "--explore", "flow.lwir.yaml"], dir);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^Explored flow\.lwir\.yaml: 2 paths\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("every valid document dry-runs with generated samples, without a crash of ours", () => {
  const valid = [...corpusCases(REALWORLD), ...corpusCases(CONFORMANCE)].filter((c) => c.label.valid);
  const examples = ["examples/release-notes.lwir.json", "examples/support-triage.lwir.yaml"];
  test(`${valid.length} corpus documents and the examples`, () => {
    assert.ok(valid.length > 80);
    const failing: Array<[string, string]> = [];
    for (const file of [...valid.map((c) => c.file), ...examples]) {
      const value = parseDocument(readFileSync(file, "utf8"), file.endsWith(".json") ? "json" : "yaml").value;
      const trace = simulate(value, { input: generatedInput(value) });
      assert.ok(trace.status === "completed" || trace.error !== undefined, file);
      assert.ok(trace.steps.length > 0 || trace.status === "failed", file);
      JSON.stringify(trace); // plain data
      if (trace.status === "failed") failing.push([file, trace.error!.runtime ?? trace.error!.message]);
      explore(value, { input: generatedInput(value) }, 50);
    }
    // The runs that fail are the documents' (or the generated samples'; docs/dry-run.md lists them): each stops
    // with one of the runtime's own errors, none with an exception of ours.
    const known = /^(Terminal step '.*' output mode '.*' is incompatible|Expression '.*' could not be resolved at|Expression references incomplete step|Completed run is missing a final output artifact\.|Workflow output does not match schema|Step '.*' has reached its maxVisits cap of)/;
    for (const [file, runtime] of failing) assert.match(runtime, known, file);
    assert.equal(failing.length, 69, "docs/dry-run.md (The corpora, dry-run with generated samples) lists them: update it with this count");
  });
});
