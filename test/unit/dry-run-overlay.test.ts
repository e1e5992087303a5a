// "LWIR: Dry run"'s pure parts: a trace → the overlay per step (server/src/run/overlay.ts: runs, the case
// each decision chose, the failed step, the steps never reached), the report's text (the CLI's words), and
// the overlay → the marks on the graph's nodes and edges (webview/graph/overlay.ts), stale after an edit.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { buildGraph } from "../../server/src/graph/model";
import { layoutGraph } from "../../server/src/graph/layout";
import { dryRunOverlay, dryRunReport, stepPaths } from "../../server/src/run/overlay";
import { currentScenario, dryRunView } from "../../server/src/run/preview";
import { formatTrace } from "../../server/src/run/traceText";
import { overlayMarks } from "../../webview/graph/overlay";
import type { DryRunResult } from "../../server/src/protocol";

type Step = Record<string, unknown>;
const text = (id: string, extra: Step = {}): Step => ({ id, uses: "ai.generate", with: { model: "m", prompt: "p" }, output: { mode: "text" }, ...extra });
const wf = (steps: Step[]): Step => ({ apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "t", version: "1" }, steps });

// draft → review → route: back to draft until approved (maxVisits 3), then publish; "reject" is never chosen.
const LOOP = wf([
  text("draft", { maxVisits: 3 }),
  { id: "review", uses: "ai.generate", needs: ["draft"], maxVisits: 3, with: { model: "m", prompt: "r" }, output: { mode: "choice", values: ["ok", "again", "no"] } },
  { id: "route", uses: "decision", needs: ["review"], maxVisits: 3, with: { cases: [{ when: "{{ steps.review.output == 'ok' }}", to: "publish" }, { when: "{{ steps.review.output == 'no' }}", to: "reject" }], default: "draft" } },
  text("publish"),
  text("reject"),
]);

const run = (workflow: unknown, outputs: Record<string, unknown>) => dryRunView(workflow, { label: "scenario \"s\" (t.lwir.test.yaml)", input: {}, inputFrom: "from the scenario", generated: false, outputs });

describe("trace → overlay (server/src/run/overlay.ts)", () => {
  test("a loop: visit counts per step, each choice of the decision with its case and count, the step never reached", () => {
    const view = run(LOOP, { review: ["again", "ok"] });
    assert.equal(view.trace.status, "completed");
    const overlay = dryRunOverlay(LOOP, view);
    assert.deepEqual(overlay.steps.map((s) => [s.step, s.runs]), [["draft", 2], ["review", 2], ["route", 2], ["publish", 1]]);
    assert.deepEqual(overlay.steps.find((s) => s.step === "route")!.chosen, [
      { to: "draft", runs: 1, byDefault: true },
      { to: "publish", runs: 1, byDefault: false, caseIndex: 0 },
    ]);
    assert.deepEqual(overlay.unreached, ["reject"]);
    assert.equal(overlay.steps.some((s) => s.failed), false);
    assert.equal(overlay.error, undefined);
  });

  test("the step that fails carries the runtime's error at its position (the visit that failed); later steps are unreached", () => {
    const view = run(LOOP, { review: ["again", "again", "again"] });
    assert.equal(view.trace.status, "failed");
    const overlay = dryRunOverlay(LOOP, view);
    const failed = overlay.steps.filter((s) => s.failed);
    assert.deepEqual(failed.map((s) => [s.step, s.failed!.path]), [["draft", "draft.visit[3]"]]);
    assert.match(failed[0].failed!.message, /maxVisits is 3/);
    assert.match(failed[0].failed!.runtime!, /maxVisits cap of 3/);
    assert.deepEqual(overlay.unreached, ["publish", "reject"]);
  });

  test("an expression error: the step, the place in it and the expression", () => {
    const workflow = wf([text("a"), text("b", { needs: ["a"], with: { model: "m", prompt: "{{ steps.a.output.missing }}" } })]);
    const overlay = dryRunOverlay(workflow, run(workflow, {}));
    const b = overlay.steps.find((s) => s.step === "b")!;
    assert.equal(b.failed?.at, "with.prompt");
    assert.equal(b.failed?.expression, "steps.a.output.missing");
  });

  test("a parallel body: node ids `parent.child`, runs counted over the branches; a failure in a branch is the body step's, not the parallel step's", () => {
    const workflow = wf([
      { id: "list", uses: "tool.call", with: { tool: "t" }, output: { mode: "json" } },
      {
        id: "each", uses: "parallel", needs: ["list"],
        with: { items: "{{ steps.list.output }}", itemKey: "{{ item }}", maxBranches: 5, maxConcurrency: 1, cardinality: { kind: "matches_items" }, failureMode: "fail_fast", fanIn: { order: "input", output: "array" } },
        steps: [text("work", { with: { model: "m", prompt: "{{ item }} {{ input.nope }}" } })],
      },
    ]);
    assert.deepEqual(stepPaths(workflow), ["list", "each", "each.work"]);
    const overlay = dryRunOverlay(workflow, run(workflow, { list: ["a", "b"] }));
    assert.deepEqual(overlay.steps.map((s) => [s.step, s.runs, s.failed?.path]), [["list", 1, undefined], ["each", 1, undefined], ["each.work", 1, "each[a].work"]]);
  });

  test("a failure before the first step (the input against input.schema) is the run's, on no step; every step unreached", () => {
    const workflow = { ...wf([text("a")]), input: { schema: { type: "object", required: ["q"] } } };
    const overlay = dryRunOverlay(workflow, run(workflow, {}));
    assert.equal(overlay.status, "failed");
    assert.deepEqual(overlay.steps, []);
    assert.deepEqual(overlay.unreached, ["a"]);
    assert.ok(overlay.error && overlay.error.message.length > 0);
  });
});

describe("the report (text in the CLI's words)", () => {
  test("the text is `lwir run --dry`'s trace, then the steps never reached; no scenario says that everything is generated", () => {
    const view = run(LOOP, { review: ["again", "ok"] });
    const report = dryRunReport(LOOP, view, "Dry run of t.lwir.yaml");
    assert.ok(report.text.startsWith(formatTrace("Dry run of t.lwir.yaml, scenario \"s\" (t.lwir.test.yaml)", {}, "from the scenario", view.trace)));
    assert.match(report.text, /never reached: reject\n$/);
    assert.equal(report.generated, false);
    const generated = dryRunReport(LOOP, dryRunView(LOOP, currentScenario(LOOP, undefined)), "Dry run of t.lwir.yaml");
    assert.equal(generated.generated, true);
    assert.equal(generated.scenario, "the generated input");
    assert.match(generated.text, /No scenario: the input is generated from input.schema and every step's output is a generated sample/);
    assert.match(generated.text, /\[generated sample\]/);
  });

  test("undefined in the trace is written as {\"undefined\": true}, as the CLI's JSON has it", () => {
    // a case whose `when` resolves to undefined (coalesce of a missing property): falsy, the default wins
    const workflow = wf([
      { id: "route", uses: "decision", with: { cases: [{ when: "{{ coalesce(input.none, input.other) }}", to: "a" }], default: "b" } },
      text("a"), text("b"),
    ]);
    const view = run(workflow, {});
    assert.equal(view.trace.steps[0].cases![0].value, undefined);
    const report = dryRunReport(workflow, view, "x");
    assert.deepEqual(report.trace.steps[0].cases![0].value, { undefined: true });
    assert.deepEqual(report.overlay.unreached, ["a"]);
  });
});

describe("overlay → marks on the graph (webview/graph/overlay.ts)", () => {
  const graph = buildGraph(LOOP);
  const data = { graph, layout: layoutGraph(graph) };
  const result = (version: number): DryRunResult => ({ uri: "file:///t.lwir.yaml", version, scenarios: ["s"], scenarioName: "s", ...dryRunReport(LOOP, run(LOOP, { review: ["again", "ok"] }), "Dry run of t.lwir.yaml") });

  test("each step that ran has a badge with its count; the decision's chosen edges are labelled; the unreached step is dimmed", () => {
    const marks = overlayMarks(data, result(4), 4);
    assert.equal(marks.stale, false);
    const byId = new Map(marks.nodes.map((n) => [n.id, n]));
    assert.equal(byId.get("draft")!.badge, "ran 2×");
    assert.equal(byId.get("publish")!.badge, "ran 1×");
    assert.deepEqual(byId.get("reject")!.classes, ["dry-unreached"]);
    assert.equal(byId.get("reject")!.badge, undefined);
    assert.match(byId.get("route")!.title, /Chose draft \(default\), 1 of 2 runs\.\nChose publish \(case 0\), 1 of 2 runs\./);
    assert.deepEqual(marks.edges.map((e) => [e.from, e.to, e.label]), [["route", "draft", "chosen"], ["route", "publish", "chosen"]]);
    // the edges marked exist in the graph, as the kind the choice took
    assert.equal(graph.edges.find((e) => e.from === "route" && e.to === "draft")!.kind, "default");
    assert.match(marks.bar, /^Dry run, scenario "s" \(t\.lwir\.test\.yaml\): completed \(7 step runs, 1 never reached\)$/);
  });

  test("the failed step is marked with a text badge and its error in the title", () => {
    const failed: DryRunResult = { uri: "u", version: 1, scenarios: ["s"], scenarioName: "s", ...dryRunReport(LOOP, run(LOOP, { review: ["again", "again", "again"] }), "x") };
    const marks = overlayMarks(data, failed, 1);
    const draft = marks.nodes.find((n) => n.id === "draft")!;
    assert.deepEqual(draft.classes, ["dry-ran", "dry-failed"]);
    assert.equal(draft.badge, "✗ failed (run 4)");
    assert.match(draft.title, /Failed \(draft\.visit\[3\]\): .*maxVisits is 3/);
    assert.match(marks.bar, /failed at draft\.visit\[3\]/);
  });

  test("a run of an older version of the text is kept, marked stale; steps gone from the graph are left out", () => {
    const marks = overlayMarks(data, result(3), 5);
    assert.equal(marks.stale, true);
    assert.match(marks.bar, /version 3; the text has changed since: run LWIR: Dry run again/);
    const smaller = buildGraph(wf((LOOP.steps as Step[]).filter((s) => s.id !== "publish" && s.id !== "reject").map((s) => s.id === "route" ? { ...s, with: { cases: [], default: "draft" } } : s)));
    const left = overlayMarks({ graph: smaller, layout: layoutGraph(smaller) }, result(3), 5);
    assert.deepEqual(left.nodes.map((n) => n.id).sort(), ["draft", "review", "route"]);
    assert.deepEqual(left.edges.map((e) => e.to), ["draft"]);
  });

  test("a workflow that cannot run: the bar says why, nothing is marked", () => {
    const marks = overlayMarks(data, { uri: "u", version: 2, scenarios: [], scenarioName: null, scenario: "the generated input", error: "No dry run: the workflow has 1 problem" }, 2);
    assert.deepEqual([marks.nodes, marks.edges], [[], []]);
    assert.match(marks.bar, /No dry run: the workflow has 1 problem/);
  });
});
