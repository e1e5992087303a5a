// "LWIR: Dry run" over LSP (built server): the `lwir/dryRun` request answers the trace that
// `lwir run --dry --format json` prints for the same files (the first scenario of the scenarios file beside
// the workflow, else the generated input and samples; or the scenario the request names, which stays the
// document's current one), the same text, and the graph view's overlay; the editor's unsaved text is what
// runs; a workflow with problems has no dry run. Files go to a temporary folder.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { runDry } from "../../server/src/cli/dryrun";
import { DRY_RUN_REQUEST, PREVIEW_PROMPT_REQUEST, type DryRunResult, type PromptPreview } from "../../server/src/protocol";
import { LspClient } from "./harness";

const EXAMPLES = resolve("examples");

/** `lwir run --dry --format json FILE [--scenario NAME]`, parsed. */
function cli(file: string, scenario?: string): { code: number; json: Record<string, unknown>; text: string } {
  const json = runDry({ file, format: "json", explore: false, ...(scenario !== undefined ? { scenario } : {}) });
  const text = runDry({ file, format: "text", explore: false, ...(scenario !== undefined ? { scenario } : {}) });
  assert.equal(json.stderr, "");
  return { code: json.code, json: JSON.parse(json.stdout), text: text.stdout };
}

const report = (r: DryRunResult | null): Exclude<DryRunResult, { error: string }> => {
  assert.ok(r, "an answer");
  if ("error" in r) assert.fail(`no dry run: ${r.error}`);
  return r;
};

describe("lwir/dryRun: LWIR: Dry run over LSP", () => {
  let client: LspClient;
  let dir: string;
  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
  const dryRun = (uri: string): Promise<DryRunResult | null> => client.request(DRY_RUN_REQUEST, { textDocument: { uri } });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "lwir-dry-command-"));
    for (const name of ["support-triage.lwir.yaml", "support-triage.lwir.test.yaml", "release-notes.lwir.json"]) copyFileSync(join(EXAMPLES, name), join(dir, name));
    client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } });
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("with a scenarios file: the first scenario's trace, exactly the CLI's JSON, its text, and the overlay (runs, chosen cases)", async () => {
    const name = "support-triage.lwir.yaml";
    const uri = uriOf(name);
    client.open(uri, readFileSync(join(dir, name), "utf8"));
    const r = report(await dryRun(uri));
    const { code, json, text } = cli(join(dir, name), "two tickets, one redrafted");
    assert.equal(code, 0);
    const { file: _file, input, inputFrom, ...trace } = json;
    assert.deepEqual(r.trace, trace);
    assert.deepEqual([r.input, r.inputFrom], [input, inputFrom]);
    assert.equal(r.scenario, 'scenario "two tickets, one redrafted" (support-triage.lwir.test.yaml)');
    assert.equal(r.generated, false);
    assert.equal(r.version, 1);
    assert.deepEqual(r.scenarios, ["two tickets, one redrafted", "a reviewer who never approves runs the draft out of maxVisits", "an empty queue still writes a hand-over note"]);
    assert.equal(r.scenarioName, "two tickets, one redrafted");
    // the text is the CLI's, from the step list on (the title names the scenario the editor's way)
    const body = (t: string) => t.slice(t.indexOf("\n  1. "));
    assert.ok(r.text.includes(body(text).trimEnd()), "the CLI's trace text is in the document");
    assert.match(r.text, /every step was reached\n$/);
    const steps = new Map(r.overlay.steps.map((s) => [s.step, s]));
    assert.deepEqual([...steps.keys()], ["fetch-queue", "triage", "triage.draft", "triage.review", "triage.route", "handover"]);
    assert.deepEqual(["triage.draft", "triage.route", "handover"].map((k) => steps.get(k)!.runs), [3, 3, 1]);
    assert.deepEqual(steps.get("triage.route")!.chosen!.map((c) => [c.to ?? "end", c.runs, c.byDefault]), [["end", 2, false], ["triage.draft", 1, true]]);
    assert.deepEqual(r.overlay.unreached, []);
  });

  test("the editor's unsaved text runs: a misspelt property typed (not saved) fails the step that reads it, at its position", async () => {
    const name = "support-triage.lwir.yaml";
    const uri = uriOf(name);
    const version = client.edit(uri, "steps.review.lastOutput.approved", "steps.review.lastOutput.aproved");
    const r = report(await dryRun(uri));
    assert.equal(r.version, version);
    assert.equal(readFileSync(join(dir, name), "utf8").includes("aproved"), false, "the disk still has the saved text");
    // the branch's failure is the route step's, with the expression and the place in the step
    const failed = r.overlay.steps.filter((s) => s.failed);
    assert.deepEqual(failed.map((s) => [s.step, s.failed!.path, s.failed!.at, s.failed!.expression]),
      [["triage.route", "triage[T-1].route.visit[0]", "with.cases[0].when", "steps.review.lastOutput.aproved"]]);
    assert.match(r.text, /error \(with\.cases\[0\]\.when\): /);
    client.close(uri);
  });

  test("no scenarios file: the generated input and samples, as `lwir run --dry FILE`, and the answer says so", async () => {
    const name = "release-notes.lwir.json";
    const uri = uriOf(name);
    client.open(uri, readFileSync(join(dir, name), "utf8"));
    const r = report(await dryRun(uri));
    const { json } = cli(join(dir, name));
    const { file: _file, input, inputFrom, ...trace } = json;
    assert.deepEqual(r.trace, trace);
    assert.deepEqual([r.input, r.inputFrom], [input, inputFrom]);
    assert.equal(r.generated, true);
    assert.equal(r.scenario, "the generated input");
    assert.deepEqual([r.scenarios, r.scenarioName], [[], null]);
    assert.match(r.text, /No scenario: the input is generated from input\.schema and every step's output is a generated sample/);
    assert.ok(r.trace.steps.every((s) => s.sample !== "given"));
  });

  test("a scenario chosen by name runs as `lwir run --dry --scenario NAME` and stays current (next run, prompt previews) until the document closes; null: the generated input; a name gone: the first, said", async () => {
    const name = "support-triage.lwir.yaml";
    const uri = uriOf(name);
    client.open(uri, readFileSync(join(dir, name), "utf8"));
    const chosen = "an empty queue still writes a hand-over note";
    const run = (scenario?: string | null): Promise<DryRunResult | null> => client.request(DRY_RUN_REQUEST, { textDocument: { uri }, ...(scenario !== undefined ? { scenario } : {}) });
    const preview = (): Promise<PromptPreview> => client.request(PREVIEW_PROMPT_REQUEST, { textDocument: { uri }, stepPath: "triage.draft" });
    const r = report(await run(chosen));
    const { json } = cli(join(dir, name), chosen);
    const { file: _file, input: _input, inputFrom: _from, ...trace } = json;
    assert.deepEqual(r.trace, trace);
    assert.equal(r.scenarioName, chosen);
    assert.equal(r.scenario, `scenario "${chosen}" (support-triage.lwir.test.yaml)`);
    // no scenario in the request: the chosen one is still current, for the run and for the prompt preview
    const again = report(await run());
    assert.deepEqual([again.scenarioName, again.trace], [chosen, trace]);
    assert.equal((await preview()).scenario, `scenario "${chosen}" (support-triage.lwir.test.yaml)`);
    // null: the generated input, as `lwir run --dry FILE`
    const generated = report(await run(null));
    const plain = cli(join(dir, name)).json;
    assert.deepEqual(generated.trace, (({ file: _f, input: _i, inputFrom: _g, ...t }) => t)(plain));
    assert.deepEqual([generated.scenarioName, generated.generated], [null, true]);
    assert.match(generated.scenario, /^the generated input \(chosen instead of support-triage\.lwir\.test\.yaml's scenarios\)$/);
    assert.equal(generated.scenarios.length, 3, "the scenarios are still listed, to pick another");
    // a name the file does not have (renamed since): the first scenario, and the label says so
    const gone = report(await run("renamed since"));
    assert.equal(gone.scenarioName, "two tickets, one redrafted");
    assert.match(gone.scenario, /it has no scenario "renamed since" any more\)$/);
    // closed and opened again: the choice is forgotten, the first scenario is current
    await run(chosen);
    client.close(uri);
    client.open(uri, readFileSync(join(dir, name), "utf8"));
    assert.equal(report(await run()).scenarioName, "two tickets, one redrafted");
    client.close(uri);
  });

  test("a workflow with problems has no dry run (the answer says why); not an open LWIR document: null; no uri: an error", async () => {
    const uri = uriOf("broken.lwir.yaml");
    const text = "apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\nmetadata: {name: b, version: '1'}\nsteps:\n  - id: a\n    uses: ai.generate\n    needs: [nope]\n    with: {model: m, prompt: p}\n";
    writeFileSync(join(dir, "broken.lwir.yaml"), text);
    client.open(uri, text);
    const r = await dryRun(uri);
    assert.ok(r && "error" in r, "an error answer");
    assert.match(r.error, /^No dry run: the workflow has \d+ problems?/);
    assert.equal(await dryRun(uriOf("not-open.lwir.yaml")), null);
    await assert.rejects(client.request(DRY_RUN_REQUEST, {}), /textDocument\.uri/);
  });
});
