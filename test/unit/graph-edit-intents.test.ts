// The graph view's editing intents (webview/graph/editIntents.ts): what the page sends, mapped to
// lwir/graphEdit actions against the graph the view shows, then run by the server's graphEdit on every
// real-world workflow, JSON and YAML: a click-selected edge's Delete removes exactly that edge; the palette
// adds next to a step in the step's own list (a body step's step goes into the same body), and the
// extension finds the new step's id in the edited text where the editor will put the cursor; a case
// moves within its decision's cases; the refusals the view words itself.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { REALWORLD, corpusCases } from "../corpus";
import { analyzeText } from "../../server/src/service/analysis";
import { applyEdits } from "../../server/src/service/edits";
import { buildGraph, type WorkflowGraph } from "../../server/src/graph/model";
import { graphEdit } from "../../server/src/service/graphEdits";
import { PALETTE, actionFor, edgeKey, edgeRef, insertedIdOffset, parseEdgeKey, referencesQuestion, type GraphIntent } from "../../webview/graph/editIntents";

const docs = corpusCases(REALWORLD).filter((c) => !c.label.parseError);
const edgeKeys = (g: WorkflowGraph) => g.edges.map((e) => `${e.from} -> ${e.to} (${e.kind}${e.caseIndex !== undefined ? ` ${e.caseIndex}` : ""})`).sort();

function action(graph: WorkflowGraph, intent: GraphIntent) {
  const outcome = actionFor(graph, intent);
  assert.ok("action" in outcome, `${JSON.stringify(intent)} refused: ${"refused" in outcome ? outcome.refused : ""}`);
  return outcome.action;
}

describe("graph view intents → lwir/graphEdit on the real-world corpus", () => {
  test("the corpus has workflows with needs edges, decision routes and parallel bodies to edit", () => {
    const graphs = docs.map((c) => analyzeText(readFileSync(c.file, "utf8"), c.format).document.value).map((v) => buildGraph(v));
    assert.ok(graphs.some((g) => g.edges.some((e) => e.kind === "needs")), "needs");
    assert.ok(graphs.some((g) => g.edges.some((e) => e.kind === "default" || e.kind === "transition")), "decision routes");
    assert.ok(graphs.some((g) => g.nodes.some((n) => n.parent)), "bodies");
    assert.ok(docs.some((c) => c.format === "yaml") && docs.some((c) => c.format === "json"));
  });

  for (const c of docs) {
    test(`${c.name}: Delete on each edge removes that edge only`, () => {
      const analysis = analyzeText(readFileSync(c.file, "utf8"), c.format);
      const graph = buildGraph(analysis.document.value);
      let tried = 0;
      for (const edge of graph.edges) {
        const ref = edgeRef(edge);
        if (!ref || graph.nodes.find((n) => n.id === edge.from)?.problem || graph.nodes.find((n) => n.id === edge.to)?.problem) continue;
        // what the page keeps on the drawn edge reads back as the same choice
        assert.deepEqual(parseEdgeKey(edgeKey(edge)), ref.edge);
        const outcome = graphEdit(analysis, action(graph, { kind: "disconnect", edge: ref }));
        if ("refused" in outcome) {
          // only a parallel step's needs entry that its body still uses is refused (the server says so)
          assert.match(outcome.refused, /through this needs entry|not in a shape the graph edits safely/, `${edge.from} -> ${edge.to}`);
          continue;
        }
        tried++;
        const after = buildGraph(analyzeText(applyEdits(analysis.document.text, outcome.edits), c.format).document.value);
        const removed = edgeKeys(graph).filter((k) => !edgeKeys(after).includes(k));
        const kind = edge.kind;
        assert.ok(removed.some((k) => k.startsWith(`${edge.from} -> ${edge.to} (${kind}`)), `${edge.from} -> ${edge.to} (${kind}) is still drawn`);
        // cases after a removed one renumber; no other pair of steps loses an edge
        for (const k of removed) assert.ok(k.startsWith(`${edge.from} -> `), `${k} removed too`);
      }
      if (graph.edges.some((e) => e.kind === "needs" && !e.dangling)) assert.ok(tried > 0, "no edge was removed");
    });

    test(`${c.name}: the palette adds each step type after a step, in its own list, and the new id is found`, () => {
      const analysis = analyzeText(readFileSync(c.file, "utf8"), c.format);
      const graph = buildGraph(analysis.document.value);
      const steps = graph.nodes.filter((n) => n.kind === "step" && !n.problem && n.path);
      const targets = [steps[0], steps.find((n) => n.parent)].filter((n) => n !== undefined);
      for (const at of targets) {
        for (const { uses } of PALETTE) {
          const act = action(graph, { kind: "addStep", uses, at: at.id });
          assert.equal((act as { after?: string }).after, at.id);
          assert.equal((act as { parent?: string }).parent, at.parent);
          const outcome = graphEdit(analysis, act);
          if (at.parent && uses === "parallel") {
            assert.ok("refused" in outcome, "a parallel step inside a body is refused");
            continue;
          }
          assert.ok("edits" in outcome, `${uses} after ${at.id}: ${"refused" in outcome ? outcome.refused : ""}`);
          const text = applyEdits(analysis.document.text, outcome.edits);
          const after = buildGraph(analyzeText(text, c.format).document.value);
          const added = after.nodes.filter((n) => n.kind === "step" && !graph.nodes.some((o) => o.id === n.id) && n.scope === at.scope);
          assert.equal(added.length, 1, `one new step in ${at.scope || "steps"}`);
          assert.equal(added[0].uses, uses);
          // the step needs the one it was added after: the edge is drawn
          assert.ok(after.edges.some((e) => e.kind === "needs" && e.from === at.id && e.to === added[0].id));
          const where = insertedIdOffset(outcome.edits);
          assert.ok(where, "the inserted id is found");
          assert.equal(text.slice(where.offset, where.offset + where.length), added[0].stepId);
        }
      }
    });
  }
});

describe("graph view intents: choices and refusals", () => {
  const yaml = [
    "apiVersion: littleworkflow.dev/v1",
    "kind: Workflow",
    "name: intents",
    "steps:",
    "  - id: a",
    "    uses: code.run",
    "    with: { entrypoint: main.py }",
    "  - id: route",
    "    uses: decision",
    "    needs: [a]",
    "    with:",
    "      cases:",
    "        - when: \"{{ steps.a.output.x }}\"",
    "          to: b",
    "        - when: \"{{ steps.a.output.y }}\"",
    "          to: c",
    "        - when: \"{{ steps.a.output.z }}\"",
    "          to: end",
    "      default: c",
    "  - id: b",
    "    uses: code.run",
    "    with: { entrypoint: main.py }",
    "  - id: c",
    "    uses: code.run",
    "    with: { entrypoint: main.py }",
    "",
  ].join("\n");
  const analysis = analyzeText(yaml, "yaml");
  const graph = buildGraph(analysis.document.value);

  test("moveCase: up and down within the cases; past either end is refused before asking the server", () => {
    assert.deepEqual(action(graph, { kind: "moveCase", step: "route", index: 1, by: -1 }), { kind: "moveCase", step: "route", from: 1, to: 0 });
    assert.deepEqual(action(graph, { kind: "moveCase", step: "route", index: 1, by: 1 }), { kind: "moveCase", step: "route", from: 1, to: 2 });
    assert.match((actionFor(graph, { kind: "moveCase", step: "route", index: 0, by: -1 }) as { refused: string }).refused, /first case/);
    assert.match((actionFor(graph, { kind: "moveCase", step: "route", index: 2, by: 1 }) as { refused: string }).refused, /last case/);
    const outcome = graphEdit(analysis, action(graph, { kind: "moveCase", step: "route", index: 0, by: 1 }));
    assert.ok("edits" in outcome);
    const cases = (buildGraph(analyzeText(applyEdits(yaml, outcome.edits), "yaml").document.value).edges)
      .filter((e) => e.from === "route" && e.caseIndex !== undefined).sort((x, y) => x.caseIndex! - y.caseIndex!).map((e) => e.to);
    assert.equal(cases[0], "c");
    assert.equal(cases[1], "b");
  });

  test("connect: a step to itself, or to end, is refused; a decision's edge goes to the server as is", () => {
    assert.ok("refused" in actionFor(graph, { kind: "connect", from: "a", to: "a" }));
    const end = graph.nodes.find((n) => n.kind === "end")!;
    assert.ok("refused" in actionFor(graph, { kind: "connect", from: "a", to: end.id }));
    assert.deepEqual(action(graph, { kind: "connect", from: "b", to: "c" }), { kind: "connect", from: "b", to: "c" });
  });

  test("disconnect: each drawn edge maps to its own choice; a route to end is left to the text", () => {
    const toB = graph.edges.find((e) => e.from === "route" && e.to === "b")!;
    const toC = graph.edges.filter((e) => e.from === "route" && e.to === "c");
    assert.deepEqual(edgeRef(toB), { from: "route", to: "b", edge: 0 });
    assert.deepEqual(toC.map((e) => edgeRef(e)?.edge).sort(), [1, "default"].sort());
    const toEnd = graph.edges.find((e) => e.kind === "end")!;
    assert.equal(edgeRef(toEnd), undefined);
    assert.match((actionFor(graph, { kind: "disconnect", edge: { from: "route", to: toEnd.to, edge: 2 } }) as { refused: string }).refused, /route to end/);
    // the default and the case to the same step are told apart: removing the default keeps the case
    const outcome = graphEdit(analysis, action(graph, { kind: "disconnect", edge: { from: "route", to: "c", edge: "default" } }));
    assert.ok("edits" in outcome);
    const after = applyEdits(yaml, outcome.edits);
    assert.doesNotMatch(after, /default:/);
    assert.match(after, /to: c/);
  });

  test("addStep into a parallel step needs a parallel step; with nothing selected it goes at the end", () => {
    assert.ok("refused" in actionFor(graph, { kind: "addStep", uses: "code.run", at: "a", into: true }));
    assert.deepEqual(action(graph, { kind: "addStep", uses: "code.run" }), { kind: "addStep", uses: "code.run" });
  });

  test("deleting a referenced step: the question names who refers and how", () => {
    const outcome = graphEdit(analysis, action(graph, { kind: "deleteStep", id: "a" }));
    assert.ok("refused" in outcome && outcome.data.reason === "referenced");
    const question = referencesQuestion("a", outcome.data.reason === "referenced" ? outcome.data.referrers : []);
    assert.match(question, /^Step "a" is referred to by route \(/);
    assert.match(question, /needs/);
    assert.match(question, /expression/);
  });

  test("insertedIdOffset: an insertion after an earlier edit is shifted by it; JSON ids too", () => {
    const before = '{"steps": [{"id": "a"}]}';
    const edits = [
      { start: 1, end: 1, newText: "  " },
      { start: 22, end: 22, newText: ', {"id": "new-1", "uses": "code.run"}' },
    ];
    const after = applyEdits(before, edits);
    const at = insertedIdOffset(edits)!;
    assert.equal(after.slice(at.offset, at.offset + at.length), "new-1");
    assert.equal(insertedIdOffset([{ start: 0, end: 0, newText: "no step" }]), undefined);
  });
});
