// The graph view's pure parts: the server's answers (service/graph.ts: layout reused while the shape is
// unchanged, the last good graph while the document does not parse, Mermaid text) and the webview's
// drawing (webview/graph/view.ts: SVG elements, search, keyboard order, the cursor's step).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeText } from "../../server/src/service/analysis";
import { GraphViews, graphOfAnalysis, hashKey } from "../../server/src/service/graph";
import type { Layouter } from "../../server/src/graph/layouter";
import { toMermaid } from "../../server/src/graph/render";
import { layoutGraph, nodeLines } from "../../server/src/graph/layout";
import type { WorkflowGraph } from "../../server/src/graph/model";
import type { GraphResult } from "../../server/src/protocol";
import { EDGE_LOOKS, GRAPH_STYLE, drawGraph, edgePath, escapeXml, navigate, searchNodes, serialize, standaloneSvg, stepAt, nodeText, type GraphData, type VNode } from "../../webview/graph/view";
import { CHAR_WIDTH, LINE_HEIGHT } from "../../server/src/graph/layout";
import { REALWORLD, corpusCases } from "../corpus";

const URI = "file:///w/flow.lwir.json";

const FAN_IN_SCHEMA = {
  type: "array",
  items: {
    type: "object", required: ["itemKey", "status", "artifacts"],
    properties: { itemKey: { type: "string" }, status: { enum: ["completed", "failed"] }, output: { type: "object" }, outputRef: { type: "string" }, error: { type: "object" }, artifacts: { type: "array", items: { type: "string" } } },
  },
};

/** A valid workflow: a parallel step with a body, a loop (review → decide → review), an end; `needs` and `prompt` break it on request. */
function workflow(extra: { needs?: string[]; prompt?: string } = {}): string {
  return JSON.stringify({
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "review" },
    input: { schema: { type: "object" } },
    output: { schema: { type: "object" } },
    permissions: { tools: ["artifact.read"], models: ["gpt"], secrets: [], network: [] },
    steps: [
      { id: "fetch", uses: "tool.call", output: { mode: "text" }, with: { tool: "artifact.read", input: {} } },
      {
        id: "fan", uses: "parallel", needs: ["fetch"], output: { mode: "array", schema: FAN_IN_SCHEMA },
        with: { items: "{{ input.items }}", itemKey: "{{ item.id }}", cardinality: { kind: "matches_items" }, maxBranches: 5, maxConcurrency: 2, failureMode: "all_settled", fanIn: { order: "input", output: "array" } },
        steps: [{ id: "one", uses: "ai.generate", output: { mode: "text" }, with: { model: "gpt", prompt: "x {{ item }}" } }],
      },
      { id: "review", uses: "ai.generate", needs: ["fan", ...(extra.needs ?? [])], maxVisits: 3, output: { mode: "json", schema: { type: "object" } }, with: { model: "gpt", prompt: extra.prompt ?? "look" } },
      { id: "decide", uses: "decision", needs: ["review"], maxVisits: 3, with: { cases: [{ when: "{{ steps.review.lastOutput.ok }}", to: "end" }], default: "review" } },
    ],
  }, null, 2);
}

test("the fixture is a valid workflow", () => {
  const a = analyzeText(workflow(), "json");
  assert.deepEqual(a.findings.map((f) => `${f.code} ${f.path} ${f.message}`), []);
});

/** The view's answer for `text` as version `version` of URI (never undefined here: the snapshot is always there). */
async function answer(views: GraphViews, text: string, version: number, uri = URI, options: { mermaid?: boolean } = {}): Promise<GraphResult> {
  const analysis = analyzeText(text, text.trimStart().startsWith("{") ? "json" : "yaml");
  return (await views.answer(uri, () => ({ version, analysis }), options))!;
}

/** A layouter that counts its layouts, in-thread. */
function counting(): Layouter & { calls: number } {
  const counter = { calls: 0, layout: async (g: WorkflowGraph) => { counter.calls++; return layoutGraph(g); } };
  return counter;
}

/** What the webview draws for `text`: its graph and the in-thread layout. */
function drawn(text: string): GraphResult {
  const graph = graphOfAnalysis(analyzeText(text, "json"))!;
  return { uri: URI, version: 1, parseOk: true, graph, layout: layoutGraph(graph), shapeKey: "", laidOut: true, selections: {} };
}

function walk(node: VNode, visit: (n: VNode) => void): void {
  visit(node);
  for (const c of node.children ?? []) walk(c, visit);
}
function find(node: VNode, pred: (n: VNode) => boolean): VNode[] {
  const out: VNode[] = [];
  walk(node, (n) => { if (pred(n)) out.push(n); });
  return out;
}
const hasClass = (n: VNode, c: string) => String(n.attrs.class ?? "").split(" ").includes(c);
const textsOf = (n: VNode) => find(n, (x) => x.tag === "text").map((x) => x.text);

describe("lwir/graph answers (service/graph.ts)", async () => {
  test("an edit that changes no node or edge reuses the layout; one that adds an edge lays out again", async () => {
    const layouter = counting();
    const views = new GraphViews(layouter);
    const first = await answer(views, workflow(), 1);
    assert.equal(layouter.calls, 1);
    assert.equal(first.laidOut, true);
    assert.equal(first.parseOk, true);

    // a prompt changes: same shape
    const second = await answer(views, workflow({ prompt: "look harder" }), 2);
    assert.equal(layouter.calls, 1, "no second layout for an edit that changes no edge");
    assert.equal(second.laidOut, false);
    assert.equal(second.version, 2);
    assert.equal(second.shapeKey, first.shapeKey);
    assert.equal(second.layout, first.layout);

    // a finding appears (a reference to a missing step in the prompt): decorations only
    const third = await answer(views, workflow({ prompt: "{{ steps.nope.output }}" }), 3);
    assert.equal(layouter.calls, 1);
    const review = third.graph.nodes.find((n) => n.id === "review")!;
    assert.ok(review.findings.errors > 0, JSON.stringify(review.findings));
    assert.ok(review.findings.messages.some((m) => m.includes("nope")), review.findings.messages.join("\n"));

    // a new needs entry: a new edge, a new layout
    const fourth = await answer(views, workflow({ needs: ["fetch"] }), 4);
    assert.equal(layouter.calls, 2);
    assert.equal(fourth.laidOut, true);
    assert.notEqual(fourth.shapeKey, first.shapeKey);
    assert.ok(fourth.graph.edges.some((e) => e.from === "fetch" && e.to === "review" && e.kind === "needs"));
    assert.equal(views.layouts, 2);
  });

  test("layouts are kept per document, and forgotten on close", async () => {
    const layouter = counting();
    const views = new GraphViews(layouter);
    await answer(views, workflow(), 1, "file:///a.lwir.json");
    await answer(views, workflow(), 1, "file:///b.lwir.json");
    assert.equal(layouter.calls, 2);
    await answer(views, workflow({ prompt: "p" }), 2, "file:///a.lwir.json");
    assert.equal(layouter.calls, 2);
    views.forget("file:///a.lwir.json");
    await answer(views, workflow({ prompt: "p" }), 3, "file:///a.lwir.json");
    assert.equal(layouter.calls, 3);
  });

  test("while the document does not parse: the last good graph, marked, with the syntax error", async () => {
    const views = new GraphViews();
    const good = await answer(views, workflow(), 1);
    const broken = await answer(views, workflow().replace('"fetch",', '"fetch" "x",'), 2);
    assert.equal(broken.parseOk, false);
    assert.equal(broken.version, 2);
    assert.ok(broken.error && broken.error.message.length > 0, JSON.stringify(broken.error));
    assert.ok(broken.error!.range.start.line > 0);
    assert.deepEqual(broken.graph, good.graph);
    assert.equal(broken.laidOut, false);
    // never parsed: an empty graph, still an answer
    const fresh = await answer(new GraphViews(), "{", 1);
    assert.equal(fresh.parseOk, false);
    assert.deepEqual(fresh.graph.nodes, []);
    // YAML too
    const yaml = await answer(new GraphViews(), "steps: [\n", 1);
    assert.equal(yaml.parseOk, false);
  });

  test("nodes carry their step's range; selections are the id values", async () => {
    const text = workflow();
    const result = await answer(new GraphViews(), text, 1);
    const lines = text.split("\n");
    const review = result.graph.nodes.find((n) => n.id === "review")!;
    assert.ok(review.range);
    assert.equal(lines[review.range!.start.line].trim(), "{");
    const sel = result.selections.review;
    assert.equal(lines[sel.start.line].slice(sel.start.character, sel.end.character), '"review"');
    assert.equal(lines[result.selections["fan.one"].start.line].slice(result.selections["fan.one"].start.character, result.selections["fan.one"].end.character), '"one"');
    // the cursor inside the body step is on "fan.one", not on "fan"
    assert.equal(stepAt(result.graph, { line: sel.start.line, character: sel.start.character + 1 }), "review");
    const one = result.selections["fan.one"];
    assert.equal(stepAt(result.graph, { line: one.start.line, character: one.start.character + 2 }), "fan.one");
    assert.equal(stepAt(result.graph, { line: 0, character: 0 }), undefined);
  });

  test("Mermaid: \"Copy as Mermaid\" is lwir graph's renderer on the answered graph, also for the last good graph while broken", async () => {
    const text = workflow({ needs: ["ghost"] });
    const views = new GraphViews();
    const result = await answer(views, text, 1, URI, { mermaid: true });
    assert.match(result.mermaid!, /^flowchart TD\n/);
    assert.equal(result.mermaid, toMermaid(result.graph));
    const broken = await answer(views, text.slice(0, -3), 2, URI, { mermaid: true });
    assert.equal(broken.parseOk, false);
    assert.equal(broken.mermaid, result.mermaid);
    assert.equal((await answer(views, text, 3)).mermaid, undefined, "only when asked");
  });

  test("hashKey is short and tells keys apart", async () => {
    assert.notEqual(hashKey("a"), hashKey("b"));
    assert.equal(hashKey("abc"), hashKey("abc"));
    assert.match(hashKey("x".repeat(100000)), /^[0-9a-f]{8}-[0-9a-f]+$/);
  });
});

describe("the webview's drawing (webview/graph/view.ts)", () => {
  const result = drawn(workflow({ needs: ["ghost"], prompt: "{{ steps.nope.output }}" }));
  const data: GraphData = { graph: result.graph, layout: result.layout };

  test("every node and edge of the model is drawn, with its kind", () => {
    const tree = drawGraph(data);
    const nodes = find(tree, (n) => n.attrs["data-id"] !== undefined);
    assert.deepEqual(nodes.map((n) => n.attrs["data-id"]).sort(), result.graph.nodes.map((n) => n.id).sort());
    const edges = find(tree, (n) => hasClass(n, "edge"));
    assert.equal(edges.length, result.graph.edges.length);
    const fan = nodes.find((n) => n.attrs["data-id"] === "fan")!;
    assert.ok(hasClass(fan, "container"), "a parallel step is a group box");
    assert.ok(textsOf(fan).some((t) => t === "fan-out: each {{ input.items }}"), textsOf(fan).join("|"));
    assert.ok(textsOf(fan).some((t) => t === "by {{ item.id }}"), textsOf(fan).join("|"));
    assert.match(find(fan, (n) => n.tag === "title")[0].text!, /fan-out: each \{\{ input\.items \}\} by \{\{ item\.id \}\}\nfan-in: input · array/);
    assert.ok(textsOf(fan).some((t) => t === "fan-in: input · array"), textsOf(fan).join("|"));
    const back = edges.filter((e) => hasClass(e, "back"));
    assert.deepEqual(back.map((e) => [e.attrs["data-from"], e.attrs["data-to"]]), [["decide", "review"]]);
    assert.ok(hasClass(back[0], "default"), "the loop is the decision's default");
    assert.equal(find(back[0], (n) => n.tag === "path")[0].attrs["marker-end"], "url(#arrow-loop)");
    // one look per kind of edge
    const look = (e: VNode) => `${e.attrs["data-from"]}->${e.attrs["data-to"]}:${e.attrs["data-look"]}`;
    assert.deepEqual(edges.map(look).sort(), ["[missing]ghost->review:dangling", "decide->[end]:case", "decide->review:loop", "fan->review:needs", "fetch->fan:needs", "review->decide:needs"]);
    const toEnd = edges.find((e) => hasClass(e, "end"))!;
    assert.deepEqual(textsOf(toEnd), ["review.lastOutput.ok"], "a case edge is labelled with its shortened when");
    const dangling = edges.filter((e) => hasClass(e, "dangling"));
    assert.deepEqual(dangling.map((e) => e.attrs["data-from"]), ["[missing]ghost"]);
    const missing = nodes.find((n) => n.attrs["data-id"] === "[missing]ghost")!;
    assert.ok(hasClass(missing, "missing"));
    const end = nodes.find((n) => n.attrs["data-id"] === "[end]")!;
    assert.deepEqual(textsOf(end), ["end"]);
  });

  test("an edge into a container runs from border to border; a container leaves room for its header above its body", () => {
    const tree = drawGraph(data);
    const edge = find(tree, (n) => hasClass(n, "edge") && n.attrs["data-from"] === "fetch" && n.attrs["data-to"] === "fan")[0];
    const d = String(find(edge, (n) => n.tag === "path")[0].attrs.d);
    const [x1, y1, x2, y2] = /^M([\d.-]+),([\d.-]+) L([\d.-]+),([\d.-]+)$/.exec(d)!.slice(1).map(Number);
    const group = find(find(tree, (n) => n.attrs["data-id"] === "fan")[0], (n) => n.tag === "rect" && hasClass(n, "group"))[0].attrs;
    const fetch = data.layout.nodes.find((n) => n.id === "fetch")!;
    const onBorder = (x: number, y: number, b: { x: number; y: number; width: number; height: number }) =>
      (Math.abs(x - b.x) < 0.2 || Math.abs(x - b.x - b.width) < 0.2 || Math.abs(y - b.y) < 0.2 || Math.abs(y - b.y - b.height) < 0.2)
      && x >= b.x - 0.2 && x <= b.x + b.width + 0.2 && y >= b.y - 0.2 && y <= b.y + b.height + 0.2;
    assert.ok(onBorder(x1, y1, fetch), `${d} starts on fetch's border ${JSON.stringify(fetch)}`);
    const box = { x: Number(group.x), y: Number(group.y), width: Number(group.width), height: Number(group.height) };
    assert.ok(onBorder(x2, y2, box), `${d} ends on the container's border ${JSON.stringify(box)}`);
    const one = data.layout.nodes.find((n) => n.id === "fan.one")!;
    assert.ok(one.y - box.y >= 40, `the body starts ${one.y - box.y} below the container's top`);
  });

  test("a step shows its type glyph, model, output mode, maxVisits badge, and findings (border, count, messages)", () => {
    const tree = drawGraph(data);
    const review = find(tree, (n) => n.attrs["data-id"] === "review")[0];
    const texts = textsOf(review);
    assert.equal(texts[0], "✦ review");
    assert.equal(texts[1], "ai.generate · gpt");
    assert.equal(texts[2], "json");
    assert.ok(find(review, (n) => hasClass(n, "visits")).length === 1 && texts.includes("↻3"));
    assert.ok(hasClass(review, "errors"));
    const badge = find(review, (n) => hasClass(n, "badge"))[0];
    assert.equal(textsOf(badge)[0], String(result.graph.nodes.find((n) => n.id === "review")!.findings.errors));
    const title = find(review, (n) => n.tag === "title")[0].text!;
    assert.match(title, /nope/);
    const fetch = find(tree, (n) => n.attrs["data-id"] === "fetch")[0];
    assert.ok(!hasClass(fetch, "errors"));
    assert.equal(find(fetch, (n) => hasClass(n, "badge")).length, 0);
  });

  test("the selected step and search matches are marked", () => {
    const tree = drawGraph(data, { selected: "decide", matches: new Set(["fetch", "fan"]) });
    const marked = (c: string) => find(tree, (n) => hasClass(n, c)).map((n) => n.attrs["data-id"]).sort();
    assert.deepEqual(marked("selected"), ["decide"]);
    assert.deepEqual(marked("match"), ["fan", "fetch"]);
  });

  test("node text is what layout.ts sized the boxes by", () => {
    for (const c of corpusCases(REALWORLD).filter((c) => c.file.endsWith(".json"))) {
      const result = drawn(readFileSync(c.file, "utf8"));
      for (const n of result.graph.nodes) assert.deepEqual(nodeText(n), nodeLines(n), `${c.file}: ${n.id}`);
    }
  });

  test("serializing escapes document text; a standalone SVG is one well-formed element with its own colours", () => {
    assert.equal(escapeXml(`<a href="x">&'</a>`), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    assert.equal(serialize({ tag: "text", attrs: { "data-id": 'a"<b' }, text: "</text><script>" }), '<text data-id="a&quot;&lt;b">&lt;/text&gt;&lt;script&gt;</text>');
    const svg = standaloneSvg(data);
    assert.match(svg, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.doesNotMatch(svg, /<script/);
    assert.match(svg, /var\(--vscode-editor-background, #ffffff\)/, "VS Code's variables carry fallbacks");
    // tags balance
    const stack: string[] = [];
    for (const m of svg.replace(/^<\?xml[^>]*>/, "").matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
      if (m[3] === "/") continue;
      if (m[1] === "/") assert.equal(stack.pop(), m[2]);
      else stack.push(m[2]);
    }
    assert.deepEqual(stack, []);
  });

  test("edge paths start and end at the layout's points; back edges with two points bend", () => {
    assert.equal(edgePath([{ x: 0, y: 0 }, { x: 0, y: 100 }]), "M0,0 L0,100");
    assert.match(edgePath([{ x: 0, y: 100 }, { x: 0, y: 0 }], true), /^M0,100 C33.3,100 33.3,0 0,0$/);
    const d = edgePath([{ x: 0, y: 0 }, { x: 10, y: 50 }, { x: 0, y: 100 }]);
    assert.match(d, /^M0,0 C.* 10,50 C.* 0,100$/);
  });

  test("search: exact id first, then prefix, then substring; case-insensitive; made-up nodes last", () => {
    const graph: WorkflowGraph = {
      nodes: ["reviewer", "preview", "review", "[missing]review"].map((id) => ({
        id, kind: id.startsWith("[") ? "missing" as const : "step" as const, label: id.replace("[missing]", ""), scope: "", findings: { errors: 0, warnings: 0, messages: [] },
      })),
      edges: [], findings: { errors: 0, warnings: 0, messages: [] },
    };
    assert.deepEqual(searchNodes(graph, "REVIEW"), ["review", "reviewer", "preview", "[missing]review"]);
    assert.deepEqual(searchNodes(graph, "  "), []);
    assert.deepEqual(searchNodes(graph, "zzz"), []);
    assert.deepEqual(searchNodes(data.graph, "one"), ["fan.one"]);
    // what is drawn on a node, not its parallel step's prefix: "fan" is not found in "fan.one" (drawn "one")
    assert.deepEqual(searchNodes(data.graph, "fan"), ["fan"]);
  });

  test("each edge look differs from the others in its dash pattern or arrowhead, not only in colour; the legend lists them all", () => {
    const rule = (selector: string) => GRAPH_STYLE.split("\n").filter((l) => l.split("{")[0].split(",").some((s) => s.trim() === selector)).join(" ");
    const dash = (look: string) => /stroke-dasharray:\s*([^;]+);/.exec(rule(`.lwir-graph .look-${look} path`))?.[1].trim() ?? "none";
    const width = (look: string) => /stroke-width:\s*([^;]+);/.exec(rule(`.lwir-graph .look-${look} path`))?.[1].trim() ?? "1.5";
    const tree = drawGraph(data);
    const head = (look: string) => {
      const marker = find(tree, (n) => n.tag === "marker" && n.attrs.id === `arrow-${look}`)[0];
      const filled = !/fill:\s*none/.test(rule(`.lwir-graph marker.look-${look} path`));
      return `${find(marker, (n) => n.tag === "path")[0].attrs.d}|${filled}`;
    };
    const looks = EDGE_LOOKS.map((l) => l.look);
    assert.deepEqual(looks, ["needs", "case", "default", "loop", "dangling"]);
    const shapes = looks.map((l) => `${dash(l)}|${width(l)}|${head(l)}`);
    assert.equal(new Set(shapes).size, looks.length, shapes.join("\n"));
    // needs and a decision case differ in their arrowhead and width, not only in colour
    assert.notEqual(head("needs"), head("case"));
  });

  test("a parallel step's lines are drawn whole inside its box; the fan-in sits inside, clear of the border and the error badge", () => {
    const long = JSON.parse(workflow()) as { steps: Array<Record<string, unknown>> };
    const fan = long.steps[1] as { with: Record<string, unknown>; steps: Array<Record<string, unknown>> };
    fan.with.items = "{{ steps.fetch.output.companies_of_the_index }}";
    fan.with.fanIn = { order: "completion", output: "array", outputStep: "write-company-report" };
    fan.with.maxConcurrency = 0; // a finding on the parallel step itself: its error badge
    fan.steps = [{ id: "write-company-report", uses: "ai.generate", output: { mode: "text" }, with: { model: "gpt", prompt: "{{ nope }}" } }];
    const result = drawn(JSON.stringify(long, null, 2));
    const tree = drawGraph({ graph: result.graph, layout: result.layout });
    const g = find(tree, (n) => n.attrs["data-id"] === "fan")[0];
    const box = find(g, (n) => n.tag === "rect" && hasClass(n, "group"))[0].attrs;
    const [bx, by, bw, bh] = [box.x, box.y, box.width, box.height].map(Number);
    const texts = find(g, (n) => n.tag === "text" && !find(g, (b) => hasClass(b, "badge")).some((b) => find(b, (t) => t === n).length > 0));
    assert.deepEqual(texts.map((t) => t.text), [
      "∥ fan · parallel · array",
      "fan-out: each {{ steps.fetch.output.companies_of_the_index }}",
      "by {{ item.id }}",
      "fan-in: completion · array ← write-company-report",
    ]);
    for (const t of texts) {
      const right = Number(t.attrs.x) + Array.from(t.text!).length * CHAR_WIDTH;
      assert.ok(right <= bx + bw, `"${t.text}" ends at ${right}, the box at ${bx + bw}`);
      assert.ok(Number(t.attrs.y) - LINE_HEIGHT / 2 >= by && Number(t.attrs.y) + LINE_HEIGHT / 2 <= by + bh - 4, `"${t.text}" at y ${t.attrs.y} is inside ${by}..${by + bh}, off the bottom border`);
    }
    const fanIn = texts[3];
    const badge = find(find(g, (n) => hasClass(n, "badge"))[0] ?? { tag: "none", attrs: {} }, (n) => n.tag === "circle")[0];
    assert.ok(badge, "the parallel step has an error badge");
    const fanInTop = Number(fanIn.attrs.y) - LINE_HEIGHT / 2;
    assert.ok(Number(badge.attrs.cy) + Number(badge.attrs.r) < fanInTop, `the error badge (${JSON.stringify(badge.attrs)}) is clear of the fan-in at ${fanInTop}`);
    // the fan-in is below the body
    for (const n of result.layout.nodes.filter((n) => n.id.startsWith("fan."))) assert.ok(Number(fanIn.attrs.y) - LINE_HEIGHT / 2 >= n.y + n.height, `the fan-in overlaps ${n.id}`);
    // a body step's glyph and id fit its box
    const body = find(tree, (n) => n.attrs["data-id"] === "fan.write-company-report")[0];
    const bodyBox = result.layout.nodes.find((n) => n.id === "fan.write-company-report")!;
    const idText = textsOf(body)[0]!;
    assert.equal(idText, "✦ write-company-report");
    assert.ok(10 + (Array.from(idText).length + 1) * CHAR_WIDTH <= bodyBox.width, `"${idText}" is wider than its box (${bodyBox.width})`);
  });

  test("keyboard: Tab in document order (wrapping), arrows along edges and along the row", () => {
    const ids = data.graph.nodes.map((n) => n.id);
    assert.equal(navigate(data, undefined, "Tab"), ids[0]);
    assert.equal(navigate(data, undefined, "ShiftTab"), ids[ids.length - 1]);
    let at: string | undefined;
    const order: string[] = [];
    for (let i = 0; i < ids.length; i++) order.push((at = navigate(data, at, "Tab"))!);
    assert.deepEqual(order, ids);
    assert.equal(navigate(data, ids[ids.length - 1], "Tab"), ids[0]);
    assert.equal(navigate(data, ids[0], "ShiftTab"), ids[ids.length - 1]);
    // ArrowDown follows the first forward edge: decide → [end] (its default back to review is a loop)
    assert.equal(navigate(data, "decide", "ArrowDown"), "[end]");
    assert.equal(navigate(data, "fetch", "ArrowDown"), "fan");
    assert.equal(navigate(data, "fan", "ArrowDown"), "review");
    assert.equal(navigate(data, "review", "ArrowUp"), "fan");
    assert.equal(navigate(data, "fan.one", "ArrowUp"), "fan", "a body step goes up to its container");
    assert.equal(navigate(data, "fetch", "ArrowUp"), "fetch", "nowhere to go: stays");
    // left and right move along a row of the layout, and back
    const box = (id: string) => data.layout.nodes.find((n) => n.id === id)!;
    let moved = 0;
    for (const n of data.graph.nodes.filter((g) => !g.container)) {
      for (const [key, back] of [["ArrowRight", "ArrowLeft"], ["ArrowLeft", "ArrowRight"]] as const) {
        const to = navigate(data, n.id, key)!;
        if (to === n.id) continue;
        moved++;
        const [a, b] = [box(n.id), box(to)];
        assert.ok(key === "ArrowRight" ? b.x > a.x : b.x < a.x, `${n.id} ${key} → ${to}`);
        assert.ok(b.y <= a.y + a.height / 2 && a.y + a.height / 2 <= b.y + b.height, `${n.id} and ${to} share a row`);
        assert.equal(navigate(data, to, back), n.id);
      }
    }
    assert.ok(moved > 0, "some node has a neighbour on its row");
    assert.equal(navigate({ graph: { nodes: [], edges: [], findings: data.graph.findings }, layout: data.layout }, undefined, "Tab"), undefined);
  });
});

test("the webview and panel sources use no eval, no remote resources, and a nonce CSP", () => {
  const main = readFileSync(join("webview", "graph", "main.ts"), "utf8");
  const view = readFileSync(join("webview", "graph", "view.ts"), "utf8");
  const panel = readFileSync(join("client", "src", "graphPanel.ts"), "utf8");
  for (const [name, text] of [["main", main], ["view", view], ["panel", panel]]) {
    assert.doesNotMatch(text, /\beval\(|new Function|innerHTML|https?:\/\/(?!www\.w3\.org\/2000\/svg)/, name);
  }
  assert.match(panel, /default-src 'none'/);
  assert.match(panel, /script-src 'nonce-\$\{nonce\}'/);
  assert.match(panel, /style-src \$\{webview\.cspSource\} 'nonce-\$\{nonce\}'/);
  assert.match(panel, /localResourceRoots: \[vscode\.Uri\.joinPath\(this\.context\.extensionUri, "dist", "webview"\)\]/);
});
