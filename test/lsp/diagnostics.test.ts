// Protocol tests of diagnostics: the built server (dist/server.js, run `npm run build` first) over
// stdio, driven by test/lsp/harness.ts the way an editor drives it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import { analyzeText } from "../../server/src/service/analysis";
import { ErrorCode, LspClient, ResponseErrorReply, cursor, delay, fileUri, frame, type Diagnostic, type StartOptions } from "./harness";
import { type Json, aiStep, toolStep, withSteps } from "../unit/lwir-fixtures";

const HINT = "lwir.yaml_unquoted_template";

/** Settings in initializationOptions (the server reads `initializationOptions.settings`). */
function withSettings(settings: Json, extra: StartOptions = {}): StartOptions {
  return { ...extra, initializationOptions: { settings } };
}

const json = (doc: Json) => JSON.stringify(doc, null, 2) + "\n";

/** A valid workflow (its one step's model, `model-b`, is the edit target of several tests). */
const VALID = withSteps([aiStep("write", { with: { model: "model-b", prompt: "{{ input.topic }}" } })]);
/** Two findings: `write` reads `extra` without needing it, and uses a model not in permissions. */
const BROKEN = withSteps([
  toolStep("extra"),
  toolStep("gather", { needs: ["extra"] }),
  aiStep("write", { needs: ["gather"], with: { model: "model-z", prompt: "{{ steps.gather.output }} {{ steps.extra.output }}" } }),
]);

/** What the server should report for a text: findings and parse errors by code and range, sorted. */
function expected(text: string, format: "json" | "yaml"): string[] {
  const analysis = analyzeText(text, format);
  return [
    ...analysis.document.parseErrors.map((p) => key({ code: "parse", range: p.range })),
    ...analysis.findings.map((f) => key({ code: f.code, range: f.range })),
  ].sort();
}

function key(d: { code?: unknown; range: Diagnostic["range"] }): string {
  const r = d.range;
  return `${String(d.code)} ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/** Published diagnostics as sorted keys, editor hints left out. */
function keys(diagnostics: Diagnostic[]): string[] {
  return diagnostics.filter((d) => d.code !== HINT).map(key).sort();
}

describe("push diagnostics (a client without pull support)", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start(withSettings({ validation: { delay: 0 } })); });
  after(() => client.stop());

  test("initialize: incremental sync, completion and code actions, no pull provider", () => {
    const caps = client.initializeResult.capabilities;
    assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 2 });
    assert.equal(caps.diagnosticProvider, undefined);
    assert.deepEqual(caps.completionProvider?.triggerCharacters, [".", "{", '"', " ", "[", "'", ":", "-"]);
    assert.equal(caps.completionProvider?.resolveProvider, false);
    assert.deepEqual((caps.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds, ["quickfix", "source.fixAll.lwir"]);
  });

  test("didOpen JSON: codes and ranges as the analysis gives them, with version, source and data", async () => {
    const uri = fileUri("push/broken.lwir.json");
    const text = json(BROKEN);
    client.open(uri, text);
    const published = await client.waitForDiagnostics(uri, { version: 1 });
    assert.deepEqual(keys(published.diagnostics), expected(text, "json"));
    const codes = published.diagnostics.map((d) => d.code).sort();
    assert.deepEqual(codes, ["model.disallowed", "step.undeclared_dependency"]);
    for (const d of published.diagnostics) {
      assert.equal(d.source, "lwir");
      assert.equal(d.severity, 1);
      assert.equal((d.data as { code: string }).code, d.code);
    }
    const undeclared = published.diagnostics.find((d) => d.code === "step.undeclared_dependency")!;
    assert.equal((undeclared.data as { targetStepId: string }).targetStepId, "extra");
    assert.equal(undeclared.relatedInformation?.[0].location.uri, uri);
  });

  test("didOpen YAML: the same findings at YAML ranges", async () => {
    const uri = fileUri("push/broken.lwir.yaml");
    const text = toYaml(BROKEN);
    client.open(uri, text);
    const published = await client.waitForDiagnostics(uri, { version: 1 });
    assert.deepEqual(keys(published.diagnostics), expected(text, "yaml"));
    assert.deepEqual(published.diagnostics.map((d) => d.code).sort(), ["model.disallowed", "step.undeclared_dependency"]);
  });

  test("incremental edits: each version is re-validated from the edited text", async () => {
    const cases = [["inc.lwir.json", json(VALID), "json", '"model": "model-'], ["inc.lwir.yaml", toYaml(VALID), "yaml", "model: model-"]] as const;
    for (const [name, text, format, model] of cases) {
      const uri = fileUri(`push/${name}`);
      client.open(uri, text);
      assert.deepEqual((await client.waitForDiagnostics(uri, { version: 1 })).diagnostics, []);
      const v2 = client.edit(uri, `${model}b`, `${model}q`);
      const p2 = await client.waitForDiagnostics(uri, { version: v2 });
      assert.deepEqual(keys(p2.diagnostics), expected(client.text(uri), format));
      assert.deepEqual(p2.diagnostics.map((d) => d.code), ["model.disallowed"]);
      // Two edits in one didChange, applied in order.
      const doc = client.document(uri);
      const at = client.text(uri).indexOf("model-q");
      const range = { start: doc.positionAt(at), end: doc.positionAt(at + "model-q".length) };
      client.change(uri, v2 + 1, [{ range, text: "model-b" }, { range: { start: range.start, end: doc.positionAt(at + 1) }, text: "m" }]);
      const p3 = await client.waitForDiagnostics(uri, { version: v2 + 1 });
      assert.deepEqual(p3.diagnostics, [], client.text(uri));
    }
  });

  test("parse errors are diagnostics, in JSON and YAML", async () => {
    const jsonUri = fileUri("push/syntax.lwir.json");
    const jsonText = '{\n  "apiVersion": "littleworkflow.dev/v0.1",\n  "steps": [\n';
    client.open(jsonUri, jsonText);
    const pj = await client.waitForDiagnostics(jsonUri, { version: 1 });
    assert.ok(pj.diagnostics.length > 0);
    assert.ok(pj.diagnostics.every((d) => d.code === "parse" && d.severity === 1));
    assert.deepEqual(keys(pj.diagnostics), expected(jsonText, "json"));

    const yamlUri = fileUri("push/syntax.lwir.yaml");
    const yamlText = "apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\n  bad: indentation\n";
    client.open(yamlUri, yamlText);
    const py = await client.waitForDiagnostics(yamlUri, { version: 1 });
    assert.ok(py.diagnostics.length > 0);
    assert.ok(py.diagnostics.every((d) => d.code === "parse"));
    assert.deepEqual(keys(py.diagnostics), expected(yamlText, "yaml"));
  });

  test("ordinary JSON and YAML files get nothing, even when broken; completion leaves them alone", async () => {
    const ordinary = [
      [fileUri("push/package.json"), '{"name": "x", "version": '],
      [fileUri("push/tsconfig.json"), '{"compilerOptions": {"strict": true}}'],
      [fileUri("push/deploy.yaml"), "apiVersion: apps/v1\nkind: Deployment\nspec: [\n"],
      [fileUri("push/nested.json"), '{"items": [{"apiVersion": "littleworkflow.dev/v0.1"}]}'],
    ];
    const start = client.seq;
    for (const [uri, text] of ordinary) client.open(uri, text);
    // A barrier: an LWIR document opened afterwards is validated after them (delay 0: in order).
    const barrier = fileUri("push/barrier.lwir.json");
    client.open(barrier, json(VALID));
    await client.waitForDiagnostics(barrier, { version: 1, after: start });
    for (const [uri] of ordinary) {
      assert.deepEqual(client.publishedFor(uri), [], uri);
      const completion = await client.request("textDocument/completion", { textDocument: { uri }, position: { line: 0, character: 1 } });
      assert.equal(completion, null, uri);
      const actions = await client.request("textDocument/codeAction", {
        textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] },
      });
      assert.equal(actions, null, uri);
    }
  });

  test("a file that becomes LWIR by adding apiVersion gets diagnostics; removing it clears them", async () => {
    const uri = fileUri("push/becomes.json");
    const text = json(BROKEN).replace('"apiVersion": "littleworkflow.dev/v0.1",', '"note": "later",');
    const start = client.seq;
    client.open(uri, text);
    const barrier = fileUri("push/barrier2.lwir.json");
    client.open(barrier, json(VALID));
    await client.waitForDiagnostics(barrier, { version: 1, after: start });
    assert.deepEqual(client.publishedFor(uri), []);

    client.edit(uri, '"note": "later",', '"apiVersion": "littleworkflow.dev/v0.1",', 2);
    const p2 = await client.waitForDiagnostics(uri, { version: 2 });
    assert.deepEqual(p2.diagnostics.map((d) => d.code).sort(), ["model.disallowed", "step.undeclared_dependency"]);

    client.edit(uri, '"apiVersion": "littleworkflow.dev/v0.1",', '"note": "later",', 3);
    const p3 = await client.waitForDiagnostics(uri, { version: 3 });
    assert.deepEqual(p3.diagnostics, []);
    // And it is left alone afterwards.
    const before = client.publishedFor(uri).length;
    client.edit(uri, '"later"', '"later still"', 4);
    const barrier3 = fileUri("push/barrier3.lwir.json");
    client.open(barrier3, json(VALID));
    await client.waitForDiagnostics(barrier3, { version: 1 });
    assert.equal(client.publishedFor(uri).length, before);
  });

  test("closing clears published diagnostics; nothing is published after close", async () => {
    const uri = fileUri("push/closing.lwir.json");
    client.open(uri, json(BROKEN));
    await client.waitForDiagnostics(uri, { version: 1, predicate: (d) => d.length > 0 });
    const start = client.seq;
    client.close(uri);
    const cleared = await client.waitForDiagnostics(uri, { after: start });
    assert.deepEqual(cleared.diagnostics, []);
    assert.equal(cleared.version, undefined);
  });

  test("the YAML unquoted-template warning, and the note on a finding it explains", async () => {
    const uri = fileUri("push/unquoted.lwir.yaml");
    const text = [
      "apiVersion: littleworkflow.dev/v0.1",
      "kind: Workflow",
      "metadata: {name: t}",
      "input: {schema: {type: object}}",
      "output: {schema: {type: object}}",
      "permissions: {models: [m]}",
      "steps:",
      "  - id: assess",
      "    uses: ai.generate",
      "    with: {model: m, prompt: {{ input.topic }}}",
      "    output: {mode: object, schema: {type: object}}",
      "  - id: route",
      "    uses: decision",
      "    needs: [assess]",
      "    with:",
      "      cases:",
      "        - when: {{ steps.assess.output.urgent }}",
      "          to: end",
      "      default: end",
      "",
    ].join("\n");
    client.open(uri, text);
    const published = await client.waitForDiagnostics(uri, { version: 1 });
    const hints = published.diagnostics.filter((d) => d.code === HINT);
    const lines = text.split("\n");
    const where = (line: number, t: string) => [2, line, lines[line].indexOf(t), lines[line].indexOf(t) + t.length];
    assert.deepEqual(hints.map((h) => [h.severity, h.range.start.line, h.range.start.character, h.range.end.character]), [
      where(9, "{{ input.topic }}"),
      where(16, "{{ steps.assess.output.urgent }}"),
    ]);
    assert.deepEqual(hints.map((h) => (h.data as { unquotedTemplate: { replacement: string } }).unquotedTemplate.replacement),
      ['"{{ input.topic }}"', '"{{ steps.assess.output.urgent }}"']);
    const caseInvalid = published.diagnostics.find((d) => d.code === "decision.case_invalid")!;
    assert.match(caseInvalid.message as string, /YAML read the unquoted .* as a mapping/);
    assert.deepEqual(keys(published.diagnostics), expected(text, "yaml"));
  });

  test("relatedInformation: every step of an invalid cycle, at its id", async () => {
    const uri = fileUri("push/cycle.lwir.json");
    const text = json(withSteps([aiStep("a", { needs: ["b"] }), aiStep("b", { needs: ["a"] }), aiStep("z", { needs: ["b"] })]));
    client.open(uri, text);
    const published = await client.waitForDiagnostics(uri, { version: 1 });
    const cycle = published.diagnostics.find((d) => d.code === "lwir.invalid_cycle")!;
    const lines = text.split("\n");
    const related = cycle.relatedInformation!.map((r) => lines[r.location.range.start.line].slice(r.location.range.start.character, r.location.range.end.character));
    assert.deepEqual(related.sort(), ['"a"', '"b"']);
  });
});

describe("stale versions are never published after newer ones", () => {
  for (const delayMs of [0, 150]) {
    test(`versions 2..20 sent quickly, delay ${delayMs}`, async () => {
      const client = await LspClient.start(withSettings({ validation: { delay: delayMs } }));
      try {
        const uri = fileUri(`stale-${delayMs}.lwir.json`);
        const base = json(VALID);
        client.open(uri, base);
        // Odd versions use a disallowed model, even versions are valid; all sent in one write.
        const messages: object[] = [];
        for (let v = 2; v <= 20; v++) {
          const text = v % 2 === 1 ? base.replace('"model": "model-b"', `"model": "model-${v}"`) : base;
          messages.push({ jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri, version: v }, contentChanges: [{ text }] } });
        }
        client.writeTogether(messages);
        await client.waitForDiagnostics(uri, { version: 20 });
        await delay(delayMs + 200); // anything late would arrive now
        const versions = client.publishedFor(uri).map((p) => p.version!);
        assert.equal(versions[versions.length - 1], 20, `published versions: ${versions.join(",")}`);
        for (let i = 1; i < versions.length; i++) assert.ok(versions[i] > versions[i - 1], `out of order: ${versions.join(",")}`);
        assert.deepEqual(client.publishedFor(uri).at(-1)!.diagnostics, []);
        if (delayMs > 0) assert.ok(versions.length <= 3, `debounced: ${versions.join(",")}`);
      } finally {
        await client.stop();
      }
    });
  }

  test("an edit, then close before the debounce ends: nothing published after the close", async () => {
    const client = await LspClient.start(withSettings({ validation: { delay: 150 } }));
    try {
      const uri = fileUri("close-early.lwir.json");
      client.open(uri, json(BROKEN));
      await client.waitForDiagnostics(uri, { version: 1 });
      client.edit(uri, "model-z", "model-y");
      const start = client.seq;
      client.close(uri);
      await delay(400);
      const after = client.publishedFor(uri).filter((p) => p.seq > start);
      assert.deepEqual(after.map((p) => p.diagnostics.length), [0], "only the clearing publication");
    } finally {
      await client.stop();
    }
  });
});

describe("settings", () => {
  test("a request that arrives with a change is answered before the change is validated, whatever the delay", async () => {
    // Requests first (server/src/lsp/outstandingRequests.ts): with delay 0 the validation waits for the queued request.
    for (const [delayMs, first] of [[0, "reply"], [150, "reply"]] as const) {
      const client = await LspClient.start(withSettings({ validation: { delay: delayMs } }));
      try {
        const uri = fileUri(`tick-${delayMs}.lwir.json`);
        client.writeTogether([
          { jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "json", version: 1, text: json(BROKEN) } } },
          { jsonrpc: "2.0", id: 999, method: "textDocument/completion", params: { textDocument: { uri: fileUri("other.json") }, position: { line: 0, character: 0 } } },
        ]);
        const reply = await client.waitFor((m) => m.id === 999, "the completion reply");
        const published = await client.waitForDiagnostics(uri, { version: 1 });
        const order = published.seq < client.received.indexOf(reply) + 1 ? "diagnostics" : "reply";
        assert.equal(order, first, `delay ${delayMs}`);
      } finally {
        await client.stop();
      }
    }
  });

  test("enable false: nothing; switching it off clears, on again publishes (didChangeConfiguration settings)", async () => {
    const client = await LspClient.start(withSettings({ validation: { enable: false, delay: 0 } }));
    try {
      const uri = fileUri("enable.lwir.json");
      client.open(uri, json(BROKEN));
      const barrier = fileUri("enable-barrier.json");
      client.open(barrier, "{}");
      await client.request("textDocument/completion", { textDocument: { uri: barrier }, position: { line: 0, character: 0 } });
      await delay(100);
      assert.deepEqual(client.publishedFor(uri), []);

      client.notify("workspace/didChangeConfiguration", { settings: { lwir: { validation: { enable: true, delay: 0 } } } });
      const on = await client.waitForDiagnostics(uri, { predicate: (d) => d.length > 0 });
      assert.equal(on.diagnostics.length, 2);

      const start = client.seq;
      client.notify("workspace/didChangeConfiguration", { settings: { lwir: { validation: { enable: false } } } });
      // (a publication of the first settings may still come after `start`: the document did not wait for them)
      const off = await client.waitForDiagnostics(uri, { after: start, predicate: (d) => d.length === 0 });
      assert.deepEqual(off.diagnostics, []);
    } finally {
      await client.stop();
    }
  });

  test("workspace/configuration: settings are fetched from the client on change", async () => {
    const client = await LspClient.start({ configurationRequests: true, configuration: { lwir: { validation: { enable: true, delay: 0 } } } });
    try {
      const uri = fileUri("fetched.lwir.json");
      client.open(uri, json(BROKEN));
      await client.waitForDiagnostics(uri, { predicate: (d) => d.length === 2 });
      // Asked after `initialized`; the opened document does not wait for it (it validates at once).
      await client.waitFor((m) => m.method === "workspace/configuration", "a workspace/configuration request");
      client.configuration = { lwir: { validation: { enable: false } } };
      const start = client.seq;
      client.notify("workspace/didChangeConfiguration", { settings: null });
      // (a publication of the first settings may still come after `start`: the document did not wait for them)
      const off = await client.waitForDiagnostics(uri, { after: start, predicate: (d) => d.length === 0 });
      assert.deepEqual(off.diagnostics, []);
    } finally {
      await client.stop();
    }
  });

  test("lwir.lint.rules: own rules get the chosen level (off drops), findings stay errors, bad entries are ignored", async () => {
    const unquoted = [
      "apiVersion: littleworkflow.dev/v0.1",
      "kind: Workflow",
      "metadata: {name: t}",
      "input: {schema: {type: object}}",
      "output: {schema: {type: object}}",
      "permissions: {models: [m]}",
      "steps:",
      "  - id: assess",
      "    uses: ai.generate",
      "    with: {model: gpt-4o, prompt: {{ input.topic }}}",
      "    output: {mode: object, schema: {type: object}}",
      "",
    ].join("\n");
    const rules = {
      "lwir.yaml_unquoted_template": "hint",
      "model.disallowed": "off", // a runtime finding: cannot be set, ignored
      "no.such_rule": "error",
      "lwir.parse_warning": 42, // not a level: ignored
    };
    const client = await LspClient.start(withSettings({ validation: { delay: 0 }, lint: { rules } }));
    try {
      const uri = fileUri("rules.lwir.yaml");
      client.open(uri, unquoted);
      const first = await client.waitForDiagnostics(uri, { version: 1 });
      const severities = () => first.diagnostics.map((d) => [d.code, d.severity]).sort();
      assert.deepEqual(severities(), [["lwir.yaml_unquoted_template", 4], ["model.disallowed", 1]]);

      // Changed to off: the hint is gone, the finding stays.
      let start = client.seq;
      client.notify("workspace/didChangeConfiguration", { settings: { lwir: { validation: { delay: 0 }, lint: { rules: { "lwir.yaml_unquoted_template": "off" } } } } });
      const off = await client.waitForDiagnostics(uri, { after: start });
      assert.deepEqual(off.diagnostics.map((d) => [d.code, d.severity]), [["model.disallowed", 1]]);

      // Raised to error; then an ill-typed value keeps the last good levels and the server keeps working.
      start = client.seq;
      client.notify("workspace/didChangeConfiguration", { settings: { lwir: { validation: { delay: 0 }, lint: { rules: { "lwir.yaml_unquoted_template": "error" } } } } });
      const raised = await client.waitForDiagnostics(uri, { after: start });
      assert.deepEqual(raised.diagnostics.map((d) => [d.code, d.severity]).sort(), [["lwir.yaml_unquoted_template", 1], ["model.disallowed", 1]]);
      client.notify("workspace/didChangeConfiguration", { settings: { lwir: { validation: { delay: 0 }, lint: { rules: "everything" } } } });
      const completion = await client.request("textDocument/completion", { textDocument: { uri }, position: { line: 9, character: 20 } });
      assert.notEqual(completion, undefined);
    } finally {
      await client.stop();
    }
  });

  test("lwir.lint.rules also sets the level of the too-large notice", async () => {
    const client = await LspClient.start(withSettings({ validation: { delay: 0 }, maxFileSize: 300, lint: { rules: { "lwir.file_too_large": "info" } } }));
    try {
      const uri = fileUri("big-info.lwir.json");
      client.open(uri, json(BROKEN));
      const published = await client.waitForDiagnostics(uri, { version: 1 });
      assert.deepEqual(published.diagnostics.map((d) => [d.code, d.severity]), [["lwir.file_too_large", 3]]);
    } finally {
      await client.stop();
    }
  });

  test("a document above maxFileSize gets one notice at 0:0 and no analysis", async () => {
    const client = await LspClient.start(withSettings({ validation: { delay: 0 }, maxFileSize: 300 }));
    try {
      const uri = fileUri("big.lwir.json");
      const text = json(BROKEN);
      assert.ok(text.length > 300);
      client.open(uri, text);
      const published = await client.waitForDiagnostics(uri, { version: 1 });
      assert.equal(published.diagnostics.length, 1);
      const [d] = published.diagnostics;
      assert.equal(d.code, "lwir.file_too_large");
      assert.deepEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
      assert.match(d.message as string, /lwir\.maxFileSize/);
      assert.ok(d.severity === 2 || d.severity === 3);
      assert.equal(await client.request("textDocument/completion", { textDocument: { uri }, position: { line: 1, character: 2 } }), null);
      // A big ordinary file is still left alone.
      const ordinary = fileUri("big-ordinary.json");
      client.open(ordinary, JSON.stringify({ data: "x".repeat(1000) }));
      const barrier = fileUri("small.lwir.yaml");
      client.open(barrier, "a: 1\n");
      await client.waitForDiagnostics(barrier, { version: 1 });
      assert.deepEqual(client.publishedFor(ordinary), []);
    } finally {
      await client.stop();
    }
  });
});

describe("pull diagnostics (a client that advertises textDocument.diagnostic)", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: true, ...withSettings({ validation: { delay: 0 } }) }); });
  after(() => client.stop());

  test("the server declares a diagnostic provider and never pushes", async () => {
    assert.deepEqual(client.initializeResult.capabilities.diagnosticProvider,
      // workspaceDiagnostics: the harness's pulling client declares `workspace.diagnostics` (docs/workspace.md)
      { identifier: "lwir", interFileDependencies: false, workspaceDiagnostics: true });
    const uri = fileUri("pull/broken.lwir.json");
    const text = json(BROKEN);
    client.open(uri, text);
    const report = await client.pullDiagnostics(uri);
    assert.equal(report.kind, "full");
    assert.deepEqual(keys(report.items!), expected(text, "json"));
    await delay(200);
    assert.deepEqual(client.published, [], "no publishDiagnostics in pull mode");
  });

  test("unchanged while the version is the same; full again after an edit", async () => {
    const uri = fileUri("pull/edits.lwir.yaml");
    client.open(uri, toYaml(VALID));
    const first = await client.pullDiagnostics(uri);
    assert.deepEqual(first.items, []);
    assert.ok(first.resultId);
    const again = await client.pullDiagnostics(uri, first.resultId);
    assert.deepEqual(again, { kind: "unchanged", resultId: first.resultId });
    client.edit(uri, "model: model-b", "model: model-x");
    const changed = await client.pullDiagnostics(uri, first.resultId);
    assert.equal(changed.kind, "full");
    assert.deepEqual(changed.items!.map((d) => d.code), ["model.disallowed"]);
  });

  test("ordinary and unopened documents: an empty report", async () => {
    const uri = fileUri("pull/package.json");
    client.open(uri, '{"name": ');
    assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
    assert.deepEqual((await client.pullDiagnostics(fileUri("pull/never-opened.lwir.json"))).items, []);
  });
});

describe("cancellation", () => {
  test("a request cancelled before it runs answers RequestCancelled", async () => {
    const client = await LspClient.start(withSettings({ validation: { delay: 0 } }));
    try {
      const uri = fileUri("cancel.lwir.json");
      const { text, position } = cursor('{"apiVersion": "littleworkflow.dev/v0.1", "steps": [{"needs": ["|"]}]}');
      client.open(uri, text);
      client.writeTogether([
        { jsonrpc: "2.0", id: 500, method: "textDocument/completion", params: { textDocument: { uri }, position } },
        { jsonrpc: "2.0", method: "$/cancelRequest", params: { id: 500 } },
      ]);
      const reply = await client.waitFor((m) => m.id === 500, "the cancelled completion's reply");
      assert.equal(reply.error?.code, ErrorCode.RequestCancelled);
      assert.ok(client.alive);
    } finally {
      await client.stop();
    }
  });

  test("a pull waiting out the debounce is cancelled at once", async () => {
    // A quiet period of a minute (the most the setting allows), far beyond the harness's wait for an answer:
    // an answer at all comes from the cancellation, not from the quiet period ending.
    const client = await LspClient.start({ pull: true, ...withSettings({ validation: { delay: 60_000 } }) });
    try {
      const uri = fileUri("cancel-pull.lwir.json");
      client.open(uri, json(BROKEN));
      // Opening validates at once; the quiet period applies to edits.
      client.edit(uri, "model-z", "model-y");
      const { id, result } = client.startRequest("textDocument/diagnostic", { textDocument: { uri } });
      await delay(50);
      client.cancel(id);
      await assert.rejects(result, (e: unknown) => e instanceof ResponseErrorReply && e.code === ErrorCode.RequestCancelled);
    } finally {
      await client.stop();
    }
  });
});

describe("robustness: garbage over the protocol does not kill the server", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start(withSettings({ validation: { delay: 0 } })); });
  after(() => client.stop());

  test("unknown request → MethodNotFound; unknown notification → ignored", async () => {
    await assert.rejects(client.request("lwir/noSuchMethod", {}), (e: unknown) => e instanceof ResponseErrorReply && e.code === ErrorCode.MethodNotFound);
    client.notify("lwir/noSuchNotification", { x: 1 });
    client.notify("$/someClientNotification", {});
    assert.equal(await client.request("textDocument/completion", { textDocument: { uri: fileUri("none.lwir.json") }, position: { line: 0, character: 0 } }), null);
  });

  test("requests and changes for documents that were never opened", async () => {
    const uri = fileUri("never.lwir.json");
    assert.equal(await client.request("textDocument/completion", { textDocument: { uri }, position: { line: 3, character: 3 } }), null);
    assert.equal(await client.request("textDocument/codeAction", {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] },
    }), null);
    client.change(uri, 5, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "x" }]);
    client.notify("textDocument/didClose", { textDocument: { uri } });
    await assert.doesNotReject(client.request("textDocument/completion", { textDocument: { uri }, position: { line: 0, character: 0 } }));
  });

  test("malformed JSON bodies, wrong params and bad positions", async () => {
    client.writeRaw(frame("{this is not json"));
    client.writeRaw(frame('{"jsonrpc": "2.0", "id": 77}'));
    client.writeRaw(frame('"just a string"'));
    const missingParams = await client.reply("textDocument/completion", {});
    assert.equal(missingParams.error?.code, ErrorCode.InvalidParams);
    const uri = fileUri("positions.lwir.json");
    client.open(uri, json(VALID));
    await client.waitForDiagnostics(uri, { version: 1 });
    const far = await client.reply("textDocument/completion", { textDocument: { uri }, position: { line: 9999, character: 9999 } });
    assert.ok(far.error === undefined || far.error.code === ErrorCode.InternalError);
    const negative = await client.reply("textDocument/completion", { textDocument: { uri }, position: { line: -1, character: -5 } });
    assert.ok(negative.error === undefined || negative.error.code === ErrorCode.InternalError);
    // Still serving.
    client.edit(uri, '"model": "model-b"', '"model": "model-nope"');
    const p = await client.waitForDiagnostics(uri, { version: 2 });
    assert.deepEqual(p.diagnostics.map((d) => d.code), ["model.disallowed"]);
    assert.ok(client.alive);
  });

  test("a document that is not JSON at all, named .lwir.json, and binary-ish text", async () => {
    const uri = fileUri("garbage.lwir.json");
    client.open(uri, "\u0000\u0001\uffff not json at all ]]]}}}");
    const p = await client.waitForDiagnostics(uri, { version: 1 });
    // syntax errors, and the NUL character warned about as our own notice (the runtime reads it as a character)
    assert.ok(p.diagnostics.some((d) => d.code === "parse"), JSON.stringify(p.diagnostics.map((d) => d.code)));
    assert.deepEqual([...new Set(p.diagnostics.map((d) => d.code))].sort(), ["lwir.nul_byte", "parse"]);
    const deep = fileUri("deep.lwir.json");
    client.open(deep, "[".repeat(20000) + "]".repeat(20000));
    const pd = await client.waitForDiagnostics(deep, { version: 1 });
    // Too deep to check: one finding (catalog 11), not a crash or an internal error.
    assert.deepEqual(pd.diagnostics.map((d) => d.code), ["lwir.non_hashable"]);
    assert.ok(client.alive);
  });
});
