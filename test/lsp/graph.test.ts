// The graph view's request through the built server (dist/server.js, `npm run build` first): lwir/graph
// on a real-world workflow in JSON and YAML, across edits that keep the shape (no new layout), add an
// edge (a provisional answer on the last layout when asked for, then a new layout), break the document (the last good graph, marked) and mend it; Mermaid on request;
// null for documents that are not LWIR; InvalidParams without a uri. At 1,000 steps the layout runs in the
// server's worker thread: a completion sent after the graph request is answered first, the graph's layout is
// the in-thread one, and the server still exits after `exit`.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { GraphResult } from "../../server/src/protocol";
import { layoutGraph } from "../../server/src/graph/layout";
import { GENERATOR, REALWORLD } from "../corpus";
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
      // asked as the extension asks after an edit: at once, on the last layout, marked provisional
      const quick: GraphResult = await client.request("lwir/graph", { uri, provisional: true });
      assert.equal(quick.version, 3);
      assert.equal(quick.provisional, true);
      assert.deepEqual(quick.layout.nodes, second.layout.nodes);
      assert.ok(quick.layout.edges.some((e) => e.from === "review-cands.worker" && e.to === "review-cands.route"), "the new edge is drawn");
      // then the new layout: the one the provisional request started (done by now or awaited), never the patch
      const third: GraphResult = await client.request("lwir/graph", { uri });
      assert.equal(third.version, 3);
      assert.equal(third.provisional, undefined);
      assert.deepEqual(third.layout, layoutGraph(third.graph));
      assert.notEqual(third.shapeKey, quick.shapeKey);
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

describe("lwir/graph at 1,000 steps: the layout off the server's main thread", () => {
  test("a completion sent while the graph is laid out is answered first; the layout equals the in-thread one; the server exits after exit", async () => {
    const client = await LspClient.start({ pull: false, timeout: 120_000, initializationOptions: { settings: { validation: { delay: 0 } } } });
    try {
      const generated = spawnSync(process.execPath, [GENERATOR, "--steps", "1000", "--format", "json", "--seed", "1"], { encoding: "utf8", maxBuffer: 1 << 26 });
      assert.equal(generated.status, 0, generated.stderr);
      const text = generated.stdout;
      const uri = fileUri("graph-1000.lwir.json");
      client.open(uri, text);
      const first: GraphResult = await client.request("lwir/graph", { uri });
      assert.ok(first.graph.nodes.filter((n) => n.kind === "step").length >= 1000);

      // a new needs entry (a new edge) in the middle of the document: the graph must be laid out again
      const firstId = /"id": "([^"]+)"/.exec(text)![1];
      const at = text.indexOf('"needs": [\n', text.length >> 1) + '"needs": [\n'.length;
      const position = client.document(uri).positionAt(at);
      client.change(uri, 2, [{ range: { start: position, end: position }, text: `"${firstId}",\n` }]);
      const order: string[] = [];
      const graph = client.request<GraphResult>("lwir/graph", { uri }).then((r) => { order.push("graph"); return r; });
      const inside = { line: position.line, character: position.character + 1 };
      const completion = client.request("textDocument/completion", { textDocument: { uri }, position: inside }).then((r) => { order.push("completion"); return r; });
      const [answer, items] = await Promise.all([graph, completion]);
      assert.deepEqual(order, ["completion", "graph"], "completion is not held up by the layout");
      assert.ok(items !== null, "completion answered with a list");
      assert.equal(answer.version, 2);
      assert.equal(answer.laidOut, true);
      assert.notEqual(answer.shapeKey, first.shapeKey);
      // the worker's layout is the in-thread layout of the answered graph (deterministic)
      assert.deepEqual(answer.layout, JSON.parse(JSON.stringify(layoutGraph(answer.graph))));
      assert.ok(!client.logs.some((m) => m.includes("graph layout worker")), client.logs.join("\n"));
    } finally {
      await client.stop();
    }
    // shutdown + exit: the process ends by itself (stop() kills it otherwise, which shows as a signal)
    assert.deepEqual(client.exit, { code: 0, signal: null });
  });
});
