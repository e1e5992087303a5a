// The graph view's request through the built server (dist/server.js, `npm run build` first): lwir/graph
// on a real-world workflow in JSON and YAML, across edits that keep the shape (no new layout), add an
// edge (a new layout), break the document (the last good graph, marked) and mend it; Mermaid on request;
// null for documents that are not LWIR; InvalidParams without a uri.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { GraphResult } from "../../server/src/protocol";
import { REALWORLD } from "../corpus";
import { ErrorCode, LspClient, ResponseErrorReply, fileUri } from "./harness";

const NAME = "docs-lwir-reference-worked-example-review-loop-wrapped.lwir";

describe("lwir/graph over LSP", () => {
  let client: LspClient;
  before(async () => { client = await LspClient.start({ pull: false, initializationOptions: { settings: { validation: { delay: 0 } } } }); });
  after(() => client.stop());

  for (const format of ["json", "yaml"] as const) {
    test(`${format}: the graph of each version; the layout only when the shape changes`, async () => {
      const uri = fileUri(`graph-${NAME}.${format}`);
      client.open(uri, readFileSync(join(REALWORLD, `${NAME}.${format}`), "utf8"));
      const first: GraphResult = await client.request("lwir/graph", { uri });
      assert.equal(first.version, 1);
      assert.equal(first.parseOk, true);
      assert.equal(first.laidOut, true);
      const steps = first.graph.nodes.filter((n) => n.kind === "step").map((n) => n.id);
      assert.deepEqual(steps, ["review-cands", "review-cands.worker", "review-cands.review", "review-cands.route"]);
      assert.equal(first.layout.nodes.length, first.graph.nodes.length);
      assert.ok(first.graph.edges.some((e) => e.from === "review-cands.route" && e.to === "review-cands.worker" && e.back), "the loop's back edge");
      assert.equal(first.mermaid, undefined);

      // a prompt changes: same nodes and edges, so the answer reuses the layout
      client.edit(uri, "Review worker output.", "Review the worker's output.");
      const second: GraphResult = await client.request("lwir/graph", { uri });
      assert.equal(second.version, 2);
      assert.equal(second.laidOut, false);
      assert.equal(second.shapeKey, first.shapeKey);
      assert.deepEqual(second.layout, first.layout);

      // a new needs entry: route also needs worker
      if (format === "json") client.edit(uri, '"needs": [\n            "review"\n          ]', '"needs": [\n            "review", "worker"\n          ]');
      else client.edit(uri, "        needs:\n          - review\n", "        needs:\n          - review\n          - worker\n");
      const third: GraphResult = await client.request("lwir/graph", { uri });
      assert.equal(third.version, 3);
      assert.equal(third.laidOut, true);
      assert.notEqual(third.shapeKey, first.shapeKey);
      assert.ok(third.graph.edges.some((e) => e.kind === "needs" && e.from === "review-cands.worker" && e.to === "review-cands.route"), JSON.stringify(third.graph.edges));

      // broken: the last good graph, with the syntax error
      const text = client.text(uri);
      client.change(uri, 4, [{ text: format === "json" ? text.replace('"steps": [', '"steps": [[') : text.replace("steps:\n", "steps: [\n") }]);
      const broken: GraphResult = await client.request("lwir/graph", { uri });
      assert.equal(broken.version, 4);
      assert.equal(broken.parseOk, false);
      assert.ok(broken.error && broken.error.message.length > 0);
      assert.deepEqual(broken.graph, third.graph);
      assert.equal(broken.shapeKey, third.shapeKey);

      // mended: current again, and the shape it had before the break needs no new layout
      client.change(uri, 5, [{ text }]);
      const mended: GraphResult = await client.request("lwir/graph", { uri, mermaid: true });
      assert.equal(mended.parseOk, true);
      assert.equal(mended.laidOut, false);
      assert.match(mended.mermaid ?? "", /^flowchart TD\n/);

      const range = mended.selections["review-cands.route"];
      const line = client.text(uri).split("\n")[range.start.line];
      assert.equal(line.slice(range.start.character, range.end.character).replace(/"/g, ""), "route");
      client.close(uri);
    });
  }

  test("null for a document that is not LWIR or not open; InvalidParams without a uri", async () => {
    const plain = fileUri("package.json");
    client.open(plain, '{"name": "x"}');
    assert.equal(await client.request("lwir/graph", { uri: plain }), null);
    assert.equal(await client.request("lwir/graph", { uri: fileUri("never-opened.lwir.json") }), null);
    await assert.rejects(client.request("lwir/graph", {}), (e: unknown) => e instanceof ResponseErrorReply && e.code === ErrorCode.InvalidParams);
    await assert.rejects(client.request("lwir/graph", null), (e: unknown) => e instanceof ResponseErrorReply && e.code === ErrorCode.InvalidParams);
    // {textDocument: {uri}} is accepted like the other requests
    const uri = fileUri("td.lwir.json");
    client.open(uri, readFileSync(join(REALWORLD, `${NAME}.json`), "utf8"));
    const result: GraphResult = await client.request("lwir/graph", { textDocument: { uri } });
    assert.equal(result.graph.nodes.filter((n) => n.kind === "step").length, 4);
    client.close(uri);
  });
});
