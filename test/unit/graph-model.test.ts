// The workflow graph model (server/src/graph/model.ts) and its layout: on every corpus document the
// nodes are the steps at every depth and the edges the needs and decision routes, checked against a
// reading of the document written here (not the module's); scopes of parallel bodies; back edges,
// dangling references, findings per step; the layout's boxes; the shape key; random documents.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CONFORMANCE, REALWORLD, corpusCases, generateWorkflow } from "../corpus";
import { analyzeText } from "../../server/src/service/analysis";
import { buildGraph, graphShapeKey, shortenWhen, type WorkflowGraph } from "../../server/src/graph/model";
import { layoutGraph } from "../../server/src/graph/layout";
import { graphOfAnalysis } from "../../server/src/service/graph";
import { randomSource } from "../random";
import { corpusSeeds, makeMutant } from "../mutation";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
/** Catalog 3.3, written out again: a non-empty string without ".", "[", "]" or "@attempt_". */
const usableId = (id: unknown): id is string => typeof id === "string" && id !== "" && !/[.[\]]/.test(id) && !id.includes("@attempt_");

interface Expected {
  /** JSON paths of every step object, at every depth. */
  steps: string[];
  /** "from -> to kind" with steps as paths, End as `end@<list path>`, a missing name as `missing:<name>@<list path>`. */
  edges: string[];
  /** Body step path → its parallel step's path. */
  scopes: Map<string, string>;
}

/** The test's own reading of the document: lists, declared ids, needs, cases and default. */
function expectedGraph(value: unknown): Expected {
  const out: Expected = { steps: [], edges: [], scopes: new Map() };
  if (!isObj(value) || !Array.isArray(value.steps)) return out;
  const walk = (entries: unknown[], listPath: string, visible: Map<string, string>, parent?: string) => {
    const declared = new Map<string, string>();
    entries.forEach((e, i) => {
      if (!isObj(e)) return;
      const p = `${listPath}[${i}]`;
      out.steps.push(p);
      if (parent !== undefined) out.scopes.set(p, parent);
      if (usableId(e.id) && !declared.has(e.id)) declared.set(e.id, p);
    });
    entries.forEach((e, i) => {
      if (!isObj(e)) return;
      const p = `${listPath}[${i}]`;
      const inFlow = usableId(e.id) && declared.get(e.id) === p;
      if (inFlow) {
        const needs = Array.isArray(e.needs) ? e.needs.filter((n): n is string => typeof n === "string" && n !== "") : [];
        for (const n of needs) {
          const from = declared.get(n) ?? visible.get(n) ?? `missing:${n}@${listPath}`;
          out.edges.push(`${from} -> ${p} needs`);
        }
        if (e.uses === "decision" && isObj(e.with)) {
          const target = (to: string) => (to === "end" ? `end@${listPath}` : declared.get(to) ?? `missing:${to}@${listPath}`);
          if (Array.isArray(e.with.cases)) {
            for (const c of e.with.cases) {
              if (isObj(c) && typeof c.to === "string" && c.to !== "") out.edges.push(`${p} -> ${target(c.to)} ${c.to === "end" ? "end" : "transition"}`);
            }
          }
          const d = e.with.default;
          if (typeof d === "string" && d !== "") out.edges.push(`${p} -> ${target(d)} ${d === "end" ? "end" : "default"}`);
        }
      }
      if (e.uses === "parallel" && Array.isArray(e.steps)) {
        // the body sees the steps its parallel step needs (declared in this list), and what this list sees
        const seen = new Map(visible);
        if (inFlow && Array.isArray(e.needs)) {
          for (const n of e.needs) if (typeof n === "string" && declared.has(n)) seen.set(n, declared.get(n)!);
        }
        walk(e.steps, `${p}.steps`, seen, p);
      }
    });
  };
  walk(value.steps, "$.steps", new Map());
  return out;
}

const pathOf = (segments: readonly (string | number)[]) => "$" + segments.map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`)).join("");

/** The model in the same terms. */
function actualGraph(graph: WorkflowGraph): Expected {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const listOf = (scope: string) => (scope === "" ? "$.steps" : `${pathOf(byId.get(scope)!.path!)}.steps`);
  const name = (id: string) => {
    const n = byId.get(id)!;
    if (n.kind === "step") return pathOf(n.path!);
    if (n.kind === "end") return `end@${listOf(n.scope)}`;
    return `missing:${n.stepId}@${listOf(n.scope)}`;
  };
  const scopes = new Map<string, string>();
  for (const n of graph.nodes) if (n.kind === "step" && n.scope !== "") scopes.set(pathOf(n.path!), pathOf(byId.get(n.scope)!.path!));
  return {
    steps: graph.nodes.filter((n) => n.kind === "step").map((n) => pathOf(n.path!)),
    edges: graph.edges.map((e) => `${name(e.from)} -> ${name(e.to)} ${e.kind}`),
    scopes,
  };
}

const CASES = [...corpusCases(CONFORMANCE), ...corpusCases(REALWORLD)];

describe("graph model on the corpus", () => {
  test(`nodes are the steps at every depth, edges the needs and decision routes, bodies scoped (${CASES.length} documents)`, () => {
    let steps = 0;
    let edges = 0;
    let bodies = 0;
    for (const c of CASES) {
      const analysis = analyzeText(readFileSync(c.file, "utf8"), c.format);
      const graph = buildGraph(analysis.document.value, { findings: analysis.findings });
      const want = expectedGraph(analysis.document.value);
      const got = actualGraph(graph);
      assert.deepEqual([...got.steps].sort(), [...want.steps].sort(), `${c.name}: step nodes`);
      assert.deepEqual([...got.edges].sort(), [...want.edges].sort(), `${c.name}: edges`);
      assert.deepEqual(new Map([...got.scopes].sort()), new Map([...want.scopes].sort()), `${c.name}: scopes of body steps`);
      // unique ids, every edge between existing nodes, parents are containers
      const ids = new Set(graph.nodes.map((n) => n.id));
      assert.equal(ids.size, graph.nodes.length, `${c.name}: node ids unique`);
      for (const e of graph.edges) assert.ok(ids.has(e.from) && ids.has(e.to), `${c.name}: edge ${e.from} -> ${e.to}`);
      for (const n of graph.nodes) if (n.parent !== undefined) assert.equal(graph.nodes.find((m) => m.id === n.parent)?.container, true, `${c.name}: ${n.id}'s parent`);
      // every finding lands on a step or the document
      const counted = graph.nodes.reduce((k, n) => k + n.findings.errors, graph.findings.errors);
      assert.equal(counted, analysis.findings.length, `${c.name}: findings counted once`);
      steps += want.steps.length;
      edges += want.edges.length;
      bodies += want.scopes.size;
    }
    // the corpus does exercise all of it
    assert.ok(steps > 500 && edges > 300 && bodies > 100, `${steps} steps, ${edges} edges, ${bodies} body steps`);
  });

  test("the spec's worked example: a loop inside a parallel body, its back edge, End and the case label", () => {
    const c = CASES.find((x) => x.name === "docs-lwir-reference-worked-example-review-loop-wrapped.lwir.json")!;
    const analysis = analyzeText(readFileSync(c.file, "utf8"), "json");
    const g = buildGraph(analysis.document.value);
    const body = g.nodes.filter((n) => n.scope === "review-cands");
    assert.deepEqual(body.map((n) => n.id), ["review-cands.worker", "review-cands.review", "review-cands.route", "review-cands.[end]"]);
    assert.equal(g.nodes[0].container, true);
    assert.deepEqual(g.nodes[0].item, { items: "{{ input.candidates }}", itemKey: "{{ item.id }}" });
    assert.equal(g.nodes.find((n) => n.id === "review-cands.worker")!.maxVisits, 5);
    const back = g.edges.filter((e) => e.back);
    assert.deepEqual(back.map((e) => [e.from, e.to, e.kind]), [["review-cands.route", "review-cands.worker", "default"]]);
    const end = g.edges.find((e) => e.kind === "end")!;
    assert.equal(end.label, "review.lastOutput.passed");
    assert.equal(end.when, "{{ steps.review.lastOutput.passed }}");
  });
});

describe("graph model on hand-made documents", () => {
  const doc = (steps: unknown[]) => ({ apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", steps });

  test("dangling needs and targets point at one missing node per name and scope", () => {
    const g = buildGraph(doc([
      { id: "a", uses: "ai.generate", needs: ["ghost", "ghost2"] },
      { id: "b", uses: "decision", needs: ["a", "ghost"], with: { cases: [{ when: "{{ steps.a.output }}", to: "nowhere" }], default: "end" } },
    ]));
    const missing = g.nodes.filter((n) => n.kind === "missing").map((n) => n.id);
    assert.deepEqual(missing, ["[missing]ghost", "[missing]ghost2", "[missing]nowhere"]);
    assert.equal(g.edges.filter((e) => e.dangling).length, 4);
    assert.ok(g.edges.some((e) => e.from === "b" && e.to === "[end]" && e.kind === "end" && e.label === "default"));
  });

  test("a step named end is a step; a decision's to: \"end\" still goes to the End node", () => {
    const g = buildGraph(doc([
      { id: "end", uses: "ai.generate" },
      { id: "d", uses: "decision", needs: ["end"], with: { cases: [], default: "end" } },
    ]));
    assert.deepEqual(g.edges.map((e) => [e.from, e.to, e.kind]), [["end", "d", "needs"], ["d", "[end]", "end"]]);
  });

  test("duplicates and steps without a usable id are drawn but join no edge", () => {
    const g = buildGraph(doc([{ id: "a", uses: "tool.call" }, { id: "a", uses: "tool.call", needs: ["a"] }, { uses: "tool.call" }, { id: "x.y", uses: "tool.call" }]));
    assert.deepEqual(g.nodes.map((n) => [n.id, n.problem]), [["a", undefined], ["steps[1]", "duplicateId"], ["steps[2]", "invalidId"], ["steps[3]", "invalidId"]]);
    assert.equal(g.edges.length, 0);
  });

  test("needs-only cycles get back edges so what remains is acyclic", () => {
    const g = buildGraph(doc([{ id: "a", uses: "tool.call", needs: ["c"] }, { id: "b", uses: "tool.call", needs: ["a"] }, { id: "c", uses: "tool.call", needs: ["b"] }]));
    assert.equal(g.edges.filter((e) => e.back).length, 1);
    const self = buildGraph(doc([{ id: "a", uses: "tool.call", needs: ["a"] }]));
    assert.equal(self.edges[0].back, true);
  });

  test("findings go to the innermost step; severities counted apart", () => {
    const g = buildGraph(doc([{ id: "p", uses: "parallel", with: {}, steps: [{ id: "w", uses: "ai.generate" }] }]), {
      findings: [
        { segments: ["steps", 0, "steps", 0, "with", "model"], message: "inner", code: "x" },
        { segments: ["steps", 0, "with"], message: "outer", severity: "warning" },
        { segments: ["permissions"], message: "top" },
      ],
    });
    assert.deepEqual(g.nodes.find((n) => n.id === "p.w")!.findings, { errors: 1, warnings: 0, messages: ["inner (x)"] });
    assert.deepEqual(g.nodes.find((n) => n.id === "p")!.findings, { errors: 0, warnings: 1, messages: ["outer"] });
    assert.deepEqual(g.findings.messages, ["top"]);
  });

  test("case labels: braces and steps. dropped, whitespace collapsed, long ones cut", () => {
    assert.equal(shortenWhen("{{  steps.review.output.ok  }}"), "review.output.ok");
    assert.equal(shortenWhen("{{ a }} and {{ b }}"), "{{ a }} and {{ b }}");
    assert.equal(shortenWhen(`{{ ${"x".repeat(80)} }}`, 10), `${"x".repeat(9)}…`);
  });

  test("anything that is not a workflow gives an empty graph", () => {
    for (const v of [null, 1, "x", [], {}, { steps: {} }, { steps: [1, null, "s", []] }]) {
      const g = buildGraph(v);
      assert.deepEqual([g.nodes.length, g.edges.length], [0, 0], JSON.stringify(v));
    }
  });
});

describe("layout", () => {
  test("every corpus document is laid out by dagre, bodies inside their containers, same result twice", () => {
    for (const c of CASES) {
      const analysis = analyzeText(readFileSync(c.file, "utf8"), c.format);
      const graph = buildGraph(analysis.document.value);
      const layout = layoutGraph(graph);
      assert.equal(layout.engine, "dagre", c.name);
      assert.equal(layout.nodes.length, graph.nodes.length);
      assert.equal(layout.edges.length, graph.edges.length);
      const box = new Map(layout.nodes.map((n) => [n.id, n]));
      for (const n of layout.nodes) {
        for (const v of [n.x, n.y, n.width, n.height]) assert.ok(Number.isFinite(v), `${c.name}: ${n.id}`);
        assert.ok(n.x >= 0 && n.y >= 0 && n.x + n.width <= layout.width + 0.5 && n.y + n.height <= layout.height + 0.5, `${c.name}: ${n.id} inside the picture`);
      }
      for (const n of graph.nodes) {
        if (n.parent === undefined) continue;
        const inner = box.get(n.id)!;
        const outer = box.get(n.parent)!;
        assert.ok(inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5,
          `${c.name}: ${n.id} inside ${n.parent}`);
      }
      for (const e of layout.edges) {
        assert.ok(e.points.length >= 2 && e.points.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)), `${c.name}: edge ${e.from} -> ${e.to}`);
      }
      assert.deepEqual(layoutGraph(graph), layout, `${c.name}: deterministic`);
    }
  });

  test("step ids that are names of Object.prototype are laid out like any other", () => {
    const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "toLocaleString"];
    const graph = buildGraph({ steps: names.map((id, i) => ({ id, uses: "tool.call", needs: i > 0 ? [names[i - 1]] : [] })) });
    const layout = layoutGraph(graph);
    assert.equal(layout.engine, "dagre");
    const ys = layout.nodes.map((n) => n.y);
    assert.deepEqual([...ys].sort((a, b) => a - b), ys, "a chain of needs goes down");
  });

  test("nodes of one top-level scope do not overlap on a generated 100-step workflow", () => {
    const { text } = generateWorkflow({ steps: 100, seed: 7 });
    const graph = buildGraph(analyzeText(text, "json").document.value);
    const layout = layoutGraph(graph);
    assert.equal(layout.engine, "dagre");
    const top = layout.nodes.filter((n) => graph.nodes.find((m) => m.id === n.id)!.parent === undefined);
    for (let i = 0; i < top.length; i++) {
      for (let j = i + 1; j < top.length; j++) {
        const a = top[i];
        const b = top[j];
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        assert.ok(apart, `${a.id} and ${b.id} overlap`);
      }
    }
  });
});

describe("shape key", () => {
  test("an edit in a prompt keeps it; a new needs entry, a new step or a new case label changes it", () => {
    const base = { apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", steps: [
      { id: "a", uses: "ai.generate", with: { model: "m", prompt: "hello" }, output: { mode: "text" } },
      { id: "b", uses: "ai.generate", with: { model: "m", prompt: "x" }, output: { mode: "text" } },
      { id: "d", uses: "decision", needs: ["b"], with: { cases: [{ when: "{{ steps.b.output }}", to: "end" }], default: "end" } },
    ] };
    const key = graphShapeKey(buildGraph(base));
    const edit = structuredClone(base);
    edit.steps[0].with!.prompt = "hello there";
    assert.equal(graphShapeKey(buildGraph(edit, { findings: [{ segments: ["steps", 0], message: "new finding" }] })), key);
    const needs = structuredClone(base) as { steps: Obj[] };
    needs.steps[1].needs = ["a"];
    assert.notEqual(graphShapeKey(buildGraph(needs)), key);
    const more = structuredClone(base) as { steps: Obj[] };
    more.steps.push({ id: "c", uses: "tool.call" });
    assert.notEqual(graphShapeKey(buildGraph(more)), key);
    const label = structuredClone(base) as { steps: Array<{ with?: { cases?: Array<{ when: string }> } }> };
    label.steps[2].with!.cases![0].when = "{{ steps.b.output.ok }}";
    assert.notEqual(graphShapeKey(buildGraph(label)), key);
  });
});

describe("robustness", () => {
  test("random mutants of the corpus never make the model or the layout throw", () => {
    const { seeds } = corpusSeeds();
    let nodes = 0;
    for (let i = 0; i < 400; i++) {
      const m = makeMutant(seeds, 15, i);
      const graph = buildGraph(m.value);
      const layout = layoutGraph(graph);
      assert.equal(layout.nodes.length, graph.nodes.length);
      assert.equal(layout.engine, "dagre", `mutant ${i}: dagre failed, the column fallback drew it`);
      nodes += graph.nodes.length;
    }
    assert.ok(nodes > 400, `${nodes} nodes drawn`);
  });

  test("random step lists: odd ids, needs, cases and nested bodies", () => {
    const rnd = randomSource(15);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const ids = ["a", "b", "c", "end", "", "x.y", 7, null, "p"];
    const step = (depth: number): unknown => {
      if (rnd() < 0.05) return pick([null, 3, "s", []]);
      const s: Obj = { id: pick(ids), uses: pick(["ai.generate", "decision", "parallel", "tool.call", 5]) };
      if (rnd() < 0.6) s.needs = Array.from({ length: Math.floor(rnd() * 3) }, () => pick(ids));
      if (s.uses === "decision") s.with = { cases: Array.from({ length: Math.floor(rnd() * 3) }, () => ({ when: "{{ x }}", to: pick(ids) })), default: pick(ids) };
      if (s.uses === "parallel" && depth < 3) s.steps = Array.from({ length: Math.floor(rnd() * 4) }, () => step(depth + 1));
      return s;
    };
    for (let i = 0; i < 300; i++) {
      const value = { steps: Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => step(0)) };
      const graph = buildGraph(value);
      const want = expectedGraph(value);
      assert.deepEqual(actualGraph(graph).edges.sort(), want.edges.sort(), JSON.stringify(value));
      const layout = layoutGraph(graph);
      assert.equal(layout.edges.length, graph.edges.length);
      assert.equal(layout.engine, "dagre", JSON.stringify(value));
    }
  });
});

describe("graph of an analysis (what the view asks for)", () => {
  test("step nodes carry their range in the text; a text that does not parse gives no graph", () => {
    const text = '{"steps": [\n  {"id": "a", "uses": "tool.call"},\n  {"id": "b", "uses": "tool.call", "needs": ["a"]}\n]}\n';
    const graph = graphOfAnalysis(analyzeText(text, "json"))!;
    assert.deepEqual(graph.nodes.map((n) => [n.id, n.range?.start.line]), [["a", 1], ["b", 2]]);
    assert.ok(graph.nodes[0].findings.errors > 0 && graph.nodes[0].findings.messages.some((m) => m.includes("tool")), "a tool.call without with.tool has its finding on its node");
    assert.ok(graph.findings.errors > 0, "apiVersion, kind… are missing: the document's own findings");
    assert.equal(graphOfAnalysis(analyzeText('{"steps": [', "json")), undefined);
  });
});
