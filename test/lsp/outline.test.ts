// Protocol tests of the outline features through the built server (dist/server.js, `npm run build`
// first): documentSymbol, foldingRange, selectionRange, semanticTokens/full, codeLens and the custom
// lwir/workflowVersion request, in JSON and YAML, on valid, invalid and broken documents.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { CodeLens, DocumentSymbol, FoldingRange, SelectionRange, SemanticTokens } from "vscode-languageserver-types";
import { canonicalJson, workflowVersionOf } from "../../server/src/lwir/canonical";
import { SEMANTIC_TOKENS_LEGEND } from "../../server/src/service/semanticTokens";
import { stepsUsing } from "../../server/src/run/preview";
import type { WorkflowVersionResult } from "../../server/src/protocol";
import { ErrorCode, LspClient, ResponseErrorReply, cursor, fileUri } from "./harness";
import {
  FORMATS, OUTLINE_TOKENS, SCOPED_TOKENS, decodeTokens, outlineWorkflow, render, scopedWorkflow, selectionTexts, strictlyNested, tokenSummary,
} from "../unit/outline-fixtures";

describe("outline features over LSP", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  const textDocument = (uri: string) => ({ textDocument: { uri } });

  test("capabilities", () => {
    const c = client.initializeResult.capabilities;
    assert.deepEqual(c.documentSymbolProvider, { label: "LWIR" });
    assert.equal(c.foldingRangeProvider, true);
    assert.equal(c.selectionRangeProvider, true);
    assert.deepEqual(c.semanticTokensProvider, { legend: SEMANTIC_TOKENS_LEGEND, full: true, range: false });
    assert.deepEqual(c.codeLensProvider, { resolveProvider: false });
  });

  for (const format of FORMATS) {
    test(`${format}: a valid document`, async () => {
      const uri = fileUri(`outline-valid.lwir.${format}`);
      const text = render(outlineWorkflow(), format);
      client.open(uri, text);

      const symbols: DocumentSymbol[] = await client.request("textDocument/documentSymbol", textDocument(uri));
      const steps = symbols.find((s) => s.name === "steps")!;
      assert.deepEqual(steps.children!.map((s) => [s.name, s.detail, (s.children ?? []).map((c) => c.name)]), [
        ["load", "tool.call", []], ["fanA", "parallel", ["one"]], ["fanB", "parallel", ["one", "two"]], ["route", "decision", []], ["report", "ai.generate", []],
      ]);

      const folding: FoldingRange[] = await client.request("textDocument/foldingRange", textDocument(uri));
      const stepsLine = symbols.find((s) => s.name === "steps")!.range.start.line;
      assert.ok(folding.some((r) => r.startLine === stepsLine && r.endLine > stepsLine + 100), JSON.stringify(folding.slice(0, 5)));

      const at = cursor(text.replace("steps.load.output", "steps.lo|ad.output"));
      const [selection]: SelectionRange[] = await client.request("textDocument/selectionRange", { ...textDocument(uri), positions: [at.position] });
      assert.ok(strictlyNested(selection, text));
      const texts = selectionTexts(selection, text);
      assert.deepEqual(texts.slice(0, 3), ["load", "steps.load.output", "{{ steps.load.output }}"]);
      assert.equal(texts[texts.length - 1], text);

      const tokens: SemanticTokens = await client.request("textDocument/semanticTokens/full", textDocument(uri));
      assert.deepEqual(tokenSummary(decodeTokens(tokens.data, text)), OUTLINE_TOKENS);

      const { id, hash } = workflowVersionOf(outlineWorkflow());
      const lenses: CodeLens[] = await client.request("textDocument/codeLens", textDocument(uri));
      // then "Preview prompt" on each ai.generate step (test/lsp/dryRun.test.ts)
      const previews = stepsUsing(outlineWorkflow(), "ai.generate").map(() => ["Preview prompt", "lwir.previewPrompt"]);
      assert.ok(previews.length > 0);
      assert.deepEqual(lenses.map((l) => [l.command?.title, l.command?.command]), [[`WorkflowVersion ${id}`, "lwir.copyWorkflowVersionId"], ["Open graph", "lwir.openGraph"], ...previews]);
      assert.equal(lenses[0].range.start.line, format === "json" ? 1 : 0);
      assert.deepEqual(lenses[1].command?.arguments, [{ uri }]);
      assert.deepEqual(lenses[0].command?.arguments, [{ uri, id }]);

      const info: WorkflowVersionResult = await client.request("lwir/workflowVersion", { uri });
      assert.deepEqual(info, { uri, valid: true, id, hash, problems: 0, version: 1 }, "the answer says which version of the text it is about");
      const full: WorkflowVersionResult = await client.request("lwir/workflowVersion", { uri, canonicalJson: true });
      assert.equal(full.canonicalJson, canonicalJson(outlineWorkflow()));
      assert.deepEqual(await client.request("lwir/workflowVersion", textDocument(uri)), info, "also with {textDocument: {uri}}");
      client.close(uri);
    });

    test(`${format}: an invalid document, then an edit that makes it valid`, async () => {
      const uri = fileUri(`outline-scoped.lwir.${format}`);
      const text = render(scopedWorkflow(), format);
      client.open(uri, text);
      const published = await client.waitForDiagnostics(uri, { version: 1 });
      const problems = published.diagnostics.length;
      assert.ok(problems >= 4, String(problems));

      const tokens: SemanticTokens = await client.request("textDocument/semanticTokens/full", textDocument(uri));
      assert.deepEqual(tokenSummary(decodeTokens(tokens.data, text)), SCOPED_TOKENS);
      const [lens]: CodeLens[] = await client.request("textDocument/codeLens", textDocument(uri));
      assert.equal(lens.command?.title, `${problems} problems`);
      assert.deepEqual(await client.request("lwir/workflowVersion", { uri }), { uri, valid: false, id: null, hash: null, problems, version: 1 });

      // replace the whole text with the valid workflow: the next answers are about the new version at once
      client.change(uri, 2, [{ text: render(outlineWorkflow(), format) }]);
      const info: WorkflowVersionResult = await client.request("lwir/workflowVersion", { uri });
      assert.equal(info.id, workflowVersionOf(outlineWorkflow()).id);
      assert.equal(info.version, 2);
      client.close(uri);
    });

    test(`${format}: a document with a syntax error keeps its folding and selection ranges`, async () => {
      const uri = fileUri(`outline-broken.lwir.${format}`);
      const good = render(outlineWorkflow(), format);
      const text = format === "json" ? good.replace('"kind": "Workflow",', '"kind": "Workflow"') : good.replace("kind: Workflow", "kind: [Workflow");
      client.open(uri, text);
      const folding: FoldingRange[] = await client.request("textDocument/foldingRange", textDocument(uri));
      assert.ok(folding.length > 20, String(folding.length));
      const at = cursor(text.replace("steps.load.output", "steps.lo|ad.output"));
      const [selection]: SelectionRange[] = await client.request("textDocument/selectionRange", { ...textDocument(uri), positions: [at.position] });
      assert.deepEqual(selectionTexts(selection, text).slice(0, 2), ["load", "steps.load.output"]);
      assert.deepEqual(await client.request("textDocument/documentSymbol", textDocument(uri)), []);
      assert.deepEqual(await client.request("textDocument/semanticTokens/full", textDocument(uri)), { data: [] });
      const info: WorkflowVersionResult = await client.request("lwir/workflowVersion", { uri, canonicalJson: true });
      assert.equal(info.valid, false);
      assert.ok(info.problems >= 1);
      assert.equal(info.canonicalJson, undefined);
      client.close(uri);
    });
  }

  test("ordinary JSON and YAML files get no answers (other extensions give theirs)", async () => {
    for (const [name, text] of [["package.json", '{\n  "name": "x",\n  "steps": [\n    1\n  ]\n}\n'], ["ci.yaml", "jobs:\n  build:\n    steps: []\n"]]) {
      const uri = fileUri(name);
      client.open(uri, text);
      for (const method of ["textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/semanticTokens/full", "textDocument/codeLens"]) {
        assert.equal(await client.request(method, textDocument(uri)), null, `${method} on ${name}`);
      }
      assert.equal(await client.request("textDocument/selectionRange", { ...textDocument(uri), positions: [{ line: 0, character: 0 }] }), null);
      assert.equal(await client.request("lwir/workflowVersion", { uri }), null);
      client.close(uri);
    }
    assert.equal(await client.request("lwir/workflowVersion", { uri: fileUri("never-opened.lwir.json") }), null);
  });

  test("bad params are refused with InvalidParams", async () => {
    for (const [method, params] of [
      ["lwir/workflowVersion", {}],
      ["lwir/workflowVersion", null],
      ["textDocument/selectionRange", { textDocument: { uri: fileUri("x.lwir.json") }, positions: [{ line: "a" }] }],
    ] as const) {
      await assert.rejects(client.request(method, params), (e: unknown) => e instanceof ResponseErrorReply && e.code === ErrorCode.InvalidParams, method);
    }
    assert.ok(client.alive);
  });
});
