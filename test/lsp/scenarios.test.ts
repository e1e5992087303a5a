// lwir/listScenarios and lwir/runScenarios through the built Node server (dist/server.js, `npm run build` first):
// what the Test Explorer (client/src/testExplorer.ts) asks. The examples' scenarios pass as under `lwir test`;
// unsaved text of the scenarios file or of its workflow wins over the disk; a failure comes with its line and
// the expected and actual values; an invalid or missing workflow is an error of every scenario, not a failure.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LIST_SCENARIOS_REQUEST, RUN_SCENARIOS_REQUEST, type ScenarioListResult, type ScenarioRunResult } from "../../server/src/protocol";
import { fileUri, LspClient } from "./harness";

const example = (name: string) => pathToFileURL(resolve("examples", name)).href;
const text = (name: string) => readFileSync(resolve("examples", name), "utf8");
/** The 0-based line of the first line of `text` that contains `needle`. */
const lineOf = (source: string, needle: string) => source.split("\n").findIndex((l) => l.includes(needle));

describe("the Test Explorer's requests over LSP", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: false }); });
  after(() => client.stop());

  test("listScenarios: names, lines and the workflow of an example's scenarios file, read from the disk", async () => {
    const listed: ScenarioListResult = await client.request(LIST_SCENARIOS_REQUEST, { uri: example("support-triage.lwir.test.yaml") });
    const source = text("support-triage.lwir.test.yaml");
    assert.equal(listed.error, undefined);
    assert.equal(listed.workflow, example("support-triage.lwir.yaml"));
    assert.deepEqual(listed.problems, []);
    assert.deepEqual(listed.scenarios.map((s) => [s.name, s.position.line]), [
      ["two tickets, one redrafted", lineOf(source, "- name: two tickets")],
      ["a reviewer who never approves runs the draft out of maxVisits", lineOf(source, "- name: a reviewer")],
      ["an empty queue still writes a hand-over note", lineOf(source, "- name: an empty queue")],
    ]);
  });

  test("runScenarios: every scenario of the examples passes; one scenario alone by name", async () => {
    for (const file of ["support-triage.lwir.test.yaml", "release-notes.lwir.test.yaml"]) {
      const ran: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: example(file) });
      assert.equal(ran.error, undefined, file);
      assert.ok(ran.scenarios.length >= 2, file);
      for (const s of ran.scenarios) assert.deepEqual([s.name, s.passed, s.failures, s.error], [s.name, true, [], undefined], file);
    }
    const one: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: example("support-triage.lwir.test.yaml"), scenario: "an empty queue still writes a hand-over note" });
    assert.deepEqual(one.scenarios.map((s) => [s.name, s.passed, s.status, s.steps]), [["an empty queue still writes a hand-over note", true, "completed", 3]]);
  });

  test("an unsaved edit of the scenarios file fails at the expectation's line with the expected and actual values", async () => {
    const uri = example("release-notes.lwir.test.yaml");
    const edited = text("release-notes.lwir.test.yaml").replace("steps: [list-merged, group-changes, write-notes]", "steps: [list-merged, write-notes]");
    client.open(uri, edited);
    try {
      const ran: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri });
      const [first, second] = ran.scenarios;
      assert.equal(first.passed, false);
      assert.equal(second.passed, true);
      assert.deepEqual(first.failures, [{
        expectation: "expect.steps", message: "the steps run differ",
        position: { line: lineOf(edited, "steps: [list-merged, write-notes]"), character: edited.split("\n")[lineOf(edited, "steps: [list-merged, write-notes]")].indexOf("steps") },
        expected: ["list-merged", "write-notes"], actual: ["list-merged", "group-changes", "write-notes"],
      }]);
    } finally {
      client.close(uri);
    }
  });

  test("an unsaved edit of the workflow wins over its file: the run fails where the edit makes it fail", async () => {
    const uri = example("release-notes.lwir.json");
    const edited = text("release-notes.lwir.json").replace('"output": {\n    "schema": {\n      "type": "string"\n    }', '"output": {\n    "schema": {\n      "type": "string",\n      "maxLength": 10\n    }');
    assert.notEqual(edited, text("release-notes.lwir.json"));
    client.open(uri, edited);
    try {
      const ran: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: example("release-notes.lwir.test.yaml") });
      assert.deepEqual(ran.scenarios.map((s) => s.passed), [false, true]);
      const [failure] = ran.scenarios[0].failures;
      assert.equal(failure.expectation, "run");
      assert.match(failure.message, /the run failed at write-notes: .*more than 10 characters/);
      assert.deepEqual(failure.position, ran.scenarios[0].position);
      assert.equal("expected" in failure, false);
    } finally {
      client.close(uri);
    }
    // Closed: the file again, which passes.
    const again: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: example("release-notes.lwir.test.yaml") });
    assert.deepEqual(again.scenarios.map((s) => s.passed), [true, true]);
  });

  test("an invalid workflow: every scenario is an error that says why, none a failure", async () => {
    const workflow = fileUri("bad.lwir.json");
    const scenarios = fileUri("bad.lwir.test.yaml");
    client.open(workflow, text("release-notes.lwir.json").replace(/("required": \[\s*)"sections"/, '$1"chapters"'));
    client.open(scenarios, text("release-notes.lwir.test.yaml"));
    try {
      const ran: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: scenarios });
      assert.equal(ran.workflow, workflow);
      assert.match(ran.error ?? "", /^bad\.lwir\.json 1 finding: the runtime would not register it/);
      assert.equal(ran.scenarios.length, 2);
      for (const s of ran.scenarios) assert.deepEqual([s.passed, s.failures, s.error], [false, [], ran.error]);
      client.change(workflow, 2, [{ text: "{ not json" }]);
      const unparsed: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: scenarios });
      assert.match(unparsed.error ?? "", /^bad\.lwir\.json does not parse/);
    } finally {
      client.close(workflow);
      client.close(scenarios);
    }
  });

  test("a missing workflow, a missing scenarios file, a scenarios file that does not parse", async () => {
    const scenarios = fileUri("alone.lwir.test.yaml");
    client.open(scenarios, "- name: first\n  expect: { output: 1 }\n- name: second\n");
    try {
      const listed: ScenarioListResult = await client.request(LIST_SCENARIOS_REQUEST, { uri: scenarios });
      assert.equal(listed.workflow, undefined);
      assert.deepEqual(listed.scenarios.map((s) => [s.name, s.position.line]), [["first", 0], ["second", 2]]);
      assert.match(listed.error ?? "", /no workflow beside it \(alone\.lwir\.yaml, alone\.lwir\.yml, alone\.lwir\.json\)/);
      const ran: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: scenarios, scenario: "second" });
      assert.deepEqual(ran.scenarios.map((s) => [s.name, s.passed, s.error]), [["second", false, listed.error]]);
      client.change(scenarios, 2, [{ text: "workflow: elsewhere/flow.lwir.yaml\nscenarios: []\n" }]);
      const declared: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: scenarios });
      assert.match(declared.error ?? "", /the workflow elsewhere\/flow\.lwir\.yaml \(its workflow: key\) is not found/);
      client.change(scenarios, 3, [{ text: "scenarios: [\n" }]);
      const broken: ScenarioRunResult = await client.request(RUN_SCENARIOS_REQUEST, { uri: scenarios });
      assert.match(broken.error ?? "", /^alone\.lwir\.test\.yaml: \d+:\d+: /);
      assert.deepEqual(broken.scenarios, []);
    } finally {
      client.close(scenarios);
    }
    const gone: ScenarioListResult = await client.request(LIST_SCENARIOS_REQUEST, { uri: example("gone.lwir.test.yaml") });
    assert.deepEqual([gone.error, gone.scenarios], ["gone.lwir.test.yaml: not found", []]);
  });
});
