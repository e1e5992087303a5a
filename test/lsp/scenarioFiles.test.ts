// Scenarios files in the language server (run `npm run build` first): NAME.lwir.test.yaml / .json beside a
// workflow get diagnostics of their own (lwir.scenario_*), completion and quick fixes, never a workflow's
// diagnostics; the workflow is the open document when it is open (its unsaved text wins), else the file.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parse as parseYaml } from "yaml";
import { LspClient, cursor, offsetAt, type Diagnostic } from "./harness";

const WORKFLOW_YAML = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: tickets
input:
  schema:
    type: object
    required: [ticket]
    properties:
      ticket: { type: string }
output:
  schema: { type: string }
permissions:
  models: [gpt-4o-mini]
steps:
  - id: classify
    uses: ai.generate
    with: { model: gpt-4o-mini, prompt: "Classify {{ input.ticket }}" }
    output: { mode: choice, values: [bug, question] }
  - id: extract
    uses: ai.generate
    needs: [classify]
    with: { model: gpt-4o-mini, prompt: "Extract {{ input.ticket }}" }
    output:
      mode: json
      schema:
        type: object
        required: [title, priority]
        properties:
          title: { type: string }
          priority: { type: integer }
  - id: route
    uses: decision
    needs: [extract]
    with:
      cases:
        - when: "{{ steps.classify.output == 'bug' }}"
          to: file_bug
      default: answer
  - id: file_bug
    uses: ai.generate
    with: { model: gpt-4o-mini, prompt: "File {{ steps.extract.output.title }}" }
    output: { mode: text }
  - id: answer
    uses: ai.generate
    with: { model: gpt-4o-mini, prompt: Answer }
    output: { mode: text }
`;

/** A scenarios file that uses every part, each correctly: no diagnostics. */
const GOOD_YAML = `scenarios:
  - name: a bug
    input: { ticket: The app crashes }
    outputs:
      classify: bug
      extract: { title: Crash, priority: 1 }
      file_bug: Filed.
    expect:
      steps: [classify, extract, route, file_bug]
      chosen: { route: file_bug }
      output: Filed.
  - name: an extraction without priority is refused
    input: { ticket: Hm }
    outputs:
      extract: { title: Hm }
    expect:
      error: { step: extract, message: priority }
`;

const json = (yamlText: string) => JSON.stringify(parseYaml(yamlText), null, 2) + "\n";
const codes = (items: Diagnostic[]) => items.map((d) => String(d.code)).sort();

describe("scenarios files in the server", () => {
  let tmp: string;
  let uri: (name: string) => string;
  let client: LspClient;
  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), "lwir-lsp-scenarios-"));
    writeFileSync(join(tmp, "tickets.lwir.yaml"), WORKFLOW_YAML);
    writeFileSync(join(tmp, "other.lwir.json"), json(WORKFLOW_YAML));
    uri = (name) => pathToFileURL(join(tmp, name)).href;
    client = await LspClient.start({ pull: true, initializationOptions: { settings: { validation: { delay: 0 } } }, timeout: 15000 });
  });
  after(async () => {
    await client.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Opens a scenarios text under a new name beside `workflow` (tickets or other) and pulls its diagnostics. */
  async function diagnose(text: string, format: "yaml" | "json", workflow = "tickets"): Promise<{ items: Diagnostic[]; text: string; uri: string }> {
    // The workflow is found by name: NAME.lwir.test.* beside NAME.lwir.*; other names say `workflow:`.
    const name = `${workflow}.lwir.test.${format}`;
    const u = uri(name);
    client.open(u, text);
    const report = await client.pullDiagnostics(u);
    client.close(u);
    return { items: report.items ?? [], text, uri: u };
  }
  const textOf = (text: string, d: Diagnostic) => text.slice(offsetAt(text, d.range.start), offsetAt(text, d.range.end));

  test("the examples' scenarios files and a file using every part correctly have no diagnostics", async () => {
    const examples = resolve("examples");
    const files = readdirSync(examples).filter((f) => /\.lwir\.test\.(ya?ml|json)$/.test(f));
    assert.ok(files.length >= 2, "examples/ has scenarios files");
    for (const file of files) {
      const u = pathToFileURL(join(examples, file)).href;
      client.open(u, readFileSync(join(examples, file), "utf8"));
      const report = await client.pullDiagnostics(u);
      client.close(u);
      assert.deepEqual(report.items, [], file);
    }
    assert.deepEqual((await diagnose(GOOD_YAML, "yaml")).items, []);
    assert.deepEqual((await diagnose(json(GOOD_YAML), "json")).items, []);
  });

  for (const format of ["yaml", "json"] as const) {
    const as = (yamlText: string) => (format === "yaml" ? yamlText : json(yamlText));

    test(`${format}: the file's shape (lwir.scenario_invalid), placed on the node, with near misses`, async () => {
      const { items, text } = await diagnose(as(`scenarios:
  - name: one
    outputs: { classify: bug }
    expect: { steps: classify, chosen: { route: 3 }, eror: x }
    colour: blue
  - name: one
  - outputs: {}
`), format);
      assert.ok(items.every((d) => d.code === "lwir.scenario_invalid"), JSON.stringify(items));
      const shown = items.map((d) => textOf(text, d).replace(/"/g, ""));
      for (const expected of ["eror", "colour", "classify", "3", "one"]) assert.ok(shown.includes(expected), `${expected} in ${JSON.stringify(shown)}`);
      assert.ok(items.some((d) => /Did you mean "error"\?/.test((d.message as string))));
      assert.ok(items.some((d) => /required property 'name'|must have property "name"/.test((d.message as string))), JSON.stringify(items.map((d) => (d.message as string))));
      // the list alone at the top is a scenarios file too
      assert.deepEqual((await diagnose(as(`- name: alone\n  outputs: { classify: question }\n`), format)).items, []);
    });

    test(`${format}: no workflow beside it (lwir.scenario_no_workflow); a workflow key finds another name`, async () => {
      const missing = await diagnose(as(`scenarios:\n  - name: one\n`), format, "nothing");
      assert.deepEqual(codes(missing.items), ["lwir.scenario_no_workflow"]);
      const named = await diagnose(as(`workflow: other.lwir.json\nscenarios:\n  - name: one\n    outputs: { classify: bug }\n`), format, "nothing");
      assert.deepEqual(named.items, []);
      const wrong = await diagnose(as(`workflow: gone.lwir.yaml\nscenarios:\n  - name: one\n`), format, "nothing");
      assert.deepEqual(codes(wrong.items), ["lwir.scenario_no_workflow"]);
      assert.equal(textOf(wrong.text, wrong.items[0]).replace(/"/g, ""), "gone.lwir.yaml");
    });

    test(`${format}: unknown steps and targets (outputs, expect.steps, expect.chosen, expect.error.step)`, async () => {
      const { items, text } = await diagnose(as(`scenarios:
  - name: one
    outputs: { clasify: bug, answer: Hi }
    expect:
      steps: [classify, extract, rout, answer]
      chosen: { route: answr, classify: bug, nowhere: x }
  - name: two
    expect:
      error: { step: extrct }
`), format);
      const found = items.map((d) => `${String(d.code)} ${textOf(text, d).replace(/"/g, "")}`).sort();
      assert.deepEqual(found, [
        "lwir.scenario_unknown_step clasify",
        "lwir.scenario_unknown_step classify", // not a decision
        "lwir.scenario_unknown_step extrct",
        "lwir.scenario_unknown_step nowhere",
        "lwir.scenario_unknown_step rout",
        "lwir.scenario_unknown_target answr",
      ]);
      const clasify = items.find((d) => textOf(text, d).includes("clasify"))!;
      assert.match(clasify.message as string, /Did you mean "classify"\?/);
      assert.match(items.find((d) => d.code === "lwir.scenario_unknown_target")!.message as string, /Did you mean "answer"\?/);
      // the quick fix puts the suggestion in place of the name
      client.open(`${uri(`tickets.lwir.test.${format}`)}`, text);
      const actions = await client.request("textDocument/codeAction", {
        textDocument: { uri: uri(`tickets.lwir.test.${format}`) }, range: clasify.range, context: { diagnostics: [clasify], only: ["quickfix"] },
      });
      client.close(uri(`tickets.lwir.test.${format}`));
      assert.equal(actions.length, 1);
      const edit = actions[0].edit.changes[uri(`tickets.lwir.test.${format}`)][0];
      assert.equal(edit.newText, format === "json" ? '"classify"' : "classify");
      assert.deepEqual(edit.range, clasify.range);
    });

    test(`${format}: samples against the declared output, and the input against input.schema`, async () => {
      const { items, text } = await diagnose(as(`scenarios:
  - name: one
    input: { ticket: 42 }
    outputs:
      classify: feature
      extract: { title: Crash }
      answer: { text: Hi }
  - name: near misses
    input: { ticket: fine }
    outputs:
      classify: question
      extract: { title: Crash, priority: 2, extra: ok }
      answer: Hi
`), format);
      const found = items.map((d) => `${String(d.code)} ${textOf(text, d).replace(/[\s"]/g, "")}`).sort();
      // an object is marked at its key, a scalar at its value (as everywhere in the editor)
      assert.deepEqual(found, [
        "lwir.scenario_input_mismatch 42",
        "lwir.scenario_output_mismatch answer",
        "lwir.scenario_output_mismatch extract",
        "lwir.scenario_output_mismatch feature",
      ], JSON.stringify(items.map((d) => (d.message as string))));
      assert.match(items.find((d) => textOf(text, d).includes("feature"))!.message as string, /one of output\.values \("bug", "question"\)/);
      assert.match(items.find((d) => textOf(text, d).includes("extract"))!.message as string, /priority/);
      assert.match(items.find((d) => d.code === "lwir.scenario_input_mismatch")!.message as string, /input\.ticket must be string/);
    });
  }

  test("a scenarios file is never a workflow: no workflow diagnostics, even with an apiVersion", async () => {
    const { items } = await diagnose(`apiVersion: littleworkflow.dev/v0.1\nscenarios:\n  - name: one\n`, "yaml");
    assert.deepEqual(codes(items), ["lwir.scenario_invalid"]);
  });

  test("rule levels: lwir.lint.rules turns a scenario rule off or changes its severity", async () => {
    const quiet = await LspClient.start({ pull: true, initializationOptions: { settings: { validation: { delay: 0 }, lint: { rules: { "lwir.scenario_unknown_step": "off", "lwir.scenario_output_mismatch": "error" } } } } });
    try {
      const u = uri("tickets.lwir.test.yaml");
      quiet.open(u, `- name: one\n  outputs: { clasify: bug, classify: feature }\n`);
      const report = await quiet.pullDiagnostics(u);
      assert.deepEqual(report.items!.map((d) => [d.code, d.severity]), [["lwir.scenario_output_mismatch", 1]]);
    } finally {
      await quiet.stop();
    }
  });

  test("the editor's unsaved workflow text wins over the file on disk", async () => {
    const flow = uri("tickets.lwir.yaml");
    const scenarios = uri("tickets.lwir.test.yaml");
    const text = `- name: one\n  outputs: { escalate: Escalated., classify: bug }\n`;
    client.open(scenarios, text);
    assert.deepEqual(codes((await client.pullDiagnostics(scenarios)).items!), ["lwir.scenario_unknown_step"]);
    // the open workflow has a step the file does not have, and classify is no longer a choice
    const edited = WORKFLOW_YAML.replace("    output: { mode: choice, values: [bug, question] }", "    output: { mode: choice, values: [urgent, later] }")
      + "  - id: escalate\n    uses: ai.generate\n    with: { model: gpt-4o-mini, prompt: Escalate }\n    output: { mode: text }\n";
    client.open(flow, edited);
    const withOpen = (await client.pullDiagnostics(scenarios)).items!;
    assert.deepEqual(codes(withOpen), ["lwir.scenario_output_mismatch"], JSON.stringify(withOpen));
    client.close(flow);
    assert.deepEqual(codes((await client.pullDiagnostics(scenarios)).items!), ["lwir.scenario_unknown_step"]);
    client.close(scenarios);
  });

  test("push: a change of the open workflow checks the scenarios file beside it again", async () => {
    const push = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } });
    try {
      const flow = uri("tickets.lwir.yaml");
      const scenarios = uri("tickets.lwir.test.yaml");
      push.open(flow, WORKFLOW_YAML);
      push.open(scenarios, `- name: one\n  outputs: { escalate: Escalated. }\n`);
      await push.waitForDiagnostics(scenarios, { predicate: (d) => d.length === 1 && d[0].code === "lwir.scenario_unknown_step" });
      const seq = push.seq;
      push.edit(flow, WORKFLOW_YAML, WORKFLOW_YAML + "  - id: escalate\n    uses: ai.generate\n    with: { model: gpt-4o-mini, prompt: Escalate }\n    output: { mode: text }\n");
      await push.waitForDiagnostics(scenarios, { after: seq, predicate: (d) => d.length === 0 });
    } finally {
      await push.stop();
    }
  });

  describe("completion", () => {
    async function complete(textWithCursor: string, format: "yaml" | "json"): Promise<{ labels: string[]; items: any[]; text: string }> {
      const { text, position } = cursor(textWithCursor);
      const u = uri(`tickets.lwir.test.${format}`);
      client.open(u, text);
      const result = await client.request("textDocument/completion", { textDocument: { uri: u }, position, context: { triggerKind: 1 } });
      client.close(u);
      const items = (Array.isArray(result) ? result : result?.items ?? []) as any[];
      return { labels: items.map((i) => i.label), items, text };
    }

    test("yaml: keys of a scenario and of expect", async () => {
      assert.deepEqual((await complete("scenarios:\n  - name: one\n    |\n", "yaml")).labels, ["input", "outputs", "expect"]);
      assert.deepEqual((await complete("scenarios:\n  - name: one\n    expect:\n      steps: []\n      |\n", "yaml")).labels, ["chosen", "output", "error"]);
      assert.deepEqual((await complete("scenarios:\n  - name: one\n    expect:\n      error:\n        |\n", "yaml")).labels, ["step", "message"]);
    });

    test("yaml: step ids under outputs, decisions under expect.chosen, targets as their values", async () => {
      assert.deepEqual((await complete("scenarios:\n  - name: one\n    outputs:\n      classify: bug\n      |\n", "yaml")).labels, ["extract", "file_bug", "answer"]);
      assert.deepEqual((await complete("scenarios:\n  - name: one\n    expect:\n      chosen:\n        |\n", "yaml")).labels, ["route"]);
      assert.deepEqual((await complete("scenarios:\n  - name: one\n    expect:\n      chosen:\n        route: |\n", "yaml")).labels, ["file_bug", "answer"]);
      assert.deepEqual((await complete("scenarios:\n  - name: one\n    expect:\n      steps: [classify, |]\n", "yaml")).labels, ["classify", "extract", "route", "file_bug", "answer"]);
    });

    test("yaml: a sample: the choice values, or a skeleton of the json output from its schema", async () => {
      assert.deepEqual((await complete("scenarios:\n  - name: one\n    outputs:\n      classify: |\n", "yaml")).labels, ["bug", "question"]);
      const skeleton = await complete("scenarios:\n  - name: one\n    outputs:\n      extract: |\n", "yaml");
      assert.equal(skeleton.items.length, 1);
      const sample = JSON.parse(skeleton.items[0].textEdit.newText);
      assert.equal(typeof sample.title, "string");
      assert.equal(typeof sample.priority, "number");
    });

    test("json: keys, step ids and targets inside quotes", async () => {
      assert.deepEqual((await complete('{"scenarios": [{"name": "one", "|"}]}', "json")).labels, ["input", "outputs", "expect"]);
      const ids = await complete('{"scenarios": [{"name": "one", "outputs": {"|"}}]}', "json");
      assert.deepEqual(ids.labels, ["classify", "extract", "file_bug", "answer"]);
      assert.equal(ids.items[0].textEdit.newText, "classify");
      assert.deepEqual((await complete('{"scenarios": [{"name": "one", "expect": {"chosen": {"route": "|"}}}]}', "json")).labels, ["file_bug", "answer"]);
      assert.deepEqual((await complete('{"scenarios": [{"name": "one", "outputs": {"classify": "|"}}]}', "json")).labels, ["bug", "question"]);
      const skeleton = await complete('{"scenarios": [{"name": "one", "outputs": {"extract": |}}]}', "json");
      assert.deepEqual(Object.keys(JSON.parse(skeleton.items[0].textEdit.newText)).sort(), ["priority", "title"]);
    });
  });
});
