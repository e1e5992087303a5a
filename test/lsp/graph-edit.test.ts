// lwir/graphEdit through the built server (dist/server.js, `npm run build` first): a connect answered as a
// WorkspaceEdit that, applied by the client as one didChange, shows in the next lwir/graph as the new edge;
// refusals as RequestFailed errors with the reason as message and the structured data; InvalidParams
// without an action.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { GraphResult } from "../../server/src/protocol";
import { REALWORLD } from "../corpus";
import { ErrorCode, LspClient, ResponseErrorReply, fileUri } from "./harness";

const NAME = "docs-lwir-reference-worked-example-review-loop-wrapped.lwir";
const REQUEST_FAILED = -32803;

describe("lwir/graphEdit over LSP", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  test("a connect closing a valid loop is offered (a loop refusal with its data); acceptLoop: true applies edge and maxVisits", async () => {
    const uri = fileUri("graph-edit-loop-offer.lwir.yaml");
    const text = ["apiVersion: littleworkflow.dev/v0.1", "kind: Workflow", "metadata:", "  name: loop", "permissions:", "  models: [m]", "steps:",
      "  - id: draft", "    uses: ai.generate", "    with: {model: m, prompt: \"Draft\"}", "    output: {mode: text}",
      "  - id: route", "    uses: decision", "    needs: [draft]", "    with:", "      cases:", "        - when: \"{{ steps.draft.lastOutput == 'ok' }}\"", "          to: end", ""].join("\n");
    client.open(uri, text);
    const action = { kind: "connect", from: "route", to: "draft", as: "default" };
    await assert.rejects(client.request("lwir/graphEdit", { textDocument: { uri }, action }),
      (e: unknown) => e instanceof ResponseErrorReply && e.code === REQUEST_FAILED && /closes the loop "draft" → "route" → "draft"; it needs maxVisits 2 on "draft", "route"/.test(e.message)
        && JSON.stringify(e.data) === JSON.stringify({ reason: "loop", loop: ["draft", "route"], maxVisits: 2, steps: ["draft", "route"] }));
    // the offer changed nothing: the graph still has no edge back
    const before: GraphResult = await client.request("lwir/graph", { uri });
    assert.ok(!before.graph.edges.some((e) => e.from === "route" && e.to === "draft"));
    const edit = await client.request("lwir/graphEdit", { textDocument: { uri }, action: { ...action, acceptLoop: true } });
    const applied = TextDocument.applyEdits(client.document(uri), edit.changes[uri]);
    assert.equal(applied.split("maxVisits: 2").length - 1, 2, applied);
    client.change(uri, client.version(uri) + 1, [{ text: applied }]);
    const afterwards: GraphResult = await client.request("lwir/graph", { uri });
    assert.ok(afterwards.graph.edges.some((e) => e.from === "route" && e.to === "draft" && e.kind === "default" && e.back));
    assert.deepEqual(afterwards.graph.nodes.filter((n) => n.kind === "step").map((n) => n.maxVisits), [2, 2]);
    client.close(uri);
  });

  for (const format of ["json", "yaml"] as const) {
    test(`${format}: a connect as a WorkspaceEdit; the graph after it has the edge; refusals say why`, async () => {
      const uri = fileUri(`graph-edit-${NAME}.${format}`);
      const original = readFileSync(join(REALWORLD, `${NAME}.${format}`), "utf8");
      client.open(uri, original);
      const first: GraphResult = await client.request("lwir/graph", { uri });
      assert.ok(!first.graph.edges.some((e) => e.from === "review-cands.worker" && e.to === "review-cands.route"));

      // worker → route closes the review loop through the decision: offered first, then accepted
      const action = { kind: "connect", from: "review-cands.worker", to: "review-cands.route" };
      await assert.rejects(client.request("lwir/graphEdit", { textDocument: { uri }, action }),
        (e: unknown) => e instanceof ResponseErrorReply && e.code === REQUEST_FAILED && (e.data as { reason: string }).reason === "loop"
          && JSON.stringify((e.data as { loop: string[] }).loop) === JSON.stringify(["review-cands.route", "review-cands.worker"]));
      const edit = await client.request("lwir/graphEdit", { textDocument: { uri }, action: { ...action, acceptLoop: true } });
      const edits = edit.changes[uri];
      assert.ok(Array.isArray(edits) && edits.length > 0, JSON.stringify(edit));
      const applied = TextDocument.applyEdits(client.document(uri), edits);
      client.change(uri, client.version(uri) + 1, [{ text: applied }]);
      const second: GraphResult = await client.request("lwir/graph", { uri });
      assert.ok(second.graph.edges.some((e) => e.from === "review-cands.worker" && e.to === "review-cands.route" && e.kind === "needs"));
      assert.equal(second.graph.edges.length, first.graph.edges.length + 1);

      // refused: an unknown step, and a step deleted while others refer to it
      await assert.rejects(client.request("lwir/graphEdit", { textDocument: { uri }, action: { kind: "connect", from: "ghost", to: "review-cands" } }),
        (e: unknown) => e instanceof ResponseErrorReply && e.code === REQUEST_FAILED && /There is no step "ghost"/.test(e.message));
      await assert.rejects(client.request("lwir/graphEdit", { textDocument: { uri }, action: { kind: "deleteStep", id: "review-cands.worker" } }),
        (e: unknown) => e instanceof ResponseErrorReply && e.code === REQUEST_FAILED && /is referred to by/.test(e.message)
          && (e.data as { reason: string }).reason === "referenced");
      // without an action: InvalidParams
      await assert.rejects(client.request("lwir/graphEdit", { textDocument: { uri } }),
        (e: unknown) => e instanceof ResponseErrorReply && e.code === ErrorCode.InvalidParams);
      client.close(uri);
    });
  }
});
