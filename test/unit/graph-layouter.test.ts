// The graph view's layouts off the request path: the order and staleness rules of service/graph.ts
// (GraphViews with an async Layouter, driven here by a fake whose layouts finish when the test says) and
// the worker-thread layouter (graph/workerLayouter.ts): the same layout as in-thread, and in-thread from
// then on, logged once, when the worker cannot start or dies.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { GraphViews, graphOfAnalysis, type Cancellation, type GraphSnapshot } from "../../server/src/service/graph";
import { layoutGraph, type GraphLayout } from "../../server/src/graph/layout";
import { graphShapeKey, type WorkflowGraph } from "../../server/src/graph/model";
import { WorkerLayouter } from "../../server/src/graph/workerLayouter";
import type { GraphResult } from "../../server/src/protocol";
import { ROOT } from "../corpus";

const URI = "file:///w/chain.lwir.json";

/** A valid chain of `n` tool steps; `extra` adds needs edges (step index → the indices it also needs). */
function chain(n: number, extra: Record<number, number[]> = {}): string {
  const steps = Array.from({ length: n }, (_, i) => ({
    id: `s${i}`, uses: "tool.call", output: { mode: "text" }, with: { tool: "artifact.read", input: {} },
    ...(i > 0 ? { needs: [`s${i - 1}`, ...(extra[i] ?? []).map((j) => `s${j}`)] } : {}),
  }));
  return JSON.stringify({
    apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "chain" },
    input: { schema: { type: "object" } }, output: { schema: { type: "object" } },
    permissions: { tools: ["artifact.read"], models: [], secrets: [], network: [] }, steps,
  }, null, 2);
}

/** An async layouter whose layouts finish only when the test finishes them, in any order. */
class FakeLayouter {
  readonly pending: { graph: WorkflowGraph; finish: () => void; fail: (error: Error) => void }[] = [];
  layout(graph: WorkflowGraph): Promise<GraphLayout> {
    return new Promise((resolve, reject) => {
      this.pending.push({ graph, finish: () => resolve(layoutGraph(graph)), fail: reject });
    });
  }
  /** Finishes the layout of the shape of `text` and lets the answers waiting for it run. */
  async finish(text: string): Promise<void> {
    const key = graphShapeKey(graphOf(text));
    const i = this.pending.findIndex((p) => graphShapeKey(p.graph) === key);
    assert.ok(i >= 0, "that layout was asked for");
    this.pending.splice(i, 1)[0].finish();
    await settle();
  }
  keys(): string[] {
    return this.pending.map((p) => graphShapeKey(p.graph));
  }
}

/** An open document whose versions the test replaces, as the LSP documents would. */
class Doc {
  version = 0;
  analysis!: Analysis;
  constructor(text: string) { this.set(text); }
  set(text: string): void {
    this.version++;
    this.analysis = analyzeText(text, "json");
  }
  readonly latest = (): GraphSnapshot => ({ version: this.version, analysis: this.analysis });
}

function graphOf(text: string): WorkflowGraph {
  return graphOfAnalysis(analyzeText(text, "json"))!;
}

/** Lets every promise reaction queued so far run (several rounds: answers chain a few awaits). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The answer's layout is the in-thread layout of the answer's own graph. */
function consistent(result: GraphResult): void {
  assert.deepEqual(result.layout, layoutGraph(result.graph));
}

/** Records when each promise settled, to assert which answered first. */
function track<T>(promise: Promise<T>, order: string[], name: string): Promise<T> {
  return promise.then((value) => { order.push(name); return value; });
}

describe("graph layouts in flight (service/graph.ts)", () => {
  test("one layout per document in flight: requests for the same shape share it", async () => {
    const fake = new FakeLayouter();
    const views = new GraphViews(fake);
    const doc = new Doc(chain(5));
    const a = views.answer(URI, doc.latest);
    const b = views.answer(URI, doc.latest);
    await settle();
    assert.equal(fake.pending.length, 1);
    await fake.finish(chain(5));
    const [ra, rb] = await Promise.all([a, b]);
    assert.equal(ra!.version, 1);
    assert.equal(rb!.layout, ra!.layout);
    assert.equal(views.layouts, 1);
    // the shape is laid out now: an answer without waiting
    const c = await views.answer(URI, doc.latest);
    assert.equal(c!.laidOut, false);
    consistent(c!);
  });

  test("a newer shape replaces the queued one; each answer carries the layout of its own graph, superseded ones start again from the newest version", async () => {
    const fake = new FakeLayouter();
    const views = new GraphViews(fake);
    const v1 = chain(6);
    const v2 = chain(6, { 3: [0] });
    const v3 = chain(6, { 3: [0], 5: [1] });
    const doc = new Doc(v1);
    const order: string[] = [];
    const first = track(views.answer(URI, doc.latest), order, "first");
    await settle();
    doc.set(v2);
    const second = track(views.answer(URI, doc.latest), order, "second");
    await settle();
    assert.deepEqual(fake.keys(), [graphShapeKey(graphOf(v1))], "v2 waits: one layout in flight");
    doc.set(v3);
    const third = track(views.answer(URI, doc.latest), order, "third");
    await settle();
    await fake.finish(v1);
    assert.deepEqual(order, ["first"]);
    const r1 = (await first)!;
    assert.equal(r1.version, 1, "the answer keeps the version its layout is for");
    consistent(r1);
    // v2's layout was never started: the queued v2 was replaced by v3
    assert.deepEqual(fake.keys(), [graphShapeKey(graphOf(v3))]);
    await fake.finish(v3);
    const [r2, r3] = await Promise.all([second, third]);
    for (const r of [r2!, r3!]) {
      assert.equal(r.version, 3, "the superseded request is answered from the newest version");
      assert.equal(r.laidOut, true);
      consistent(r);
    }
    assert.ok(r3!.graph.edges.some((e) => e.from === "s1" && e.to === "s5"));
    assert.equal(views.layouts, 2);
  });

  test("a request whose shape has a layout is answered while another shape's layout is in flight", async () => {
    const fake = new FakeLayouter();
    const views = new GraphViews(fake);
    const base = chain(4);
    const doc = new Doc(base);
    const first = views.answer(URI, doc.latest);
    await settle();
    await fake.finish(base);
    await first;
    const order: string[] = [];
    doc.set(chain(4, { 3: [0] }));
    const slow = track(views.answer(URI, doc.latest), order, "slow");
    await settle();
    // back to the first shape (an undo) with the new layout still running
    doc.set(base);
    const quick = track(views.answer(URI, doc.latest), order, "quick");
    await settle();
    assert.deepEqual(order, ["quick"]);
    assert.equal((await quick)!.version, 3);
    await fake.finish(chain(4, { 3: [0] }));
    const s = (await slow)!;
    assert.deepEqual(order, ["quick", "slow"]);
    assert.equal(s.version, 2);
    consistent(s);
  });

  test("provisional: an edit that only changes edges is answered at once on the last layout; the next request gets the new layout", async () => {
    const fake = new FakeLayouter();
    const views = new GraphViews(fake);
    const base = chain(6);
    const doc = new Doc(base);
    const first = views.answer(URI, doc.latest, { provisional: true });
    await settle();
    assert.equal(fake.pending.length, 1, "nothing laid out yet: the first answer waits, provisional or not");
    await fake.finish(base);
    const r1 = (await first)!;
    assert.equal(r1.provisional, undefined);
    // a needs entry added (s4 also needs s0) and one renamed (s5 needs s3 instead of s4)
    const edited = chain(6, { 4: [0] }).replace('"needs": [\n        "s4"', '"needs": [\n        "s3"');
    assert.notEqual(edited, chain(6, { 4: [0] }), "the rename applied");
    doc.set(edited);
    const r2 = (await views.answer(URI, doc.latest, { provisional: true }))!;
    assert.equal(r2.provisional, true);
    assert.equal(r2.laidOut, false);
    assert.equal(r2.version, 2);
    assert.deepEqual(fake.keys(), [graphShapeKey(graphOf(edited))], "its own layout was started");
    assert.equal(r2.layout.nodes, r1.layout.nodes, "every node keeps its box");
    assert.equal(r2.layout.edges.length, r2.graph.edges.length);
    const has = (r: GraphResult, from: string, to: string) => r.graph.edges.some((e) => e.from === from && e.to === to);
    assert.ok(has(r2, "s0", "s4") && has(r2, "s3", "s5") && !has(r2, "s4", "s5"));
    r2.layout.edges.forEach((laid, i) => {
      const edge = r2.graph.edges[i];
      assert.equal(laid.index, i);
      assert.deepEqual([laid.from, laid.to], [edge.from, edge.to]);
      assert.ok(laid.points.length >= 2 && laid.points.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)));
      const before = r1.layout.edges.find((e) => e.from === edge.from && e.to === edge.to);
      if (before) assert.deepEqual(laid.points, before.points, `${edge.from} -> ${edge.to} keeps its route`);
      else {
        // a new edge runs from the bottom of one box to the top of the other
        const a = r1.layout.nodes.find((n) => n.id === edge.from)!;
        const b = r1.layout.nodes.find((n) => n.id === edge.to)!;
        assert.deepEqual(laid.points[0], { x: a.x + a.width / 2, y: a.y + a.height });
        assert.deepEqual(laid.points.at(-1), { x: b.x + b.width / 2, y: b.y });
      }
    });
    assert.notEqual(r2.shapeKey, r1.shapeKey);
    // without the flag: the new layout, once it is there
    const settled = views.answer(URI, doc.latest);
    await settle();
    await fake.finish(edited);
    const r3 = (await settled)!;
    assert.equal(r3.provisional, undefined);
    assert.equal(r3.laidOut, true);
    consistent(r3);
    assert.notEqual(r3.shapeKey, r2.shapeKey, "a provisional answer's key never equals a real layout's");
    assert.equal(views.layouts, 2);
  });

  test("provisional: a new or renamed node waits for its layout as before", async () => {
    const fake = new FakeLayouter();
    const views = new GraphViews(fake);
    const doc = new Doc(chain(4));
    const first = views.answer(URI, doc.latest);
    await settle();
    await fake.finish(chain(4));
    await first;
    doc.set(chain(5));
    const order: string[] = [];
    const next = track(views.answer(URI, doc.latest, { provisional: true }), order, "next");
    await settle();
    assert.deepEqual(order, [], "a step added: no answer before its layout");
    await fake.finish(chain(5));
    const r = (await next)!;
    assert.equal(r.provisional, undefined);
    consistent(r);
  });

  test("documents are laid out independently", async () => {
    const fake = new FakeLayouter();
    const views = new GraphViews(fake);
    const a = new Doc(chain(3));
    const b = new Doc(chain(4));
    const ra = views.answer("file:///a.lwir.json", a.latest);
    const rb = views.answer("file:///b.lwir.json", b.latest);
    await settle();
    assert.equal(fake.pending.length, 2);
    await fake.finish(chain(4));
    assert.equal((await rb)!.graph.nodes.filter((n) => n.kind === "step").length, 4);
    await fake.finish(chain(3));
    assert.equal((await ra)!.graph.nodes.filter((n) => n.kind === "step").length, 3);
  });

  test("a cancelled request stops waiting; its layout is kept for the next request", async () => {
    const fake = new FakeLayouter();
    const views = new GraphViews(fake);
    const doc = new Doc(chain(5));
    let cancel = () => {};
    const token: Cancellation = {
      isCancellationRequested: false,
      onCancellationRequested: (listener) => { cancel = () => { token.isCancellationRequested = true; listener(); }; return { dispose: () => {} }; },
    };
    const cancelled = views.answer(URI, doc.latest, { token });
    await settle();
    cancel();
    assert.equal(await cancelled, undefined);
    await fake.finish(chain(5));
    const next = await views.answer(URI, doc.latest);
    assert.equal(views.layouts, 1);
    assert.equal(next!.laidOut, false);
    consistent(next!);
  });

  test("a failed layout fails its answers, not the queue; a closed document answers undefined", async () => {
    const fake = new FakeLayouter();
    const views = new GraphViews(fake);
    const doc = new Doc(chain(3));
    const failing = views.answer(URI, doc.latest);
    await settle();
    doc.set(chain(3, { 2: [0] }));
    const queued = views.answer(URI, doc.latest);
    await settle();
    fake.pending.shift()!.fail(new Error("layout broke"));
    await assert.rejects(failing, /layout broke/);
    await settle();
    await fake.finish(chain(3, { 2: [0] }));
    consistent((await queued)!);
    assert.equal(await views.answer(URI, () => undefined), undefined);
  });
});

describe("the worker-thread layouter (graph/workerLayouter.ts)", () => {
  const graph = graphOf(chain(30, { 10: [2], 20: [5, 7] }));

  test("lays out in a worker exactly as in-thread; dispose fails what waits, and later layouts are in-thread", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lwir-layout-worker-"));
    const file = join(dir, "graph-layout-worker.js");
    // bundled as scripts/build.mjs does (esbuild's command line: its JavaScript API cannot run from a bundled test)
    const built = spawnSync(process.execPath, [join(ROOT, "node_modules", "esbuild", "bin", "esbuild"), join(ROOT, "server", "src", "graphLayoutWorker.ts"),
      "--bundle", "--platform=node", "--format=cjs", `--outfile=${file}`, "--log-level=warning"], { encoding: "utf8" });
    assert.equal(built.status, 0, built.stderr);
    const logs: string[] = [];
    const layouter = new WorkerLayouter(file, (m) => logs.push(m));
    const [one, two] = await Promise.all([layouter.layout(graph), layouter.layout(graphOf(chain(3)))]);
    assert.deepEqual(one, layoutGraph(graph));
    assert.deepEqual(two, layoutGraph(graphOf(chain(3))));
    assert.equal(layouter.inThread, false);
    // a layout still waiting at shutdown fails at once rather than being computed in-thread
    const waiting = layouter.layout(graph);
    layouter.dispose();
    await assert.rejects(waiting, /shutting down/);
    assert.equal(layouter.inThread, true);
    assert.deepEqual(await layouter.layout(graph), layoutGraph(graph));
    assert.deepEqual(logs, []);
  });

  test("a worker that cannot start: in-thread, logged once", async () => {
    const logs: string[] = [];
    const layouter = new WorkerLayouter(join(tmpdir(), "lwir-no-such-worker", "graph-layout-worker.js"), (m) => logs.push(m));
    const results = await Promise.all([layouter.layout(graph), layouter.layout(graph)]);
    assert.deepEqual(results[0], layoutGraph(graph));
    assert.deepEqual(await layouter.layout(graph), layoutGraph(graph));
    assert.equal(logs.length, 1, logs.join("\n"));
    assert.match(logs[0], /graph layout worker/);
    assert.equal(layouter.inThread, true);
    layouter.dispose();
  });

  test("a worker that dies mid-layout: the waiting layouts are computed in-thread, logged once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lwir-layout-worker-"));
    const file = join(dir, "dies.js");
    writeFileSync(file, 'require("node:worker_threads").parentPort.on("message", () => process.exit(3));\n');
    const logs: string[] = [];
    const layouter = new WorkerLayouter(file, (m) => logs.push(m));
    const results = await Promise.all([layouter.layout(graph), layouter.layout(graph)]);
    for (const r of results) assert.deepEqual(r, layoutGraph(graph));
    assert.equal(logs.length, 1, logs.join("\n"));
    assert.match(logs[0], /exited \(code 3\)/);
    assert.deepEqual(await layouter.layout(graph), layoutGraph(graph));
    assert.equal(logs.length, 1);
  });
});
