// The dry run in the editor over LSP (built server): the "Preview prompt" code lenses, the lwir/previewPrompt
// request (compared with what `lwir run --dry --format json` says for the same files: the first scenario
// of the scenarios file beside the workflow, else the generated input), and the values the hover adds
// inside `{{ }}`. Files are written to a temporary folder: the server reads the scenarios file from disk.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { CodeLens, Hover, MarkupContent } from "vscode-languageserver-types";
import { runDry } from "../../server/src/cli/dryrun";
import { parseDocument, formatOf } from "../../server/src/document/document";
import { readScenarios } from "../../server/src/run/scenarios";
import { stepsUsing } from "../../server/src/run/preview";
import type { TraceStep } from "../../server/src/run/simulate";
import { PREVIEW_PROMPT_COMMAND, PREVIEW_PROMPT_REQUEST, type PromptPreview } from "../../server/src/protocol";
import { stringify as yamlOf } from "yaml";
import { LspClient, cursor } from "./harness";

const EXAMPLES = resolve("examples");

/** The trace steps of `lwir run --dry --format json FILE` (with the first scenario when a scenarios file is beside it). */
function cliTrace(file: string, scenariosFile?: string): { steps: TraceStep[]; status: string; error?: { stepPath?: string; message: string } } {
  let scenario: string | undefined;
  if (scenariosFile) {
    const doc = parseDocument(readFileSync(scenariosFile, "utf8"), formatOf(scenariosFile) ?? "yaml");
    scenario = readScenarios(doc).scenarios[0].name;
  }
  const run = runDry({ file, format: "json", explore: false, ...(scenario !== undefined ? { scenario } : {}) });
  assert.equal(run.stderr, "");
  return JSON.parse(run.stdout);
}

/** The step path of a trace entry without branch keys and visits: `triage[T-1].draft.visit[0]` → `triage.draft`. */
function stepPathOf(tracePath: string): string {
  return tracePath.replace(/\.visit\[\d+\]/g, "").replace(/\[[^\]]*\]/g, "");
}

const hoverText = (h: Hover | null): string => (h ? (h.contents as MarkupContent).value : "");

describe("the dry run in the editor over LSP", () => {
  let client: LspClient;
  let dir: string;
  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
  const lenses = (uri: string): Promise<CodeLens[]> => client.request("textDocument/codeLens", { textDocument: { uri } });
  const preview = (uri: string, stepPath: string): Promise<PromptPreview | null> => client.request(PREVIEW_PROMPT_REQUEST, { textDocument: { uri }, stepPath });
  /** Writes a workflow to the folder and opens it. */
  const openFile = (name: string, text: string): string => {
    writeFileSync(join(dir, name), text);
    const uri = uriOf(name);
    client.open(uri, text);
    return uri;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "lwir-dry-lsp-"));
    for (const name of ["release-notes.lwir.json", "release-notes.lwir.test.yaml", "support-triage.lwir.yaml", "support-triage.lwir.test.yaml"]) copyFileSync(join(EXAMPLES, name), join(dir, name));
    client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } });
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, scenarios] of [["release-notes.lwir.json", "release-notes.lwir.test.yaml"], ["support-triage.lwir.yaml", "support-triage.lwir.test.yaml"]]) {
    test(`${name}: one lens per ai.generate step, and each prompt is the CLI's (first scenario of ${scenarios})`, async () => {
      const file = join(dir, name);
      const text = readFileSync(file, "utf8");
      const uri = uriOf(name);
      client.open(uri, text);
      const steps = stepsUsing(parseDocument(text, formatOf(name)!).value, "ai.generate");
      assert.ok(steps.length > 0);
      const found = (await lenses(uri)).filter((l) => l.command?.command === PREVIEW_PROMPT_COMMAND);
      assert.deepEqual(found.map((l) => [l.command!.title, l.command!.arguments]), steps.map((s) => ["Preview prompt", [{ uri, stepPath: s.stepPath }]]));
      const trace = cliTrace(file, join(dir, scenarios));
      for (const step of steps) {
        const answer = await preview(uri, step.stepPath);
        const first = trace.steps.find((s) => stepPathOf(s.path) === step.stepPath);
        assert.ok(first && first.user !== undefined, `the CLI's trace has a prompt for ${step.stepPath}`);
        assert.equal(answer?.error, undefined, JSON.stringify(answer?.error));
        assert.equal(answer!.system, first.system);
        assert.equal(answer!.user, first.user);
        assert.equal(answer!.run, first.path);
        assert.equal(answer!.scenario, `scenario ${JSON.stringify(readScenarios(parseDocument(readFileSync(join(dir, scenarios), "utf8"), "yaml")).scenarios[0].name)} (${scenarios})`);
      }
      client.close(uri);
    });
  }

  const BRANCHING = (format: "json" | "yaml") => {
    const doc = {
      apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "branching", version: "1.0.0" },
      input: { schema: { type: "object", required: ["topic"], properties: { topic: { type: "string" }, words: { type: "integer" } } } },
      output: { schema: true },
      permissions: { models: ["m"], tools: [], secrets: [], network: [] },
      steps: [
        { id: "outline", uses: "ai.generate", with: { model: "m", system: "You plan.", prompt: "Plan {{ input.topic }} in {{ coalesce(input.words, 100) }} words." }, output: { mode: "text" } },
        { id: "route", uses: "decision", needs: ["outline"], with: { cases: [{ when: "{{ len(steps.outline.output) > 1000 }}", to: "shorten" }], default: "end" } },
        { id: "shorten", uses: "ai.generate", needs: ["outline"], with: { model: "m", prompt: "Shorten {{ steps.outline.output }}" }, output: { mode: "text" } },
      ],
    };
    return format === "json" ? JSON.stringify(doc, null, 2) : yamlOf(doc);
  };

  for (const format of ["json", "yaml"] as const) {
    test(`${format}, no scenarios file: the generated input, as lwir run --dry; a step a decision skips is not reached`, async () => {
      const name = `branching.lwir.${format}`;
      const uri = openFile(name, BRANCHING(format));
      const trace = cliTrace(join(dir, name));
      const outline = await preview(uri, "outline");
      const first = trace.steps.find((s) => s.path === "outline")!;
      assert.deepEqual([outline!.system, outline!.user, outline!.scenario], [first.system, first.user, "the generated input"]);
      assert.equal(outline!.system, "You plan.");
      const skipped = await preview(uri, "shorten");
      assert.equal(skipped!.system, undefined);
      assert.equal(skipped!.error?.reached, false);
      assert.match(skipped!.error!.message, /not reached/);
      // hover: a value, and an expression of a step not reached
      const value = cursor(BRANCHING(format).replace("{{ coalesce(input.words", "{{ coal|esce(input.words"));
      const h1: Hover = await client.request("textDocument/hover", { textDocument: { uri }, position: value.position });
      assert.match(hoverText(h1), /\*\*Value in this scenario\*\* \(the generated input, `outline`\):\n\n```json\n0\n```/);
      const notReached = cursor(BRANCHING(format).replace("Shorten {{ steps.outline", "Shorten {{ ste|ps.outline"));
      const h2: Hover = await client.request("textDocument/hover", { textDocument: { uri }, position: notReached.position });
      assert.match(hoverText(h2), /\*\*Not reached in this scenario\*\*/);
      // the existing hover stays first: here the `steps` root
      assert.match(hoverText(h2), /expression root[\s\S]*---[\s\S]*Not reached/);
      client.close(uri);
    });
  }

  test("an error before the step, an error in the step's prompt, and hover errors", async () => {
    const doc = {
      apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "failing", version: "1.0.0" },
      input: { schema: { type: "object", properties: { ticket: { type: "object", properties: { id: { type: "string" } } } } } },
      output: { schema: true },
      permissions: { models: ["m"], tools: [], secrets: [], network: [] },
      steps: [
        { id: "first", uses: "ai.generate", with: { model: "m", prompt: "Ticket {{ input.ticket.id.name }}" }, output: { mode: "text" } },
        { id: "second", uses: "ai.generate", needs: ["first"], with: { model: "m", prompt: "After {{ steps.first.output }}" }, output: { mode: "text" } },
      ],
    };
    const text = yamlOf(doc);
    const uri = openFile("failing.lwir.yaml", text);
    const trace = cliTrace(join(dir, "failing.lwir.yaml"));
    assert.equal(trace.status, "failed");
    const first = await preview(uri, "first");
    assert.deepEqual([first!.error?.reached, first!.error?.stepPath, first!.error?.at, first!.error?.expression], [true, "first", "with.prompt", "input.ticket.id.name"]);
    assert.equal(first!.error!.message, trace.error!.message);
    const second = await preview(uri, "second");
    assert.deepEqual([second!.error?.reached, second!.error?.stepPath, second!.error?.expression], [false, "first", "input.ticket.id.name"]);
    assert.match(second!.error!.message, /^Step second is not reached: the run stops at first first\./);
    const at = cursor(text.replace("{{ input.ticket.id.name }}", "{{ input.ticket.id.na|me }}"));
    const hover: Hover = await client.request("textDocument/hover", { textDocument: { uri }, position: at.position });
    assert.match(hoverText(hover), /\*\*Fails in this scenario\*\* \(the generated input, `first`\): /);
    client.close(uri);
  });

  test("a document with findings has no dry run; an unknown step is said so", async () => {
    const uri = openFile("invalid.lwir.yaml", BRANCHING("yaml").replace("models:\n    - m", "models:\n    - other"));
    const answer = await preview(uri, "outline");
    assert.match(answer!.error!.message, /the runtime would not register it/);
    const valid = openFile("valid.lwir.yaml", BRANCHING("yaml"));
    assert.match((await preview(valid, "nope"))!.error!.message, /no ai\.generate step nope/);
    assert.equal(await preview("file:///not/open.lwir.yaml", "outline"), null);
    client.close(uri);
    client.close(valid);
  });

  test("the scenarios file's edits in the editor count (an open scenarios document is read, not the disk)", async () => {
    const uri = openFile("edited.lwir.json", BRANCHING("json"));
    const scenarios = uriOf("edited.lwir.test.yaml");
    client.open(scenarios, "scenarios:\n  - name: long words\n    input: { topic: rivers, words: 7 }\n");
    const answer = await preview(uri, "outline");
    assert.equal(answer!.scenario, 'scenario "long words" (edited.lwir.test.yaml)');
    assert.match(answer!.user!, /^Plan rivers in 7 words\./);
    client.close(scenarios);
    client.close(uri);
  });
});

describe("the Preview prompt lens turned off", () => {
  test("lwir.dryRun.previewLens false: no Preview prompt lens", async () => {
    const client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 }, dryRun: { previewLens: false } } } });
    try {
      const uri = "file:///w/off.lwir.json";
      client.open(uri, readFileSync(join(EXAMPLES, "release-notes.lwir.json"), "utf8"));
      const found: CodeLens[] = await client.request("textDocument/codeLens", { textDocument: { uri } });
      assert.ok(found.length > 0);
      assert.deepEqual(found.filter((l) => l.command?.command === PREVIEW_PROMPT_COMMAND), []);
    } finally {
      await client.stop();
    }
  });
});
