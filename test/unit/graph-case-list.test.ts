// A decision's case list in the graph view (issue 26): the node lists its cases in text order (`when`
// shortened, its target), the default last, at most CASE_ROWS_MAX rows then "+N more"; the layout sizes the
// node to hold the rows; the drawing gives each case row its index, tooltip and accessible name; a row
// dragged to another place maps to lwir/graphEdit's moveCase, and the server's edit gives that order; the
// loop-closing connect's offer is worded for the user.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { analyzeText } from "../../server/src/service/analysis";
import { applyEdits } from "../../server/src/service/edits";
import { buildGraph, graphNodesKey } from "../../server/src/graph/model";
import { CASE_ROWS_MAX, CASE_ROW_CHARS, CASE_ROW_HEIGHT, caseRows } from "../../server/src/graph/labels";
import { CHAR_WIDTH, layoutGraph, nodeLines, nodeSize } from "../../server/src/graph/layout";
import { toSvg } from "../../server/src/graph/render";
import { graphEdit } from "../../server/src/service/graphEdits";
import { drawGraph, nodeText, type VNode } from "../../webview/graph/view";
import { actionFor, loopQuestion } from "../../webview/graph/editIntents";

function decision(cases: Array<{ when: string; to: string }>, defaultTo?: string): string {
  const lines = ["apiVersion: littleworkflow.dev/v0.1", "kind: Workflow", "metadata:", "  name: cases", "permissions:", "  models: [m]", "steps:",
    "  - id: ask", "    uses: ai.generate", "    with: {model: m, prompt: \"Ask\"}", "    output: {mode: text}",
    "  - id: route", "    uses: decision", "    needs: [ask]", "    with:", "      cases:"];
  for (const c of cases) lines.push(`        - when: ${JSON.stringify(c.when)}`, `          to: ${c.to}`);
  if (defaultTo) lines.push(`      default: ${defaultTo}`);
  for (const id of ["a", "b", "c"]) lines.push(`  - id: ${id}`, "    uses: ai.generate", "    with: {model: m, prompt: \"Go\"}", "    output: {mode: text}");
  return lines.join("\n") + "\n";
}

const THREE = decision([
  { when: "{{ steps.ask.lastOutput == 'a' }}", to: "a" },
  { when: "{{ steps.ask.lastOutput == 'a very long answer that needs to be shortened in the row' }}", to: "b" },
  { when: "{{ true }}", to: "end" },
], "c");

const findAll = (v: VNode, pred: (n: VNode) => boolean, out: VNode[] = []): VNode[] => {
  if (pred(v)) out.push(v);
  for (const c of v.children ?? []) findAll(c, pred, out);
  return out;
};

describe("a decision's case list", () => {
  test("a decision's maxVisits is on its type line (×N for the SVG, a badge in the view), never a line of its own left empty above the rows", () => {
    const text = THREE.replace("    uses: decision\n", "    uses: decision\n    maxVisits: 3\n");
    const route = buildGraph(analyzeText(text, "yaml").document.value).nodes.find((n) => n.id === "route")!;
    assert.equal(route.maxVisits, 3);
    assert.deepEqual(nodeLines(route), ["route", "decision · ×3"]);
    assert.deepEqual(nodeText(route, false), ["route", "decision"]);
    assert.equal(nodeText(route, false).length, nodeLines(route).length, "the view draws as many lines as the box was sized for");
    // another step keeps ×N on its output line
    const withVisits = buildGraph(analyzeText(text.replace("  - id: a\n    uses: ai.generate\n", "  - id: a\n    uses: ai.generate\n    maxVisits: 2\n"), "yaml").document.value).nodes.find((n) => n.id === "a")!;
    assert.deepEqual(nodeLines(withVisits).slice(1), ["ai.generate · m", "text · ×2"]);
  });

  test("rows in text order: the when shortened, the target; the default last and not draggable", () => {
    const graph = buildGraph(analyzeText(THREE, "yaml").document.value);
    const route = graph.nodes.find((n) => n.id === "route")!;
    const rows = caseRows(route);
    assert.deepEqual(rows.map((r) => [r.kind, r.index]), [["case", 0], ["case", 1], ["case", 2], ["default", undefined]]);
    assert.equal(rows[0].text, "ask.lastOutput == 'a' → a");
    assert.ok(rows[1].text.includes("…") && rows[1].text.endsWith("→ b"), rows[1].text);
    assert.ok(Array.from(rows[1].text).length <= CASE_ROW_CHARS);
    assert.match(rows[1].title, /Case 2 of 3: when \{\{ steps\.ask\.lastOutput == 'a very long answer that needs to be shortened in the row' \}\} → b/);
    assert.equal(rows[2].text, "true → end");
    assert.equal(rows[3].text, "default → c");
    // a long target keeps more of itself: the when gives way
    const long = buildGraph(analyzeText(THREE.replace("to: b\n", "to: select-recommendations\n"), "yaml").document.value);
    const row = caseRows(long.nodes.find((n) => n.id === "route")!)[1];
    assert.ok(row.text.endsWith("→ select-recommendations") && Array.from(row.text).length <= CASE_ROW_CHARS, row.text);
    // other nodes list nothing
    assert.deepEqual(caseRows(graph.nodes.find((n) => n.id === "ask")!), []);
  });

  test("the layout sizes the node by its rows: taller per row, wide enough for the longest", () => {
    const graph = buildGraph(analyzeText(THREE, "yaml").document.value);
    const route = graph.nodes.find((n) => n.id === "route")!;
    const bare = { ...route, cases: undefined, defaultTo: undefined };
    const size = nodeSize(route);
    assert.equal(size.height - nodeSize(bare).height, 4 * CASE_ROW_HEIGHT + 6);
    const longest = Math.max(...caseRows(route).map((r) => Array.from(r.text).length));
    assert.ok(size.width >= longest * CHAR_WIDTH + 24, `${size.width} holds ${longest} characters`);
    const laid = layoutGraph(graph).nodes.find((n) => n.id === "route")!;
    assert.deepEqual({ width: laid.width, height: laid.height }, size);
    // one case more: one row taller
    const four = buildGraph(analyzeText(decision([{ when: "{{ true }}", to: "a" }, { when: "{{ false }}", to: "b" }]), "yaml").document.value);
    const five = buildGraph(analyzeText(decision([{ when: "{{ true }}", to: "a" }, { when: "{{ false }}", to: "b" }, { when: "{{ 1 }}", to: "c" }]), "yaml").document.value);
    assert.equal(nodeSize(five.nodes.find((n) => n.id === "route")!).height - nodeSize(four.nodes.find((n) => n.id === "route")!).height, CASE_ROW_HEIGHT);
  });

  test(`many cases: ${CASE_ROWS_MAX} rows, then "+N more", then the default; the node stops growing`, () => {
    const many = (n: number) => decision(Array.from({ length: n }, (_, k) => ({ when: `{{ steps.ask.lastOutput == '${k}' }}`, to: ["a", "b", "c"][k % 3] })), "a");
    const graph = buildGraph(analyzeText(many(20), "yaml").document.value);
    const route = graph.nodes.find((n) => n.id === "route")!;
    const rows = caseRows(route);
    assert.equal(rows.length, CASE_ROWS_MAX + 2);
    assert.deepEqual(rows.slice(0, CASE_ROWS_MAX).map((r) => r.index), Array.from({ length: CASE_ROWS_MAX }, (_, k) => k));
    assert.deepEqual(rows.slice(CASE_ROWS_MAX).map((r) => [r.kind, r.text]), [["more", "+12 more cases"], ["default", "default → a"]]);
    const heightOf = (n: number) => nodeSize(buildGraph(analyzeText(many(n), "yaml").document.value).nodes.find((x) => x.id === "route")!).height;
    assert.equal(heightOf(40), heightOf(20), "capped");
    assert.equal(heightOf(CASE_ROWS_MAX), heightOf(CASE_ROWS_MAX + 1) - CASE_ROW_HEIGHT, "the more row");
    // every case is still an edge
    assert.equal(graph.edges.filter((e) => e.from === "route" && e.caseIndex !== undefined).length, 20);
  });

  test("the drawing: a list of rows inside the box, data-case on case rows only, names for screen readers; the CLI's SVG lists them too", () => {
    const graph = buildGraph(analyzeText(THREE, "yaml").document.value);
    const layout = layoutGraph(graph);
    const tree = drawGraph({ graph, layout });
    // the decision is a group holding the list (a button's content would be flattened for screen readers)
    assert.deepEqual(findAll(tree, (n) => n.attrs["data-id"] !== undefined).map((n) => [n.attrs["data-id"], n.attrs.role]),
      [["ask", "button"], ["route", "group"], ["a", "button"], ["b", "button"], ["c", "button"], ["[end]", "button"]]);
    const list = findAll(tree, (n) => n.attrs.class === "cases");
    assert.equal(list.length, 1);
    assert.equal(list[0].attrs.role, "list");
    const rows = list[0].children!;
    assert.deepEqual(rows.map((r) => r.attrs["data-case"]), [0, 1, 2, undefined]);
    assert.deepEqual(rows.map((r) => r.attrs.tabindex), [-1, -1, -1, undefined]);
    assert.ok(rows.every((r) => typeof r.attrs["aria-label"] === "string" && r.children![0].tag === "title"));
    const box = layout.nodes.find((n) => n.id === "route")!;
    for (const r of rows) {
      const rect = r.children!.find((c) => c.tag === "rect")!;
      assert.ok(Number(rect.attrs.y) >= box.y && Number(rect.attrs.y) + Number(rect.attrs.height) <= box.y + box.height, "row inside the box");
    }
    assert.ok(toSvg(graph, layout).includes("default → c"));
  });

  test("a row dragged to another place is a moveCase to that index; the server's edit gives that order", () => {
    const analysis = analyzeText(THREE, "yaml");
    const graph = buildGraph(analysis.document.value);
    const outcome = actionFor(graph, { kind: "moveCase", step: "route", index: 2, to: 0 });
    assert.deepEqual(outcome, { action: { kind: "moveCase", step: "route", from: 2, to: 0 } });
    assert.ok("refused" in actionFor(graph, { kind: "moveCase", step: "route", index: 1, to: 1 }));
    assert.ok("refused" in actionFor(graph, { kind: "moveCase", step: "route", index: 1, to: 3 }));
    const edit = graphEdit(analysis, (outcome as { action: Parameters<typeof graphEdit>[1] }).action);
    assert.ok(!("refused" in edit));
    const text = applyEdits(THREE, [...edit.edits].sort((a, b) => b.start - a.start));
    const after = buildGraph(analyzeText(text, "yaml").document.value).nodes.find((n) => n.id === "route")!;
    assert.deepEqual(caseRows(after).map((r) => r.text.split(" → ")[1]), ["end", "a", "b", "c"]);
    // the nodes' key follows the case list (a layout kept for the old key would size the node for the old rows)
    assert.notEqual(graphNodesKey(buildGraph(analyzeText(text, "yaml").document.value)), graphNodesKey(graph));
  });

  test("the loop offer, worded: the loop, the maxVisits and the steps that get it", () => {
    const graph = buildGraph(analyzeText(THREE, "yaml").document.value);
    assert.equal(loopQuestion(graph, { from: "route", to: "ask" }, { reason: "loop", loop: ["ask", "route"], maxVisits: 2, steps: ["ask", "route"] }),
      "Connecting route → ask closes the loop ask → route → ask; it needs maxVisits 2 on ask, route. Add the edge with maxVisits 2?");
    assert.match(loopQuestion(graph, { from: "route", to: "ask" }, { reason: "loop", loop: ["ask", "route"], maxVisits: 3, steps: [] }), /allow enough visits already\. Add the edge\?$/);
  });
});
