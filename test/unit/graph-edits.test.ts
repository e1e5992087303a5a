// lwir/graphEdit's actions (server/src/service/graphEdits.ts) on the corpus, JSON and YAML: every real-world
// workflow and a sample of the conformance cases. For each action that applies: the edited text parses,
// only the lines of the steps the action concerns change, the graph after the edit has exactly the
// intended change (an edge or a step more or less, the cases reordered), a loop closed through a
// decision gets its maxVisits and no new finding, and connect then disconnect gives back the text byte
// for byte. Then the refusals, with their messages: a loop no decision can leave, unknown ids, a
// referenced step deleted without a choice, a decision with no default without `as`.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CONFORMANCE, REALWORLD, corpusCases, type CorpusCase } from "../corpus";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { applyEdits } from "../../server/src/service/edits";
import { buildGraph, type GraphNode, type WorkflowGraph } from "../../server/src/graph/model";
import { graphEdit, CASE_WHEN_PLACEHOLDER } from "../../server/src/service/graphEdits";
import { valueAt } from "../../server/src/lwir/path";
import type { GraphEditAction } from "../../server/src/protocol";

type Outcome = ReturnType<typeof graphEdit>;

/** Every how-manieth conformance case is edited (1: all of them; the whole corpus takes a few seconds). */
const SAMPLE = 1;

function cases(): CorpusCase[] {
  const sample = corpusCases(CONFORMANCE).filter((c) => !c.label.parseError).filter((_, i) => i % SAMPLE === 0);
  return [...corpusCases(REALWORLD).filter((c) => !c.label.parseError), ...sample];
}

const edgeKey = (e: { from: string; to: string; kind: string }) => `${e.from} -> ${e.to} (${e.kind})`;
const edgeKeys = (g: WorkflowGraph) => g.edges.map(edgeKey).sort();
/** Step node ids; a step without a usable id is named by its index, which an insertion or deletion before it shifts. */
const stepIds = (g: WorkflowGraph) => g.nodes.filter((n) => n.kind === "step" && !n.id.includes("[")).map((n) => n.id).sort();
const flowSteps = (g: WorkflowGraph) => g.nodes.filter((n) => n.kind === "step" && !n.problem && n.path);

/** Edits the text; asserts the result parses and returns it with its analysis. */
function applied(analysis: Analysis, outcome: Outcome, what: string): { text: string; after: Analysis } {
  assert.ok("edits" in outcome, `${what}: refused: ${"refused" in outcome ? outcome.refused : ""}`);
  const text = applyEdits(analysis.document.text, outcome.edits);
  const after = analyzeText(text, analysis.document.format);
  assert.equal(after.document.parseErrors.length, 0, `${what}: the edited text does not parse:\n${text}`);
  return { text, after };
}

/** The 0-based line span of the step objects at these paths (and the line before each: a JSON comma goes there). */
function lineSpans(analysis: Analysis, paths: Array<readonly (string | number)[]>): Array<[number, number]> {
  return paths.map((p) => {
    const loc = analysis.document.locate(p);
    assert.ok(loc, `no location for ${JSON.stringify(p)}`);
    const range = analysis.document.rangeAt(loc.valueStart, loc.valueEnd);
    return [Math.max(0, range.start.line - 1), range.end.line + 1] as [number, number];
  });
}

/** Only lines inside the spans differ: the original's lines outside them are all still there, in order, around the change. */
function assertOnlyLines(before: string, after: string, spans: Array<[number, number]>, what: string): void {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const first = prefix;
  const last = a.length - 1 - suffix; // last changed line of the original (first > last: only insertions)
  if (first > last) {
    assert.ok(spans.some(([s, e]) => first >= s && first <= e + 1), `${what}: lines inserted at ${first}, outside ${JSON.stringify(spans)}`);
    return;
  }
  const lo = Math.min(...spans.map((s) => s[0]));
  const hi = Math.max(...spans.map((s) => s[1]));
  assert.ok(first >= lo && last <= hi, `${what}: lines ${first}-${last} changed, outside ${lo}-${hi}`);
  // and every changed original line is inside one of the spans
  const common = new Map<string, number>();
  for (const line of b) common.set(line, (common.get(line) ?? 0) + 1);
  for (let i = first; i <= last; i++) {
    const n = common.get(a[i]) ?? 0;
    if (n > 0) { common.set(a[i], n - 1); continue; }
    assert.ok(spans.some(([s, e]) => i >= s && i <= e), `${what}: line ${i} (${JSON.stringify(a[i])}) changed outside the steps concerned`);
  }
}

function findingKeys(analysis: Analysis): string[] {
  return analysis.findings.map((f) => `${f.code} ${f.message}`).sort();
}

/** Findings of `after` that `before` does not have (multiset). */
function newFindings(before: Analysis, after: Analysis): string[] {
  const left = new Map<string, number>();
  for (const k of findingKeys(before)) left.set(k, (left.get(k) ?? 0) + 1);
  return findingKeys(after).filter((k) => { const n = left.get(k) ?? 0; if (n > 0) { left.set(k, n - 1); return false; } return true; });
}

function ancestorsOf(node: GraphNode, graph: WorkflowGraph): string[] {
  return graph.nodes.filter((n) => n.kind === "step" && n.path && node.path && n.path.length <= node.path.length && n.path.every((s, i) => node.path![i] === s)).map((n) => n.id);
}

describe("lwir/graphEdit on the corpus", () => {
  const all = cases();
  const seen = new Map<string, Set<string>>(); // action kind → formats it succeeded in
  const ok = (kind: string, format: string) => { if (!seen.has(kind)) seen.set(kind, new Set()); seen.get(kind)!.add(format); };

  for (const c of all) {
    test(c.name, () => {
      const text = readFileSync(c.file, "utf8");
      const analysis = analyzeText(text, c.format);
      if (analysis.document.parseErrors.length > 0) return;
      const graph = buildGraph(analysis.document.value);
      const steps = flowSteps(graph);
      const run = (action: GraphEditAction) => graphEdit(analysis, action);

      // connect: a few pairs in one list with no edge between them yet; then disconnect gives the text back
      const edges = new Set(graph.edges.map((e) => `${e.from}\u0000${e.to}`));
      let connects = 0;
      for (const from of steps) {
        if (connects >= 3) break;
        for (const to of steps) {
          if (connects >= 3 || from === to || from.scope !== to.scope || edges.has(`${from.id}\u0000${to.id}`)) continue;
          const toValue = valueAt(analysis.document.value, to.path!) as Record<string, unknown>;
          if (Array.isArray(toValue.needs) && toValue.needs.includes(from.stepId)) continue;
          const action: GraphEditAction = { kind: "connect", from: from.id, to: to.id };
          const decision = from.uses === "decision";
          if (decision) action.as = "case";
          let outcome = run(action);
          const what = `connect ${from.id} → ${to.id}`;
          if ("refused" in outcome && outcome.data.reason === "loop") {
            // a valid loop is offered first: nothing applied until the action accepts it
            assert.ok(outcome.data.loop.includes(from.id) && outcome.data.loop.includes(to.id), `${what}: the offer names the loop`);
            outcome = run({ ...action, acceptLoop: true });
          }
          if ("refused" in outcome) {
            assert.ok(/loop|already|not a list|shape|no with|cannot need|can route only/.test(outcome.refused), `${what}: ${outcome.refused}`);
            continue;
          }
          connects++;
          const { text: edited, after } = applied(analysis, outcome, what);
          const newGraph = buildGraph(after.document.value);
          const kind = decision ? "transition" : "needs";
          const added = edgeKeys(newGraph);
          const expected = [...edgeKeys(graph), edgeKey({ from: from.id, to: to.id, kind })].sort();
          assert.deepEqual(added, expected, `${what}: the graph has exactly the new edge`);
          assert.deepEqual(stepIds(newGraph), stepIds(graph));
          const loop = outcome.edits.some((e) => e.newText.includes("maxVisits"));
          const hadCycle = analysis.findings.some((f) => f.code === "lwir.invalid_cycle");
          if (!hadCycle) assert.ok(!newFindings(analysis, after).some((f) => f.startsWith("lwir.invalid_cycle")), `${what}: no cycle finding`);
          if (loop) assert.deepEqual(newFindings(analysis, after), [], `${what}: a loop closed through a decision adds no finding`);
          const concerned = loop ? steps.filter((s) => s.scope === from.scope).map((s) => s.path!) : [decision ? from.path! : to.path!];
          assertOnlyLines(text, edited, lineSpans(analysis, concerned), what);
          ok("connect", c.format);
          // disconnect: the edge goes, and (with no maxVisits added, and no `needs: []` before) the text is as it was
          const back = graphEdit(after, { kind: "disconnect", from: from.id, to: to.id, ...(decision ? { edge: (valueAt(after.document.value, [...from.path!, "with", "cases"]) as unknown[]).length - 1 } : {}) });
          const { text: restored, after: again } = applied(after, back, `disconnect ${from.id} → ${to.id}`);
          assert.deepEqual(edgeKeys(buildGraph(again.document.value)), edgeKeys(graph));
          const emptyNeeds = Array.isArray(toValue.needs) && toValue.needs.length === 0;
          if (!loop && !emptyNeeds) assert.equal(restored, text, `${what}: connect then disconnect gives back the text`);
          ok("disconnect", c.format);
        }
      }

      // disconnect an existing edge (the first needs edge and the first decision route in a list)
      for (const kind of ["needs", "transition", "default"] as const) {
        const edge = graph.edges.find((e) => e.kind === kind && !e.dangling && steps.some((s) => s.id === e.from) && steps.some((s) => s.id === e.to));
        if (!edge) continue;
        const choice = kind === "needs" ? "needs" : kind === "default" ? "default" : edge.caseIndex;
        const outcome = run({ kind: "disconnect", from: edge.from, to: edge.to, edge: choice });
        const what = `disconnect ${edgeKey(edge)}`;
        if ("refused" in outcome && /through this needs entry: disconnect them first/.test(outcome.refused)) continue;
        const { text: edited, after } = applied(analysis, outcome, what);
        const remaining = edgeKeys(buildGraph(after.document.value));
        const expected = edgeKeys(graph);
        expected.splice(expected.indexOf(edgeKey(edge)), 1);
        assert.deepEqual(remaining, expected, `${what}: exactly that edge goes`);
        const owner = graph.nodes.find((n) => n.id === (kind === "needs" ? edge.to : edge.from))!;
        assertOnlyLines(text, edited, lineSpans(analysis, [owner.path!]), what);
        ok("disconnect", c.format);
      }

      // addStep: after the last top-level step, and (when there is one) into the first parallel body
      const top = steps.filter((s) => s.scope === "");
      const last = top[top.length - 1];
      const hasSteps = Array.isArray((analysis.document.value as { steps?: unknown } | null)?.steps);
      for (const uses of hasSteps ? ["ai.generate", "decision"] as const : []) {
        const outcome = run({ kind: "addStep", uses, ...(last ? { after: last.id } : {}) });
        const what = `addStep ${uses} after ${last?.id}`;
        if ("refused" in outcome && /not in a shape the graph edits safely/.test(outcome.refused)) continue; // a YAML alias in the way
        const { text: edited, after } = applied(analysis, outcome, what);
        const newGraph = buildGraph(after.document.value);
        const fresh = stepIds(newGraph).filter((id) => !stepIds(graph).includes(id));
        assert.equal(fresh.length, 1, `${what}: one step more (${fresh})`);
        assert.match(fresh[0], /^(generate|route)(-\d+)?$/);
        if (last) assert.ok(newGraph.edges.some((e) => e.kind === "needs" && e.from === last.id && e.to === fresh[0]), `${what}: it needs ${last.id}`);
        for (const e of edgeKeys(graph)) assert.ok(edgeKeys(newGraph).includes(e), `${what}: ${e} kept`);
        const added = newGraph.edges.filter((e) => !edgeKeys(graph).includes(edgeKey(e)));
        assert.ok(added.every((e) => e.to === fresh[0] || e.from === fresh[0]), `${what}: only edges of the new step are new`);
        if (last) assertOnlyLines(text, edited, lineSpans(analysis, [last.path!]), what);
        ok("addStep", c.format);
      }
      const parallel = steps.find((s) => s.container);
      if (parallel) {
        const outcome = run({ kind: "addStep", uses: "tool.call", parent: parallel.id });
        const { after } = applied(analysis, outcome, `addStep into ${parallel.id}`);
        const fresh = stepIds(buildGraph(after.document.value)).filter((id) => !stepIds(graph).includes(id));
        assert.equal(fresh.length, 1);
        assert.ok(fresh[0].startsWith(`${parallel.id}.call`), fresh[0]);
      }

      // deleteStep: each of the first steps; referenced ones are refused without a choice, then removed with their references
      for (const node of steps.slice(0, 3)) {
        const refused = run({ kind: "deleteStep", id: node.id });
        const gone = new Set(ancestorsOf(node, graph).length ? graph.nodes.filter((n) => n.kind === "step" && n.path && n.path.length >= node.path!.length
          && node.path!.every((s, i) => n.path![i] === s)).map((n) => n.id) : []);
        const outcome = "refused" in refused && refused.data.reason === "referenced" ? run({ kind: "deleteStep", id: node.id, references: "remove" }) : refused;
        if ("refused" in outcome && /YAML anchor|not in a shape/.test(outcome.refused)) continue;
        if ("refused" in refused) {
          assert.equal(refused.data.reason, "referenced", refused.refused);
          assert.match(refused.refused, /is referred to by/);
        }
        const what = `deleteStep ${node.id}`;
        const { after } = applied(analysis, outcome, what);
        ok("deleteStep", c.format);
        if (graph.nodes.some((n) => n.problem === "duplicateId")) continue; // a duplicate takes the deleted step's place
        const newGraph = buildGraph(after.document.value);
        assert.deepEqual(stepIds(newGraph), stepIds(graph).filter((id) => !gone.has(id)), `${what}: the step and its body go`);
        const expected = graph.edges.filter((e) => !gone.has(e.from) && !gone.has(e.to)).map(edgeKey).sort();
        const real = (keys: string[]) => keys.filter((e) => !e.includes("[missing]"));
        assert.deepEqual(real(edgeKeys(newGraph)), real(expected), `${what}: its edges go, the others stay`);
      }

      // moveCase: the first decision with two cases or more, its first case moved last
      const decision = steps.find((s) => {
        const cs = valueAt(analysis.document.value, [...s.path!, "with", "cases"]);
        return s.uses === "decision" && Array.isArray(cs) && cs.length >= 2;
      });
      if (decision) {
        const casesPath = [...decision.path!, "with", "cases"];
        const before = valueAt(analysis.document.value, casesPath) as unknown[];
        const outcome = run({ kind: "moveCase", step: decision.id, from: 0, to: before.length - 1 });
        const what = `moveCase ${decision.id}`;
        const { text: edited, after } = applied(analysis, outcome, what);
        assert.deepEqual(valueAt(after.document.value, casesPath), [...before.slice(1), before[0]], `${what}: the cases in their new order`);
        assert.deepEqual(edgeKeys(buildGraph(after.document.value)), edgeKeys(graph));
        assertOnlyLines(text, edited, lineSpans(analysis, [decision.path!]), what);
        const back = graphEdit(after, { kind: "moveCase", step: decision.id, from: before.length - 1, to: 0 });
        assert.equal(applied(after, back, `${what} back`).text, text, `${what}: moved back, the text is as it was`);
        ok("moveCase", c.format);
      }
    });
  }

  test("every action succeeded somewhere in JSON and in YAML", () => {
    // (moveCase in YAML: the corpus has no YAML decision with two cases; the test below covers it)
    assert.ok(seen.get("moveCase")?.has("json"), "moveCase");
    for (const kind of ["connect", "disconnect", "addStep", "deleteStep"]) {
      assert.deepEqual([...(seen.get(kind) ?? [])].sort(), ["json", "yaml"], kind);
    }
  });
});

const LOOP_YAML = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: loop
permissions:
  models: [m]
steps:
  # drafts, then reviews
  - id: draft
    uses: ai.generate
    with: {model: m, prompt: "Draft"}
    output: {mode: text}
  - id: review
    uses: ai.generate
    needs: [draft]
    with: {model: m, prompt: "Review {{ steps.draft.lastOutput }}"}
    output: {mode: text}
  - id: route
    uses: decision
    needs: [review]
    with:
      cases:
        - when: "{{ steps.review.lastOutput == 'ok' }}"
          to: end
`;

describe("lwir/graphEdit: loops, choices and refusals", () => {
  const analysis = analyzeText(LOOP_YAML, "yaml");

  test("a decision routing back closes a valid loop: the case and the maxVisits it needs, no new finding", () => {
    const ambiguous = graphEdit(analysis, { kind: "connect", from: "route", to: "draft" });
    assert.ok("refused" in ambiguous);
    assert.match(ambiguous.refused, /no default.*new case or the default/);
    assert.deepEqual(ambiguous.data, { reason: "ambiguous", choices: ["case", "default"] });

    // offered, not applied: the loop in order from the target, the maxVisits, the steps that lack it
    const offer = graphEdit(analysis, { kind: "connect", from: "route", to: "draft", as: "default" });
    assert.ok("refused" in offer);
    assert.match(offer.refused, /closes the loop "draft" → "review" → "route" → "draft"; it needs maxVisits 2 on "draft", "review", "route"\. Send the action again with acceptLoop: true/);
    assert.deepEqual(offer.data, { reason: "loop", loop: ["draft", "review", "route"], maxVisits: 2, steps: ["draft", "review", "route"] });
    assert.ok("refused" in graphEdit(analysis, { kind: "connect", from: "route", to: "draft", as: "default", acceptLoop: false }), "acceptLoop false is still an offer");
    assert.match((graphEdit(analysis, { kind: "connect", from: "route", to: "draft", as: "default", acceptLoop: "yes" } as unknown as GraphEditAction) as { refused: string }).refused, /acceptLoop must be true or false/);

    const outcome = graphEdit(analysis, { kind: "connect", from: "route", to: "draft", as: "default", acceptLoop: true });
    const { text, after } = applied(analysis, outcome, "connect route → draft");
    assert.match(text, /\n      default: draft\n/);
    for (const id of ["draft", "review", "route"]) assert.equal((valueAt(after.document.value, ["steps", ["draft", "review", "route"].indexOf(id)]) as { maxVisits?: number }).maxVisits, 2, id);
    assert.deepEqual(newFindings(analysis, after), []);
    assert.ok(text.includes("  # drafts, then reviews\n"), "comments stay");

    const asCase = graphEdit(analysis, { kind: "connect", from: "route", to: "draft", as: "case", acceptLoop: true });
    const { text: withCase } = applied(analysis, asCase, "as case");
    assert.ok(withCase.includes(`        - when: "${CASE_WHEN_PLACEHOLDER}"\n          to: draft\n`), withCase);
  });

  test("a loop whose steps allow enough visits already is still offered, with no step to change", () => {
    const yaml = LOOP_YAML.replace(/(  - id: (draft|review|route)\n)/g, "$1    maxVisits: 3\n");
    const visited = analyzeText(yaml, "yaml");
    const offer = graphEdit(visited, { kind: "connect", from: "route", to: "review", as: "default" });
    assert.ok("refused" in offer);
    assert.deepEqual(offer.data, { reason: "loop", loop: ["review", "route"], maxVisits: 3, steps: [] });
    assert.match(offer.refused, /its steps allow enough visits already/);
    const { text } = applied(visited, graphEdit(visited, { kind: "connect", from: "route", to: "review", as: "default", acceptLoop: true }), "accepted");
    assert.equal(text.split("maxVisits").length, yaml.split("maxVisits").length, "no maxVisits added");
    assert.ok(text.includes("      default: review\n"), text);
  });

  test("moveCase in YAML: a block and a flow case change places, the comment between stays", () => {
    const yaml = LOOP_YAML.replace('          to: end\n', '          to: end\n        # the fallback\n        - {when: "{{ true }}", to: review}\n');
    const two = analyzeText(yaml, "yaml");
    const { text, after } = applied(two, graphEdit(two, { kind: "moveCase", step: "route", from: 1, to: 0 }), "moveCase");
    // the items' texts change places; the comment between them stays where it is written
    assert.ok(text.includes('        - {when: "{{ true }}", to: review}\n        # the fallback\n        - when: "{{ steps.review.lastOutput == \'ok\' }}"\n          to: end\n'), text);
    assert.deepEqual((valueAt(after.document.value, ["steps", 2, "with", "cases"]) as Array<{ to: string }>).map((c) => c.to), ["review", "end"]);
    const back = applied(after, graphEdit(after, { kind: "moveCase", step: "route", from: 0, to: 1 }), "back");
    assert.equal(back.text, yaml);
  });

  test("a needs edge closing a loop with no decision on it is refused with the loop", () => {
    const outcome = graphEdit(analysis, { kind: "connect", from: "review", to: "draft" });
    assert.ok("refused" in outcome);
    assert.match(outcome.refused, /would close the loop "draft" → "review" → "draft", and no decision step on it could leave it/);
    assert.equal(outcome.data.reason, "cycle");
  });

  test("unknown ids, unknown kinds and wrong values are refused with a message", () => {
    const cases: Array<[GraphEditAction, RegExp]> = [
      [{ kind: "connect", from: "nope", to: "draft" }, /There is no step "nope"/],
      [{ kind: "disconnect", from: "draft", to: "route" }, /There is no edge from "draft" to "route"/],
      [{ kind: "addStep", uses: "shell.run" }, /uses must be one of/],
      [{ kind: "addStep", uses: "decision", after: "ghost" }, /There is no step "ghost"/],
      [{ kind: "deleteStep", id: "ghost" }, /There is no step "ghost"/],
      [{ kind: "moveCase", step: "route", from: 0, to: 3 }, /has cases 0 to 0/],
      [{ kind: "moveCase", step: "draft", from: 0, to: 1 }, /not a decision/],
      [{ kind: "connect", from: "draft", to: "review" }, /already needs "draft"/],
      [{ kind: "teleport" } as unknown as GraphEditAction, /Unknown graph action "teleport"/],
    ];
    for (const [action, message] of cases) {
      const outcome = graphEdit(analysis, action);
      assert.ok("refused" in outcome, JSON.stringify(action));
      assert.match(outcome.refused, message);
    }
  });

  test("deleteStep of a referenced step: refused listing the referrers, then remove or keep", () => {
    const refused = graphEdit(analysis, { kind: "deleteStep", id: "draft" });
    assert.ok("refused" in refused);
    assert.match(refused.refused, /Step "draft" is referred to by "review"/);
    assert.deepEqual(refused.data, { reason: "referenced", referrers: [
      { step: "review", kind: "needs", path: "$.steps[1].needs[0]" },
      { step: "review", kind: "expression", path: "$.steps[1].with.prompt" },
    ] });
    const removed = applied(analysis, graphEdit(analysis, { kind: "deleteStep", id: "draft", references: "remove" }), "remove");
    assert.ok(!removed.text.includes("id: draft") && !removed.text.includes("needs: [draft]"), removed.text);
    assert.ok(removed.text.includes("{{ steps.draft.lastOutput }}"), "expressions are the author's to change");
    const kept = applied(analysis, graphEdit(analysis, { kind: "deleteStep", id: "draft", references: "keep" }), "keep");
    assert.ok(kept.text.includes("needs: [draft]"));
    assert.ok(kept.after.findings.some((f) => f.code === "step.missing_dependency"));
  });

  test("addStep: a fresh id, after the step and needing it, in the document's style", () => {
    const { text } = applied(analysis, graphEdit(analysis, { kind: "addStep", uses: "ai.generate", after: "draft" }), "addStep");
    assert.ok(text.includes("    output: {mode: text}\n  - id: generate\n    uses: ai.generate\n    needs: [draft]\n    with:\n      model: m\n"), text);
    const json = analyzeText(JSON.stringify({ apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "x" }, steps: [{ id: "generate", uses: "code.run" }] }, null, 2), "json");
    const { text: jsonText } = applied(json, graphEdit(json, { kind: "addStep", uses: "ai.generate", after: "generate" }), "addStep json");
    assert.match(jsonText, /\n    },\n    \{\n      "id": "generate-2",\n      "uses": "ai.generate",\n      "needs": \["generate"\],\n/);
  });
});
