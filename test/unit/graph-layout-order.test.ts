// The layout's own parts beside dagre (server/src/graph/order.ts, rank.ts and layout.ts's stackedScope):
// the crossing reduction and the ranking of big scopes given to dagre through its customOrder and ranker
// hooks, and the direct layout of chains.
// Crossings are counted here from the finished drawing (every two segments of different edges that
// cross), not by the module's own counter.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CONFORMANCE, REALWORLD, corpusCases, generateWorkflow } from "../corpus";
import { analyzeText } from "../../server/src/service/analysis";
import { buildGraph, type WorkflowGraph } from "../../server/src/graph/model";
import { dagreScope, layoutGraph, stackedScope, type GraphLayout, type Point, type ScopeEdge, type ScopeNode } from "../../server/src/graph/layout";
import { orderLayers, type OrderGraph } from "../../server/src/graph/order";
import { rankNetworkSimplex } from "../../server/src/graph/rank";
import type * as Dagre from "@dagrejs/dagre" with { "resolution-mode": "import" };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dagre = require("@dagrejs/dagre") as typeof Dagre;
import { randomSource } from "../random";

/** Proper crossings between segments of different edges of a drawing (shared end points do not count). */
function drawnCrossings(layout: GraphLayout): number {
  const segments: Array<[Point, Point, number]> = [];
  layout.edges.forEach((e, i) => {
    for (let k = 1; k < e.points.length; k++) segments.push([e.points[k - 1], e.points[k], i]);
  });
  const crosses = (p1: Point, p2: Point, p3: Point, p4: Point) => {
    const d = (p4.y - p3.y) * (p2.x - p1.x) - (p4.x - p3.x) * (p2.y - p1.y);
    if (Math.abs(d) < 1e-9) return false;
    const ua = ((p4.x - p3.x) * (p1.y - p3.y) - (p4.y - p3.y) * (p1.x - p3.x)) / d;
    const ub = ((p2.x - p1.x) * (p1.y - p3.y) - (p2.y - p1.y) * (p1.x - p3.x)) / d;
    return ua > 1e-6 && ua < 1 - 1e-6 && ub > 1e-6 && ub < 1 - 1e-6;
  };
  let count = 0;
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j < segments.length; j++) {
      const [a, b, ea] = segments[i];
      const [c, d, eb] = segments[j];
      if (ea !== eb && crosses(a, b, c, d)) count++;
    }
  }
  return count;
}

const graphOf = (text: string, format: "json" | "yaml"): WorkflowGraph => {
  const analysis = analyzeText(text, format);
  return buildGraph(analysis.document.value, { findings: analysis.findings });
};

describe("crossing reduction (order.ts)", () => {
  test("on generated workflows it draws fewer crossings in all than dagre's own ordering", () => {
    let ours = 0;
    let theirs = 0;
    const rows: string[] = [];
    for (const steps of [20, 60, 150]) {
      for (const seed of [1, 2, 3, 4, 5]) {
        const graph = graphOf(generateWorkflow({ steps, seed, format: "yaml" }).text, "yaml");
        const a = drawnCrossings(layoutGraph(graph));
        const b = drawnCrossings(layoutGraph(graph, { steps: "dagre" }));
        rows.push(`${steps}/${seed}: ${a} vs ${b}`);
        ours += a;
        theirs += b;
      }
    }
    assert.ok(theirs > 0, "the sample has crossings to reduce");
    assert.ok(ours < theirs, `crossings, ours against dagre's: ${ours} vs ${theirs} (${rows.join(", ")})`);
  });

  test("every rank gets the orders 0..n-1, the same on every run, on random layered graphs", () => {
    const next = randomSource(15);
    const random = { int: (n: number) => Math.floor(next() * n) };
    for (let round = 0; round < 200; round++) {
      const ranks = 1 + random.int(6);
      const layers: string[][] = [];
      for (let r = 0; r < ranks; r++) layers.push(Array.from({ length: 1 + random.int(7) }, (_, i) => `r${r}n${i}`));
      const edges: Array<{ v: string; w: string; name: string; weight: number }> = [];
      for (let r = 1; r < ranks; r++) {
        for (const w of layers[r]) {
          for (const v of layers[r - 1]) if (random.int(3) === 0) edges.push({ v, w, name: `e${edges.length}`, weight: 1 + random.int(2) });
        }
      }
      const make = () => {
        const labels = new Map<string, { rank: number; order?: number }>();
        layers.forEach((layer, r) => layer.forEach((v) => labels.set(v, { rank: r })));
        const graph: OrderGraph = {
          nodes: () => [...labels.keys()],
          node: (v) => labels.get(v)!,
          edges: () => edges.map(({ v, w, name }) => ({ v, w, name })),
          edge: (e) => edges.find((x) => x.name === e.name),
        };
        orderLayers(graph);
        return labels;
      };
      const first = make();
      for (const layer of layers) {
        assert.deepEqual(layer.map((v) => first.get(v)!.order).sort((a, b) => a! - b!), layer.map((_, i) => i), `round ${round}: a permutation`);
      }
      assert.deepEqual([...make()], [...first], `round ${round}: deterministic`);
    }
  });
});

describe("ranking of big scopes (rank.ts)", () => {
  test("on random acyclic graphs: every edge at least its minlen long, in all as short as dagre's network simplex makes them", () => {
    const next = randomSource(23);
    const int = (n: number) => Math.floor(next() * n);
    for (let round = 0; round < 200; round++) {
      const n = 1 + int(60);
      const edges: Array<[number, number, number, number]> = [];
      for (let w = 1; w < n; w++) for (let j = int(4); j > 0; j--) edges.push([int(w), w, 1 + int(2), 1 + int(3)]);
      const make = (ranker?: string) => {
        const g = new dagre.graphlib.Graph({ multigraph: true });
        g.setGraph(ranker ? { ranker } : {});
        for (let i = 0; i < n; i++) g.setNode(`n${i}`, { width: 10, height: 10 });
        edges.forEach(([v, w, minlen, weight], k) => g.setEdge(`n${v}`, `n${w}`, { minlen, weight }, `e${k}`));
        return g;
      };
      const rankOf = (g: ReturnType<typeof make>, i: number) => (g.node(`n${i}`) as { rank: number }).rank;
      const ours = make();
      rankNetworkSimplex(ours as never);
      let length = 0;
      for (const [v, w, minlen, weight] of edges) {
        const d = rankOf(ours, w) - rankOf(ours, v);
        assert.ok(d >= minlen, `round ${round}: n${v} -> n${w} spans ${d} < ${minlen}`);
        length += weight * d;
      }
      // dagre's layout doubles every minlen (a rank between for labels), so its ranks are twice as far apart
      const theirs = (ranker: string) => {
        const g = make(ranker);
        dagre.layout(g);
        return edges.reduce((sum, [v, w, , weight]) => sum + (weight * (rankOf(g, w) - rankOf(g, v))) / 2, 0);
      };
      assert.equal(length, theirs("network-simplex"), `round ${round}: weighted length, as optimal as dagre's network simplex`);
      // stopped after one pivot: still a valid ranking
      const early = make();
      rankNetworkSimplex(early as never, { maxPivots: 1 });
      for (const [v, w, minlen] of edges) assert.ok(rankOf(early, w) - rankOf(early, v) >= minlen, `round ${round}: one pivot, n${v} -> n${w}`);
    }
  });
});

describe("chains laid out directly (stackedScope)", () => {
  const same = (a: ReturnType<typeof dagreScope>, b: ReturnType<typeof dagreScope>, what: string) => {
    const close = (x: number, y: number) => Math.abs(x - y) < 1e-9;
    assert.deepEqual([...a.nodes.keys()].sort(), [...b.nodes.keys()].sort(), what);
    for (const [k, n] of a.nodes) {
      const m = b.nodes.get(k)!;
      assert.ok(close(n.x, m.x) && close(n.y, m.y) && n.width === m.width && n.height === m.height, `${what}: node ${k} ${JSON.stringify(n)} vs ${JSON.stringify(m)}`);
    }
    assert.deepEqual([...a.edges.keys()].sort(), [...b.edges.keys()].sort(), what);
    for (const [k, e] of a.edges) {
      const f = b.edges.get(k)!;
      assert.equal(e.points.length, f.points.length, `${what}: edge ${k}`);
      e.points.forEach((p, i) => assert.ok(close(p.x, f.points[i].x) && close(p.y, f.points[i].y), `${what}: edge ${k} point ${i}`));
      assert.equal(e.label === undefined, f.label === undefined, `${what}: edge ${k} label`);
    }
  };

  test("a chain or a single node comes out exactly as dagre lays it out", () => {
    const next = randomSource(7);
    const random = { int: (n: number) => Math.floor(next() * n) };
    for (let round = 0; round < 150; round++) {
      const n = 1 + random.int(6);
      const nodes: ScopeNode[] = Array.from({ length: n }, (_, i) => ({ key: `n${i}`, width: 48 + random.int(300), height: 28 + 16 * random.int(4) }));
      // any order of the nodes in the list, the chain running through them in a random order
      const path = nodes.map((x) => x.key).sort(() => random.int(3) - 1);
      const edges: ScopeEdge[] = path.slice(1).map((w, i) => ({ name: `e${i}`, v: path[i], w, width: 0, height: 0 }));
      const options = random.int(2) === 0 ? {} : { rankSpacing: 20 + random.int(60) };
      const direct = stackedScope(nodes, edges, options);
      assert.ok(direct, `round ${round}: a chain is taken`);
      same(direct, dagreScope(nodes, edges, options), `round ${round}`);
    }
  });

  test("anything else is left to dagre: a branch, a join, a label, a cycle, two pieces", () => {
    const nodes = ["a", "b", "c"].map((key) => ({ key, width: 100, height: 44 }));
    const edge = (v: string, w: string, width = 0): ScopeEdge => ({ name: `${v}${w}`, v, w, width, height: width > 0 ? 16 : 0 });
    assert.equal(stackedScope(nodes, [edge("a", "b"), edge("a", "c")], {}), undefined, "branch");
    assert.equal(stackedScope(nodes, [edge("a", "c"), edge("b", "c")], {}), undefined, "join");
    assert.equal(stackedScope(nodes, [edge("a", "b", 40), edge("b", "c")], {}), undefined, "label");
    assert.equal(stackedScope(nodes, [edge("a", "b"), edge("b", "a")], {}), undefined, "cycle and a lone node");
    assert.equal(stackedScope(nodes, [edge("a", "b")], {}), undefined, "two pieces");
    assert.equal(stackedScope(nodes, [edge("a", "a"), edge("b", "c")], {}), undefined, "self loop");
  });

  test("the corpus draws the same with and without the direct chain layout", () => {
    for (const c of [...corpusCases(CONFORMANCE), ...corpusCases(REALWORLD)]) {
      const graph = graphOf(readFileSync(c.file, "utf8"), c.format);
      assert.deepEqual(layoutGraph(graph), layoutGraph(graph, { chains: "dagre" }), c.name);
    }
  });
});
