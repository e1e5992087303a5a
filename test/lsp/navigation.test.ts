// Protocol tests of hover, definition, references, prepareRename and rename: the built server
// (dist/server.js, `npm run build` first) over stdio, in JSON and YAML, with cursor markers.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Hover, Location, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver-types";
import { ErrorCode, LspClient, cursor, fileUri, offsetAt, type Position } from "./harness";

type Format = "json" | "yaml";

/**
 * The same workflow in both formats: `load` is read from two parallel bodies that each have a step
 * `work`; `route` targets `write`. `^name^` marks the places the test puts the cursor.
 */
const FIXTURES: Record<Format, string> = {
  json: `{
  "apiVersion": "littleworkflow.dev/v0.1",
  "kind": "Workflow",
  "metadata": { "name": "^name^nav" },
  "input": { "schema": { "type": "object", "properties": { "list": { "type": "array", "items": { "type": "string" } } } } },
  "output": { "schema": true },
  "permissions": { "models": ["^permModel^model-a"], "tools": ["search"] },
  "steps": [
    { "id": "^loadId^load", "uses": "tool.call", "with": { "tool": "search" },
      "output": { "mode": "object", "schema": { "type": "object", "properties": { "hits": { "type": "array", "items": { "type": "string" } } } } } },
    { "id": "fan", "uses": "parallel", "needs": ["^fanNeeds^load"],
      "with": { "items": "{{ input.list }}", "itemKey": "{{ item }}", "cardinality": { "kind": "matches_items" }, "maxBranches": 5,
        "maxConcurrency": 2, "failureMode": "fail_fast", "fanIn": { "order": "input", "output": "array", "outputStep": "^outStep^work" } },
      "steps": [
        { "id": "^workId^work", "uses": "ai.generate", "needs": ["load"],
          "with": { "model": "^model^model-a", "prompt": "{{ ^upper^upper(steps.^extRef^load.output.hits) }} {{ item }}" }, "output": { "mode": "text" } }
      ],
      "output": { "mode": "array", "schema": { "type": "array", "items": { "type": "object", "required": ["itemKey", "status", "artifacts"],
        "properties": { "itemKey": { "type": "string" }, "status": { "type": "string" }, "output": true, "artifacts": { "type": "array", "items": { "type": "string" } } } } } } },
    { "id": "fan2", "uses": "parallel",
      "with": { "items": "{{ input.list }}", "itemKey": "{{ item }}", "cardinality": { "kind": "matches_items" }, "maxBranches": 5,
        "maxConcurrency": 2, "failureMode": "fail_fast", "fanIn": { "order": "input", "output": "array" } },
      "steps": [
        { "id": "^work2Id^work", "uses": "ai.generate", "with": { "model": "model-a", "prompt": "{{ item }}" }, "output": { "mode": "text" } },
        { "id": "after", "uses": "ai.generate", "needs": ["^work2Needs^work"], "with": { "model": "model-a", "prompt": "{{ steps.^work2Ref^work.output }}" }, "output": { "mode": "text" } }
      ],
      "output": { "mode": "array", "schema": { "type": "array", "items": { "type": "object", "required": ["itemKey", "status", "artifacts"],
        "properties": { "itemKey": { "type": "string" }, "status": { "type": "string" }, "output": true, "artifacts": { "type": "array", "items": { "type": "string" } } } } } } },
    { "id": "route", "uses": "decision", "needs": ["load"], "with": { "cases": [{ "when": "{{ len(steps.load.output.hits) > 0 }}", "to": "^target^write" }], "default": "end" } },
    { "id": "write", "uses": "ai.generate", "needs": ["fan", "fan2"],
      "with": { "model": "model-a", "prompt": "{{ steps.fan.output }} {{ steps.fan2.output }}" }, "output": { "mode": "text" } }
  ]
}
`,
  yaml: `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata: {name: ^name^nav}
input:
  schema: {type: object, properties: {list: {type: array, items: {type: string}}}}
output: {schema: true}
permissions:
  models: [^permModel^model-a]
  tools: [search]
steps:
  - id: ^loadId^load
    uses: tool.call
    with: {tool: search}
    output:
      mode: object
      schema: {type: object, properties: {hits: {type: array, items: {type: string}}}}
  - id: fan
    uses: parallel
    needs: [^fanNeeds^load]
    with:
      items: "{{ input.list }}"
      itemKey: "{{ item }}"
      cardinality: {kind: matches_items}
      maxBranches: 5
      maxConcurrency: 2
      failureMode: fail_fast
      fanIn: {order: input, output: array, outputStep: ^outStep^work}
    steps:
      - id: ^workId^work
        uses: ai.generate
        needs: [load]
        with:
          model: ^model^model-a
          prompt: |
            {{ ^upper^upper(steps.^extRef^load.output.hits) }} {{ item }}
        output: {mode: text}
    output: &envelope
      mode: array
      schema:
        type: array
        items:
          type: object
          required: [itemKey, status, artifacts]
          properties: {itemKey: {type: string}, status: {type: string}, output: true, artifacts: {type: array, items: {type: string}}}
  - id: fan2
    uses: parallel
    with:
      items: "{{ input.list }}"
      itemKey: "{{ item }}"
      cardinality: {kind: matches_items}
      maxBranches: 5
      maxConcurrency: 2
      failureMode: fail_fast
      fanIn: {order: input, output: array}
    steps:
      - id: ^work2Id^work
        uses: ai.generate
        with: {model: model-a, prompt: "{{ item }}"}
        output: {mode: text}
      - id: after
        uses: ai.generate
        needs:
          - ^work2Needs^work
        with: {model: model-a, prompt: "{{ steps.^work2Ref^work.output }}"}
        output: {mode: text}
    output: *envelope
  - id: route
    uses: decision
    needs: [load]
    with:
      cases:
        - when: "{{ len(steps.load.output.hits) > 0 }}"
          to: ^target^write
      default: end
  - id: write
    uses: ai.generate
    needs: [fan, fan2]
    with: {model: model-a, prompt: "{{ steps.fan.output }} {{ steps.fan2.output }}"}
    output: {mode: text}
`,
};

interface Marked {
  text: string;
  at: Record<string, Position>;
  offsets: Record<string, number>;
}

/** Removes `^name^` markers, recording their positions. */
function marked(source: string): Marked {
  const offsets: Record<string, number> = {};
  let text = "";
  let last = 0;
  for (const m of source.matchAll(/\^([A-Za-z0-9]+)\^/g)) {
    text += source.slice(last, m.index);
    offsets[m[1]] = text.length;
    last = m.index! + m[0].length;
  }
  text += source.slice(last);
  // positions through the harness's own cursor(), one marker at a time
  const at: Record<string, Position> = {};
  for (const [name, offset] of Object.entries(offsets)) at[name] = cursor(text.slice(0, offset) + "‸" + text.slice(offset), "‸").position;
  return { text, at, offsets };
}

const shift = (p: Position, n: number): Position => ({ line: p.line, character: p.character + n });
const sliceOf = (text: string, range: Range) => text.slice(offsetAt(text, range.start), offsetAt(text, range.end));

function applyWorkspaceEdit(text: string, uri: string, edit: WorkspaceEdit): string {
  const edits: TextEdit[] = edit.changes?.[uri] ?? [];
  const sorted = edits.map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

describe("navigation over LSP", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  test("the server announces hover, definition, references and rename with prepare", () => {
    const caps = client.initializeResult.capabilities;
    assert.equal(caps.hoverProvider, true);
    assert.equal(caps.definitionProvider, true);
    assert.equal(caps.referencesProvider, true);
    assert.equal(caps.documentHighlightProvider, true);
    assert.deepEqual(caps.renameProvider, { prepareProvider: true });
  });

  for (const format of ["json", "yaml"] as Format[]) {
    describe(format, () => {
      const m = marked(FIXTURES[format]);
      const uri = fileUri(`navigation.lwir.${format}`);
      const td = { uri };

      before(async () => {
        client.open(uri, m.text);
        const published = await client.waitForDiagnostics(uri, { version: 1 });
        assert.deepEqual(published.diagnostics, [], JSON.stringify(published.diagnostics));
      });

      test("hover on a step reference, a function and a model", async () => {
        const step: Hover = await client.request("textDocument/hover", { textDocument: td, position: shift(m.at.extRef, 2) });
        const value = (step.contents as { kind: string; value: string }).value;
        assert.equal((step.contents as { kind: string }).kind, "markdown");
        assert.match(value, /\*\*step `load`\*\* · `tool\.call`/);
        assert.match(value, /output: `object` — `\{ hits\?: string\[\] \}`/);
        assert.match(value, /External step/);
        assert.equal(sliceOf(m.text, step.range!), "load");
        const fn: Hover = await client.request("textDocument/hover", { textDocument: td, position: shift(m.at.upper, 1) });
        assert.match((fn.contents as { value: string }).value, /upper\(value\)/);
        const model: Hover = await client.request("textDocument/hover", { textDocument: td, position: m.at.model });
        assert.match((model.contents as { value: string }).value, /\*\*model `model-a`\*\*/);
        const none = await client.request("textDocument/hover", { textDocument: td, position: shift(m.at.name, 1) });
        assert.equal(none, null);
      });

      test("definition from references, scopes respected, and from a model", async () => {
        const def = (p: Position): Promise<Location[] | null> => client.request("textDocument/definition", { textDocument: td, position: p });
        for (const [from, to] of [["fanNeeds", "loadId"], ["extRef", "loadId"], ["outStep", "workId"], ["target", null], ["work2Ref", "work2Id"], ["work2Needs", "work2Id"], ["model", "permModel"]] as const) {
          const result = await def(shift(m.at[from], 1));
          assert.ok(result && result.length === 1, from);
          assert.equal(result[0].uri, uri);
          if (to) assert.deepEqual(result[0].range.start, m.at[to], `${from} → ${to}`);
          else assert.equal(sliceOf(m.text, result[0].range), "write");
        }
      });

      test("references with and without the declaration", async () => {
        const refs = (p: Position, includeDeclaration: boolean): Promise<Location[]> =>
          client.request("textDocument/references", { textDocument: td, position: p, context: { includeDeclaration } });
        const all = await refs(m.at.loadId, true);
        assert.equal(all.length, 6); // id, fan needs, work needs, the expression, route needs, route's when
        assert.ok(all.every((l) => sliceOf(m.text, l.range) === "load"));
        assert.equal((await refs(m.at.loadId, false)).length, 5);
        const work2 = await refs(m.at.work2Ref, true);
        assert.deepEqual(work2.map((l) => l.range.start), [m.at.work2Id, m.at.work2Needs, m.at.work2Ref]);
      });

      test("document highlights: the references, the declaration as a write, scopes respected", async () => {
        const highlights = (p: Position): Promise<Array<{ range: Location["range"]; kind: number }> | null> =>
          client.request("textDocument/documentHighlight", { textDocument: td, position: p });
        const load = await highlights(shift(m.at.extRef, 1));
        const refs: Location[] = await client.request("textDocument/references", { textDocument: td, position: m.at.loadId, context: { includeDeclaration: true } });
        assert.deepEqual(load!.map((h) => h.range), refs.map((l) => l.range));
        assert.deepEqual(load!.map((h) => h.kind), refs.map((l) => (l.range.start.line === m.at.loadId.line ? 3 : 2)));
        // the second body's `work` is another step
        const work2 = await highlights(m.at.work2Ref);
        assert.deepEqual(work2!.map((h) => h.range.start), [m.at.work2Id, m.at.work2Needs, m.at.work2Ref]);
        assert.equal(await highlights(shift(m.at.name, 1)), null);
      });

      test("prepareRename and rename across every reference kind", async () => {
        const prepared = await client.request("textDocument/prepareRename", { textDocument: td, position: shift(m.at.outStep, 2) });
        assert.deepEqual(prepared.range.start, m.at.outStep);
        assert.equal(prepared.placeholder, "work");
        const edit: WorkspaceEdit = await client.request("textDocument/rename", { textDocument: td, position: shift(m.at.outStep, 2), newName: "worker" });
        const edits = edit.changes![uri];
        assert.equal(edits.length, 2); // outputStep and the id: the other body's `work` stays
        const renamed = applyWorkspaceEdit(m.text, uri, edit);
        assert.ok(renamed.includes(format === "json" ? '"outputStep": "worker"' : "outputStep: worker"));
        assert.ok(renamed.includes(format === "json" ? '"needs": ["work"]' : "- work\n"));
        const load: WorkspaceEdit = await client.request("textDocument/rename", { textDocument: td, position: m.at.extRef, newName: "load source" });
        const text = applyWorkspaceEdit(m.text, uri, load);
        assert.equal(load.changes![uri].length, 6);
        assert.ok(text.includes(format === "json" ? 'steps[\\"load source\\"].output.hits' : 'steps["load source"].output.hits'));
        // the edited document is still valid
        const check = fileUri(`navigation-renamed.lwir.${format}`);
        client.open(check, text);
        const published = await client.waitForDiagnostics(check, { version: 1 });
        assert.deepEqual(published.diagnostics, [], JSON.stringify(published.diagnostics));
        client.close(check);
      });

      test("refusals come back as errors with a message", async () => {
        const prepare = await client.reply("textDocument/prepareRename", { textDocument: td, position: { line: 1, character: 3 } });
        assert.equal(prepare.error?.code, -32803); // RequestFailed
        assert.match(prepare.error!.message, /Only step ids can be renamed/);
        const invalid = await client.reply("textDocument/rename", { textDocument: td, position: m.at.loadId, newName: "a.b" });
        assert.match(invalid.error!.message, /must not contain "\.", "\[" or "\]"/);
        const duplicate = await client.reply("textDocument/rename", { textDocument: td, position: m.at.loadId, newName: "route" });
        assert.match(duplicate.error!.message, /A step "route" already exists in this list/);
        const noName = await client.reply("textDocument/rename", { textDocument: td, position: m.at.loadId });
        assert.equal(noName.error?.code, ErrorCode.InvalidParams);
      });
    });
  }

  test("documents that are not LWIR get no answers", async () => {
    const uri = fileUri("plain.json");
    client.open(uri, '{"steps": [{"id": "a"}]}');
    assert.equal(await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 20 } }), null);
    assert.equal(await client.request("textDocument/definition", { textDocument: { uri }, position: { line: 0, character: 20 } }), null);
    client.close(uri);
  });
});
