// Protocol tests of quick fixes: the built server (dist/server.js, `npm run build` first) over stdio.
// Ask `textDocument/codeAction` for a published diagnostic, apply the returned edit with didChange as an
// editor does, and see the diagnostic gone from the next publication; in JSON and YAML, push and pull.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import type { CodeAction, CompletionItem, CompletionList, TextEdit } from "vscode-languageserver-types";
import { LspClient, fileUri, type Diagnostic } from "./harness";
import { type Json, aiStep, baseWorkflow, toolStep, withSteps } from "../unit/lwir-fixtures";

type Format = "json" | "yaml";
const render = (doc: Json, format: Format) => (format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc));

/** `write` reads `gather` without needing it. */
function undeclared(): Json {
  const doc = baseWorkflow();
  delete doc.steps[1].needs;
  return doc;
}

/** Three steps reading each other, none declaring it. */
function manyUndeclared(): Json {
  return withSteps([
    toolStep("a"),
    aiStep("b", { with: { model: "model-a", prompt: "{{ steps.a.output }}" } }),
    aiStep("c", { with: { model: "model-a", prompt: "{{ steps.a.output }} {{ steps.b.output }}" } }),
  ]);
}

/**
 * Applies a WorkspaceEdit's edits for `uri` as one didChange. Content changes apply one after another,
 * each to the result of the previous one, so they go last-first: earlier positions stay valid.
 */
function applyEdit(client: LspClient, uri: string, action: CodeAction): number {
  const edits: TextEdit[] = action.edit?.changes?.[uri] ?? [];
  assert.ok(edits.length > 0, `${action.title} has edits for ${uri}`);
  const ordered = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
  const version = client.version(uri) + 1;
  client.change(uri, version, ordered.map((e) => ({ range: e.range, text: e.newText })));
  return version;
}

function codeActions(client: LspClient, uri: string, diagnostic: Diagnostic, only?: string[]): Promise<CodeAction[]> {
  return client.request("textDocument/codeAction", {
    textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic], ...(only ? { only } : {}) },
  });
}

const ofCode = (diagnostics: Diagnostic[], code: string) => diagnostics.filter((d) => d.code === code);

describe("code actions over LSP (push diagnostics)", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  for (const format of ["json", "yaml"] as Format[]) {
    test(`${format}: an empty document gets one info notice; New workflow (fix and completion) writes a valid workflow`, async () => {
      const uri = fileUri(`new.lwir.${format}`);
      client.open(uri, "");
      const first = await client.waitForDiagnostics(uri, { version: 1 });
      assert.deepEqual(first.diagnostics.map((d) => [d.code, d.severity]), [["lwir.empty_document", 3]]);
      // completion offers the same skeleton first
      const completion = await client.request<CompletionList | CompletionItem[] | null>("textDocument/completion", { textDocument: { uri }, position: { line: 0, character: 0 } });
      const items = Array.isArray(completion) ? completion : completion?.items ?? [];
      assert.equal(items[0]?.label, "New workflow");
      assert.match((items[0].textEdit as TextEdit).newText, /\$\{0:text\}/);
      // the quick fix
      const actions = await codeActions(client, uri, first.diagnostics[0], ["quickfix"]);
      assert.deepEqual(actions.map((a) => [a.title, a.isPreferred]), [["New workflow", true]]);
      const version = applyEdit(client, uri, actions[0]);
      const next = await client.waitForDiagnostics(uri, { version });
      assert.deepEqual(next.diagnostics, [], JSON.stringify(next.diagnostics));
      client.close(uri);
    });
  }

  for (const format of ["json", "yaml"] as Format[]) {
    test(`${format}: the needs quick fix clears step.undeclared_dependency`, async () => {
      const uri = fileUri(`fix-needs.lwir.${format}`);
      client.open(uri, render(undeclared(), format));
      const first = await client.waitForDiagnostics(uri, { version: 1 });
      const [diagnostic] = ofCode(first.diagnostics, "step.undeclared_dependency");
      assert.ok(diagnostic, first.diagnostics.map((d) => d.code).join(", "));
      const actions = await codeActions(client, uri, diagnostic);
      const fix = actions.find((a) => a.isPreferred);
      assert.ok(fix, actions.map((a) => a.title).join(" | "));
      assert.equal(fix.title, 'Add "gather" to the needs of "write"');
      assert.equal(fix.kind, "quickfix");
      assert.deepEqual(fix.diagnostics?.map((d) => d.code), ["step.undeclared_dependency"]);
      const version = applyEdit(client, uri, fix);
      const next = await client.waitForDiagnostics(uri, { version });
      assert.deepEqual(next.diagnostics, [], JSON.stringify(next.diagnostics));
      client.close(uri);
    });

    test(`${format}: the fix-all source action clears every missing needs entry`, async () => {
      const uri = fileUri(`fix-all.lwir.${format}`);
      client.open(uri, render(manyUndeclared(), format));
      const first = await client.waitForDiagnostics(uri, { version: 1 });
      const undeclaredDiagnostics = ofCode(first.diagnostics, "step.undeclared_dependency");
      assert.equal(undeclaredDiagnostics.length, 3);
      // The quick-fix form is offered next to the single fix.
      const quick = await codeActions(client, uri, undeclaredDiagnostics[0]);
      assert.ok(quick.some((a) => a.kind === "quickfix" && a.title === "Add all missing needs entries"), quick.map((a) => a.title).join(" | "));
      const actions = await codeActions(client, uri, undeclaredDiagnostics[0], ["source.fixAll.lwir"]);
      assert.deepEqual(actions.map((a) => a.kind), ["source.fixAll.lwir"]);
      const version = applyEdit(client, uri, actions[0]);
      const next = await client.waitForDiagnostics(uri, { version });
      assert.deepEqual(next.diagnostics.map((d) => d.code), []);
      client.close(uri);
    });

    test(`${format}: needs: [classfy] — squiggled on the typo, "did you mean" first and preferred, one edit clears both errors`, async () => {
      const uri = fileUri(`fix-typo.lwir.${format}`);
      const doc = withSteps([
        aiStep("classify"),
        aiStep("reply", { needs: ["classfy"], with: { model: "model-a", prompt: "Reply to {{ steps.classify.output }}" } }),
      ]);
      client.open(uri, render(doc, format));
      const first = await client.waitForDiagnostics(uri, { version: 1 });
      assert.deepEqual(first.diagnostics.map((d) => d.code).sort(), ["step.missing_dependency", "step.undeclared_dependency", "terminal.ambiguous"]);
      const [typo] = ofCode(first.diagnostics, "step.missing_dependency");
      const lines = client.text(uri).split("\n");
      assert.equal(lines[typo.range.start.line].slice(typo.range.start.character, typo.range.end.character).replace(/"/g, ""), "classfy");
      assert.match(typo.message as string, / Did you mean "classify"\?$/);
      const actions = await codeActions(client, uri, typo);
      assert.equal(actions[0].title, 'Change "classfy" to "classify"');
      assert.equal(actions[0].isPreferred, true);
      // the read it left undeclared offers the same edit first, not only "add classify beside the typo"
      const [read] = ofCode(first.diagnostics, "step.undeclared_dependency");
      const fromRead = await codeActions(client, uri, read);
      assert.equal(fromRead[0].title, actions[0].title);
      assert.deepEqual(fromRead[0].edit, actions[0].edit);
      assert.equal(fromRead.filter((a) => a.isPreferred).length, 1);
      const version = applyEdit(client, uri, actions[0]);
      const next = await client.waitForDiagnostics(uri, { version });
      assert.deepEqual(next.diagnostics, [], JSON.stringify(next.diagnostics));
      client.close(uri);
    });

    test(`${format}: a model fix, then the other finding's fix, one after the other`, async () => {
      const uri = fileUri(`fix-two.lwir.${format}`);
      const doc = undeclared();
      doc.steps[1].with.model = "model-z";
      client.open(uri, render(doc, format));
      const first = await client.waitForDiagnostics(uri, { version: 1 });
      assert.deepEqual(first.diagnostics.map((d) => d.code).sort(), ["model.disallowed", "step.undeclared_dependency", "terminal.ambiguous"]);
      const model = ofCode(first.diagnostics, "model.disallowed")[0];
      const allow = (await codeActions(client, uri, model)).find((a) => a.title.startsWith("Allow model"));
      assert.ok(allow);
      const v2 = applyEdit(client, uri, allow);
      const second = await client.waitForDiagnostics(uri, { version: v2 });
      assert.deepEqual(second.diagnostics.map((d) => d.code).sort(), ["step.undeclared_dependency", "terminal.ambiguous"]);
      const needs = (await codeActions(client, uri, ofCode(second.diagnostics, "step.undeclared_dependency")[0])).find((a) => a.isPreferred)!;
      const v3 = applyEdit(client, uri, needs);
      const third = await client.waitForDiagnostics(uri, { version: v3 });
      assert.deepEqual(third.diagnostics, []);
      client.close(uri);
    });
  }

  test("yaml: quoting an unquoted {{ … }} clears the hint", async () => {
    const uri = fileUri("fix-quote.lwir.yaml");
    const text = render(baseWorkflow(), "yaml").replace('query: "{{ input.topic }}"', "query: {{ input.topic }}");
    assert.ok(text.includes("query: {{ input.topic }}"), text);
    client.open(uri, text);
    const first = await client.waitForDiagnostics(uri, { version: 1 });
    const hint = ofCode(first.diagnostics, "lwir.yaml_unquoted_template")[0];
    assert.ok(hint, JSON.stringify(first.diagnostics));
    const fix = (await codeActions(client, uri, hint)).find((a) => a.isPreferred)!;
    assert.match(fix.title, /in quotes$/);
    const version = applyEdit(client, uri, fix);
    const next = await client.waitForDiagnostics(uri, { version });
    assert.deepEqual(next.diagnostics, []);
    assert.ok(client.text(uri).includes('query: "{{ input.topic }}"'));
    client.close(uri);
  });

  for (const [title, expected] of [
    ["Quote this value", '      prompt: "Classify this ticket: {{ input.ticket }}"\n'],
    ["Use a block scalar (|)", "      prompt: |\n        Classify this ticket: {{ input.ticket }}\n"],
  ] as const) {
    test(`yaml: a colon in a plain value squiggles the whole value; "${title}" makes the document parse`, async () => {
      const uri = fileUri(`fix-colon-${title.length}.lwir.yaml`);
      const doc = baseWorkflow();
      doc.steps[1].with.prompt = "PROMPT";
      const line = "Classify this ticket: {{ input.ticket }}";
      const text = render(doc, "yaml").replace("PROMPT", line);
      assert.ok(text.includes(`      prompt: ${line}\n`), text);
      client.open(uri, text);
      const first = await client.waitForDiagnostics(uri, { version: 1 });
      assert.deepEqual(first.diagnostics.map((d) => d.code), ["parse"]);
      const [diagnostic] = first.diagnostics;
      const lineNo = text.slice(0, text.indexOf(line)).split("\n").length - 1;
      assert.deepEqual(diagnostic.range, { start: { line: lineNo, character: 14 }, end: { line: lineNo, character: 14 + line.length } });
      assert.doesNotMatch(String(diagnostic.message), /\{\{/);
      const actions = await codeActions(client, uri, diagnostic);
      assert.deepEqual(actions.map((a) => [a.title, a.isPreferred === true]), [["Quote this value", true], ["Use a block scalar (|)", false]]);
      const version = applyEdit(client, uri, actions.find((a) => a.title === title)!);
      const next = await client.waitForDiagnostics(uri, { version });
      assert.ok(!next.diagnostics.some((d) => d.code === "parse"), JSON.stringify(next.diagnostics));
      assert.ok(client.text(uri).includes(expected), client.text(uri));
      client.close(uri);
    });
  }

  for (const format of ["json", "yaml"] as Format[]) {
    test(`${format}: a cycle is squiggled on the needs entry closing it; removing the entry clears it`, async () => {
      const uri = fileUri(`fix-cycle.lwir.${format}`);
      // a needs b, which reads a and needs it: a's entry closes the loop, and it is the one that may go
      const doc = withSteps([aiStep("a", { needs: ["b"] }), aiStep("b", { needs: ["a"], with: { model: "model-a", prompt: "{{ steps.a.output }}" } })]);
      const text = render(doc, format);
      client.open(uri, text);
      const first = await client.waitForDiagnostics(uri, { version: 1 });
      const [diagnostic] = ofCode(first.diagnostics, "lwir.invalid_cycle");
      assert.ok(diagnostic, first.diagnostics.map((d) => d.code).join(", "));
      const line = text.split("\n")[diagnostic.range.start.line];
      assert.equal(line.slice(diagnostic.range.start.character, diagnostic.range.end.character), format === "json" ? '"b"' : "b");
      const actions = await codeActions(client, uri, diagnostic);
      assert.deepEqual(actions.map((a) => a.title), ['Remove needs entry "b" from step "a"']);
      assert.equal(actions[0].isPreferred, true);
      const version = applyEdit(client, uri, actions[0]);
      const next = await client.waitForDiagnostics(uri, { version });
      assert.deepEqual(next.diagnostics, [], JSON.stringify(next.diagnostics));
      client.close(uri);
    });
  }

  test("a diagnostic from an older version gets no fix", async () => {
    const uri = fileUri("fix-stale.lwir.json");
    client.open(uri, render(undeclared(), "json"));
    const first = await client.waitForDiagnostics(uri, { version: 1 });
    const diagnostic = ofCode(first.diagnostics, "step.undeclared_dependency")[0];
    // The user fixes it by hand; the editor still asks with the old diagnostic.
    const fixed = render(baseWorkflow(), "json");
    client.change(uri, 2, [{ text: fixed }]);
    await client.waitForDiagnostics(uri, { version: 2 });
    assert.deepEqual(await codeActions(client, uri, diagnostic), []);
    client.close(uri);
  });
});

describe("code actions over LSP (pull diagnostics)", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: true, initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  for (const format of ["json", "yaml"] as Format[]) {
    test(`${format}: fix, then the next pull has no finding`, async () => {
      const uri = fileUri(`pull-fix.lwir.${format}`);
      client.open(uri, render(undeclared(), format));
      const report = await client.pullDiagnostics(uri);
      const diagnostic = ofCode(report.items ?? [], "step.undeclared_dependency")[0];
      assert.ok(diagnostic);
      const fix = (await codeActions(client, uri, diagnostic)).find((a) => a.isPreferred)!;
      applyEdit(client, uri, fix);
      const next = await client.pullDiagnostics(uri, report.resultId);
      assert.equal(next.kind, "full");
      assert.deepEqual(next.items, []);
      client.close(uri);
    });
  }
});

describe("snippet edits over LSP (issue 22): the choice values fix", () => {
  const doc = () => withSteps([aiStep("classify", { output: { mode: "choice" } })]);
  for (const snippets of [true, false]) {
    test(`a client ${snippets ? "that declares" : "without"} workspace.workspaceEdit.snippetEditSupport gets ${snippets ? "a snippet edit" : "a plain edit"}`, async () => {
      const client = await LspClient.start({
        pull: false, initializationOptions: { settings: { validation: { delay: 0 } } },
        ...(snippets ? { capabilities: { workspace: { workspaceEdit: { documentChanges: true, snippetEditSupport: true } as object } } } : {}),
      });
      try {
        const uri = fileUri("choice.lwir.yaml");
        client.open(uri, render(doc(), "yaml"));
        const published = await client.waitForDiagnostics(uri, { version: 1 });
        const diagnostic = ofCode(published.diagnostics, "output.missing_values")[0];
        assert.ok(diagnostic, JSON.stringify(published));
        const actions = await codeActions(client, uri, diagnostic);
        const fix = actions.find((a) => a.title === 'Add values to the output of "classify"');
        assert.ok(fix, actions.map((a) => a.title).join(" | "));
        if (snippets) {
          const change = fix.edit?.documentChanges?.[0] as unknown as { textDocument: { uri: string }; edits: Array<{ snippet?: { kind: string; value: string } }> };
          assert.equal(change.textDocument.uri, uri);
          assert.equal(change.edits[0].snippet?.kind, "snippet");
          assert.match(change.edits[0].snippet!.value, /\$\{1:value\}/);
        } else {
          assert.equal(fix.edit?.documentChanges, undefined);
          assert.match(fix.edit!.changes![uri][0].newText, /values: \[ ?value ?\]|values:\n\s+- value/);
        }
      } finally {
        await client.stop();
      }
    });
  }
});
