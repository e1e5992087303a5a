// The graph view's drawing, DOM-free: the server's graph and layout → a tree of SVG elements (`VNode`),
// which main.ts turns into DOM and "Save as SVG" serializes; plus search, keyboard navigation order and
// the step at a cursor. Pure functions of plain data, so unit tests run them in Node and the extension
// (cursor → step) shares them with the webview.
import type { GraphEdge, GraphNode, WorkflowGraph } from "../../server/src/graph/model";
import type { GraphLayout, LayoutNode, Point } from "../../server/src/graph/layout";
import {
  CASE_ROW_HEIGHT, CASE_ROWS_BOTTOM, NODE_MAX_CHARS, caseRows, clipText, containerLines, edgeLook, fanInText, fanOutText, nodeLines, type EdgeLook,
} from "../../server/src/graph/labels";

export { edgeLook, type EdgeLook };

export interface VNode {
  tag: string;
  attrs: Record<string, string | number>;
  children?: VNode[];
  /** Text content (escaped when serialized). */
  text?: string;
}

export interface GraphData {
  graph: WorkflowGraph;
  layout: GraphLayout;
}

/**
 * The CSS of a drawing: colours derived from VS Code's theme variables (fallbacks so a saved SVG has
 * colours of its own). Every colour that marks something is mixed towards the editor's foreground, so it
 * keeps its contrast with the background in light, dark and high-contrast themes alike (WCAG AA: text
 * 4.5:1, lines and marks 3:1; the code-server e2e test measures it). Each edge kind has its own stroke,
 * dash pattern and arrowhead, not only its own colour (edgeLook; the legend shows them).
 */
// (An array of one-line strings, so the minified bundle stays a few long lines.)
export const GRAPH_STYLE = [
  ".lwir-graph { --lwir-fg: var(--vscode-editor-foreground, var(--vscode-foreground, #1f1f1f)); --lwir-bg: var(--vscode-editor-background, #ffffff);" +
    " --lwir-box: var(--vscode-editorWidget-background, #f3f3f3); --lwir-sub: color-mix(in srgb, var(--lwir-fg) 82%, var(--lwir-box));" +
    " --lwir-muted: color-mix(in srgb, var(--lwir-fg) 75%, var(--lwir-bg)); --lwir-route: color-mix(in srgb, var(--vscode-textLink-foreground, #005fb8) 80%, var(--lwir-fg));" +
    " --lwir-loop: color-mix(in srgb, var(--vscode-charts-orange, #d18616) 45%, var(--lwir-fg)); --lwir-error: color-mix(in srgb, var(--vscode-errorForeground, #e51400) 70%, var(--lwir-fg));" +
    " --lwir-parallel: color-mix(in srgb, var(--vscode-charts-purple, #a04fc8) 70%, var(--lwir-fg)); --lwir-focus: color-mix(in srgb, var(--vscode-focusBorder, #0078d4) 80%, var(--lwir-fg));" +
    " --lwir-match: color-mix(in srgb, var(--vscode-charts-yellow, #b89500) 55%, var(--lwir-fg)); }",
  ".lwir-graph { font: 12px var(--vscode-editor-font-family, ui-monospace, Menlo, Consolas, monospace); }",
  ".lwir-graph .bg { fill: var(--lwir-bg); }",
  ".lwir-graph text { fill: var(--lwir-fg); dominant-baseline: middle; }",
  ".lwir-graph .sub { fill: var(--lwir-sub); }",
  ".lwir-graph .node rect.box { fill: var(--lwir-box); stroke: var(--lwir-muted); stroke-width: 1; }",
  ".lwir-graph .node:focus { outline: none; }",
  ".lwir-graph .node:focus rect.box, .lwir-graph .node.focused rect.box { stroke: var(--lwir-focus); stroke-width: 2; }",
  ".lwir-graph .node.selected rect.box { stroke: var(--lwir-focus); stroke-width: 3; }",
  ".lwir-graph .node.match rect.box { stroke: var(--lwir-match); stroke-width: 3; }",
  ".lwir-graph .node.errors rect.box { stroke: var(--lwir-error); stroke-width: 2; }",
  ".lwir-graph .node.missing rect.box { stroke: var(--lwir-error); stroke-dasharray: 5 3; fill: var(--lwir-bg); }",
  ".lwir-graph .node.end rect.box { fill: var(--lwir-fg); stroke: none; }",
  ".lwir-graph .node.end text { fill: var(--lwir-bg); }",
  ".lwir-graph .stripe { fill: color-mix(in srgb, var(--vscode-charts-blue, #1a85ff) 70%, var(--lwir-fg)); }",
  ".lwir-graph .uses-decision .stripe { fill: var(--lwir-loop); }",
  ".lwir-graph .uses-parallel .stripe { fill: var(--lwir-parallel); }",
  ".lwir-graph .uses-tool-call .stripe { fill: color-mix(in srgb, var(--vscode-charts-green, #388a34) 70%, var(--lwir-fg)); }",
  ".lwir-graph .uses-code-run .stripe { fill: color-mix(in srgb, var(--vscode-charts-yellow, #b89500) 55%, var(--lwir-fg)); }",
  ".lwir-graph .case-divider { stroke: var(--lwir-muted); stroke-width: 1; stroke-dasharray: 2 2; }",
  ".lwir-graph .case-row rect.row { fill: transparent; stroke: none; }",
  ".lwir-graph .case-row.case rect.row { fill: color-mix(in srgb, var(--lwir-route) 8%, var(--lwir-box)); }",
  ".lwir-graph .case-row.default text, .lwir-graph .case-row.more text { font-style: italic; }",
  ".lwir-graph .badge circle { fill: var(--lwir-error); }",
  ".lwir-graph .badge text { fill: var(--lwir-bg); font-size: 10px; font-weight: bold; text-anchor: middle; }",
  ".lwir-graph .visits rect { fill: var(--lwir-muted); }",
  ".lwir-graph .visits text { fill: var(--lwir-bg); font-size: 10px; font-weight: bold; text-anchor: middle; }",
  ".lwir-graph .container > rect.group { fill: color-mix(in srgb, var(--lwir-parallel) 7%, var(--lwir-bg)); stroke: var(--lwir-parallel); stroke-width: 1.5; stroke-dasharray: 6 3; }",
  ".lwir-graph .container > line.divider { stroke: var(--lwir-parallel); stroke-width: 1; stroke-dasharray: 2 3; }",
  ".lwir-graph .container.errors > rect.group { stroke: var(--lwir-error); stroke-width: 2; stroke-dasharray: none; }",
  ".lwir-graph .container.selected > rect.group { stroke: var(--lwir-focus); stroke-width: 3; }",
  ".lwir-graph .container:focus > rect.group, .lwir-graph .container.focused > rect.group { stroke: var(--lwir-focus); stroke-width: 2; }",
  ".lwir-graph .container.match > rect.group { stroke: var(--lwir-match); stroke-width: 3; stroke-dasharray: none; }",
  ".lwir-graph .fan text { fill: var(--lwir-fg); }",
  ".lwir-graph .edge path { fill: none; stroke-width: 1.5; }",
  ".lwir-graph .look-needs path { stroke: var(--lwir-muted); }",
  ".lwir-graph .look-case path { stroke: var(--lwir-route); stroke-width: 2; }",
  ".lwir-graph .look-default path { stroke: var(--lwir-route); stroke-width: 2; stroke-dasharray: 7 4; }",
  ".lwir-graph .look-loop path { stroke: var(--lwir-loop); stroke-width: 2; stroke-dasharray: 9 3 2 3; }",
  ".lwir-graph .look-dangling path { stroke: var(--lwir-error); stroke-dasharray: 2 3; }",
  ".lwir-graph .edge .label rect { fill: var(--lwir-bg); stroke-width: 1; }",
  ".lwir-graph .look-case .label rect, .lwir-graph .look-default .label rect { stroke: var(--lwir-route); }",
  ".lwir-graph .look-loop .label rect { stroke: var(--lwir-loop); }",
  ".lwir-graph .look-dangling .label rect { stroke: var(--lwir-error); }",
  ".lwir-graph .edge .label text { font-size: 11px; text-anchor: middle; fill: var(--lwir-fg); }",
  ".lwir-graph marker path { stroke-linejoin: round; }",
  ".lwir-graph marker.look-needs path { fill: none; stroke: var(--lwir-muted); stroke-width: 1.6; }",
  ".lwir-graph marker.look-case path, .lwir-graph marker.look-default path { fill: var(--lwir-route); stroke: none; }",
  ".lwir-graph marker.look-loop path { fill: var(--lwir-loop); stroke: none; }",
  ".lwir-graph marker.look-dangling path { fill: none; stroke: var(--lwir-error); stroke-width: 2; }",
].join("\n");


export const EDGE_LOOKS: ReadonlyArray<{ look: EdgeLook; label: string; title: string }> = [
  { look: "needs", label: "needs", title: "needs: the step runs after the step it needs (open arrowhead, thin solid line)" },
  { look: "case", label: "case", title: "a decision case: routes there when its condition (the label) holds (solid line, filled arrowhead)" },
  { look: "default", label: "default", title: "a decision's default route (dashed line, filled arrowhead)" },
  { look: "loop", label: "loop back", title: "a route back to an earlier step: a loop, bounded by maxVisits (dash-dot curve)" },
  { look: "dangling", label: "no such step", title: "a needs entry or target that names no step (dotted line ending in a cross)" },
];


const LINE_HEIGHT = 16;

/** A glyph per step type (text, so no icon font is needed). */
export function usesGlyph(uses: string | undefined): string {
  switch (uses) {
    case "ai.generate": return "✦";
    case "tool.call": return "⚙";
    case "code.run": return "λ";
    case "decision": return "◆";
    case "parallel": return "∥";
    case undefined: return "?";
    default: return "•";
  }
}

/** Cut at `max` code points with "…" (as layout.ts sizes nodes). */
export function clip(text: string, max = NODE_MAX_CHARS): string {
  return clipText(text, max);
}

/** The lines of a node, as labels.ts gives them to the layout that sized the box; `visits` false: maxVisits left to the badge. */
export function nodeText(node: GraphNode, visits = true): string[] {
  return nodeLines(node, visits);
}

function el(tag: string, attrs: Record<string, string | number> = {}, children?: VNode[], text?: string): VNode {
  const node: VNode = { tag, attrs };
  if (children) node.children = children;
  if (text !== undefined) node.text = text;
  return node;
}

function usesClass(uses: string | undefined): string {
  return uses ? `uses-${uses.replace(/[^A-Za-z0-9]+/g, "-")}` : "uses-none";
}

/** What decorates the drawing besides the data: the selected node (editor cursor) and search matches. */
export interface DrawState {
  selected?: string;
  matches?: ReadonlySet<string>;
}

/** The hover text of a node: id, type and the messages of its findings. */
export function nodeTitle(node: GraphNode): string {
  const head = node.kind === "missing" ? `${node.label}: names no step` : node.kind === "end" ? "end" : `${node.label} (${node.uses ?? "no uses"})`;
  const problem = node.problem === "duplicateId" ? ["a second step with this id"] : node.problem === "invalidId" ? ["the step has no valid id"] : [];
  const fan = node.container ? [fanOutText(node), fanInText(node)] : [];
  return [head, ...fan, ...problem, ...node.findings.messages].join("\n");
}

/**
 * The drawing: containers (behind), then edges, then nodes. Every node is a `<g class="node" data-id>`
 * focusable by keyboard; ids of the document only ever appear in attribute values and text.
 */
export function drawGraph(data: GraphData, state: DrawState = {}): VNode {
  const { graph, layout } = data;
  const boxes = new Map<string, LayoutNode>();
  layout.nodes.forEach((n) => boxes.set(n.id, n));
  const containers: VNode[] = [];
  const nodes: VNode[] = [];
  for (const node of graph.nodes) {
    const box = boxes.get(node.id);
    if (!box) continue;
    const classes = [node.container ? "container" : "node", node.kind, usesClass(node.uses)];
    if (node.findings.errors > 0 || node.problem) classes.push("errors");
    if (state.selected === node.id) classes.push("selected");
    if (state.matches?.has(node.id)) classes.push("match");
    // a decision holding its case list is a group (a button's content is flattened for screen readers: the rows would be lost)
    const role = node.container || caseRows(node).length === 0 ? "button" : "group";
    const attrs = { class: classes.join(" "), "data-id": node.id, tabindex: -1, role, "aria-label": nodeTitle(node).split("\n")[0] };
    if (node.container) containers.push(el("g", attrs, drawContainer(node, containerBox(node, box, graph, boxes))));
    else nodes.push(el("g", attrs, drawNode(node, box)));
  }
  const edges: VNode[] = [];
  const isContainer = new Set(graph.nodes.filter((n) => n.container).map((n) => n.id));
  graph.edges.forEach((edge, i) => {
    const laid = layout.edges[i];
    if (!laid) return;
    // The layout does not route edges into a container (a parallel step's own needs): a straight line
    // between the two boxes' borders instead of their centres.
    const from = boxes.get(edge.from);
    const to = boxes.get(edge.to);
    if ((isContainer.has(edge.from) || isContainer.has(edge.to)) && from && to) {
      const a = isContainer.has(edge.from) ? containerBox(graph.nodes.find((n) => n.id === edge.from)!, from, graph, boxes) : from;
      const b = isContainer.has(edge.to) ? containerBox(graph.nodes.find((n) => n.id === edge.to)!, to, graph, boxes) : to;
      const points = borderLine(a, b);
      edges.push(drawEdge(edge, points, edge.label ? { x: (points[0].x + points[1].x) / 2, y: (points[0].y + points[1].y) / 2 } : undefined));
    } else {
      edges.push(drawEdge(edge, laid.points, laid.labelAt));
    }
  });
  const defs = el("defs", {}, markers());
  return el("g", { class: "lwir-graph" }, [defs, el("g", { class: "containers" }, containers), el("g", { class: "edges" }, edges), el("g", { class: "nodes" }, nodes)]);
}

/** The arrowheads, one per edge look; `prefix` keeps the legend's ids apart from the drawing's. */
export function markers(prefix = ""): VNode[] {
  return EDGE_LOOKS.map(({ look }) => {
    const d = look === "needs" ? "M1,1 L9,5 L1,9" : look === "dangling" ? "M2,2 L8,8 M8,2 L2,8" : "M0,0 L10,5 L0,10 z";
    const refX = look === "dangling" ? 5 : 9;
    return el("marker", { id: `${prefix}arrow-${look}`, class: `look-${look}`, viewBox: "0 0 10 10", refX, refY: 5, markerWidth: 7, markerHeight: 7, markerUnits: "strokeWidth", orient: "auto-start-reverse" }, [
      el("path", { d }),
    ]);
  });
}

/** A legend entry's sample: a short edge of that look, as the drawing draws it. */
export function legendSample(look: EdgeLook): VNode {
  const path = "M2,7 L34,7";
  return el("svg", { class: "lwir-graph sample", width: 44, height: 14, viewBox: "0 0 44 14", "aria-hidden": "true" }, [
    el("defs", {}, markers(`legend-${look}-`).filter((m) => m.attrs.id === `legend-${look}-arrow-${look}`)),
    el("g", { class: `edge look-${look}` }, [el("path", { d: path, "marker-end": `url(#legend-${look}-arrow-${look})` })]),
  ]);
}

function drawNode(node: GraphNode, box: LayoutNode): VNode[] {
  const { x, y, width, height } = box;
  const out: VNode[] = [el("title", {}, undefined, nodeTitle(node))];
  const round = node.kind === "end" ? height / 2 : 6;
  out.push(el("rect", { class: "box", x, y, width, height, rx: round, ry: round }));
  if (node.kind === "step") out.push(el("rect", { class: "stripe", x: x + 1, y: y + 4, width: 3, height: height - 8, rx: 1.5 }));
  const lines = nodeText(node, false);
  const top = y + 6 + LINE_HEIGHT / 2;
  lines.forEach((line, k) => {
    if (line === "") return;
    if (node.kind === "end") {
      out.push(el("text", { x: x + width / 2, y: y + height / 2, "text-anchor": "middle" }, undefined, line));
    } else {
      const text = k === 0 && node.kind === "step" ? `${usesGlyph(node.uses)} ${line}` : line;
      out.push(el("text", { x: x + 10, y: top + k * LINE_HEIGHT, class: k === 0 ? "id" : "sub" }, undefined, text));
    }
  });
  const rows = caseRows(node);
  if (rows.length > 0) out.push(...drawCaseRows(node, rows, box));
  if (node.maxVisits !== undefined && node.maxVisits !== 1) out.push(visitsBadge(node.maxVisits, x + width, y));
  if (node.findings.errors > 0) out.push(errorBadge(node.findings.errors, x + width, y + height));
  return out;
}

/**
 * A decision's case list, at the bottom of its box (layout.ts sized the box for it): a divider, then one
 * row per case in text order, each focusable with its whole `when` as tooltip and accessible name, the
 * case rows (`data-case`: the index in `with.cases`) draggable to reorder (editing.ts); "+N more" and the
 * default last, not draggable.
 */
export function drawCaseRows(node: GraphNode, rows: ReturnType<typeof caseRows>, box: LayoutNode): VNode[] {
  const { x, y, width, height } = box;
  const top = y + height - rows.length * CASE_ROW_HEIGHT - CASE_ROWS_BOTTOM;
  const items = rows.map((row, i) => {
    const ry = top + i * CASE_ROW_HEIGHT;
    const attrs: Record<string, string | number> = { class: `case-row ${row.kind}`, role: "listitem", "aria-label": row.title };
    if (row.index !== undefined) {
      attrs["data-case"] = row.index;
      attrs.tabindex = -1;
      attrs["aria-roledescription"] = "case, draggable: Alt+Up or Alt+Down moves it";
    }
    return el("g", attrs, [
      el("title", {}, undefined, row.title),
      el("rect", { class: "row", x: x + 6, y: ry + 1, width: width - 12, height: CASE_ROW_HEIGHT - 2, rx: 3 }),
      el("text", { x: x + 12, y: ry + CASE_ROW_HEIGHT / 2, class: "sub" }, undefined, row.text),
    ]);
  });
  return [
    el("line", { class: "case-divider", x1: x + 8, y1: top - 2, x2: x + width - 8, y2: top - 2 }),
    el("g", { class: "cases", role: "list", "aria-label": `Cases of ${node.label}, in order` }, items),
  ];
}

function visitsBadge(maxVisits: number, right: number, top: number): VNode {
  const text = `↻${maxVisits}`;
  const w = Array.from(text).length * 6.5 + 8;
  return el("g", { class: "visits" }, [
    el("title", {}, undefined, `maxVisits: ${maxVisits}`),
    el("rect", { x: right - w + 4, y: top - 7, width: w, height: 14, rx: 7 }),
    el("text", { x: right - w / 2 + 4, y: top }, undefined, text),
  ]);
}

function errorBadge(errors: number, right: number, bottom: number): VNode {
  return el("g", { class: "badge" }, [
    el("circle", { cx: right - 2, cy: bottom - 2, r: 8 }),
    el("text", { x: right - 2, y: bottom - 2 }, undefined, errors > 99 ? "99+" : String(errors)),
  ]);
}

/** Room for a container's two header lines above its body: its box, grown upwards where the body starts too high. */
export function containerBox(node: GraphNode, box: LayoutNode, graph: WorkflowGraph, boxes: Map<string, LayoutNode>): LayoutNode {
  let top = Infinity;
  for (const n of graph.nodes) {
    if (n.parent !== node.id) continue;
    const b = boxes.get(n.id);
    if (b) top = Math.min(top, b.y);
  }
  if (top === Infinity) return box;
  const header = 3 * LINE_HEIGHT + 8;
  const grow = Math.max(0, header - (top - box.y));
  return grow === 0 ? box : { ...box, y: box.y - grow, height: box.height + grow };
}

/** The straight line between two boxes, from border to border (on the line between their centres). */
export function borderLine(a: LayoutNode, b: LayoutNode): Point[] {
  const ca = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
  const cb = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  const exit = (box: LayoutNode, from: Point, to: Point): Point => {
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    if (dx === 0 && dy === 0) return from;
    const t = Math.min(dx === 0 ? Infinity : box.width / 2 / Math.abs(dx), dy === 0 ? Infinity : box.height / 2 / Math.abs(dy));
    return { x: round(from.x + dx * Math.min(1, t)), y: round(from.y + dy * Math.min(1, t)) };
  };
  return [exit(a, ca, cb), exit(b, cb, ca)];
}

function drawContainer(node: GraphNode, box: LayoutNode): VNode[] {
  const { x, y, width, height } = box;
  const out: VNode[] = [el("title", {}, undefined, nodeTitle(node)), el("rect", { class: "group", x, y, width, height, rx: 8, ry: 8 })];
  // the layout sized the box to hold these lines whole (labels.ts); a box narrower than that (a saved
  // layout of an older version) still cuts them rather than drawing past its border
  const fit = Math.max(8, Math.floor((width - 20) / 7.2));
  const { title, fanOut, fanIn } = containerLines(node);
  out.push(el("text", { x: x + 8, y: y + 4 + LINE_HEIGHT / 2, class: "id" }, undefined, clip(title, fit)));
  out.push(el("g", { class: "fan fan-out" }, fanOut.map((line, i) => el("text", { x: x + 8, y: y + 4 + LINE_HEIGHT * (1.5 + i), class: "sub" }, undefined, clip(line, fit)))));
  // the fan-in on a line of its own inside the box, above its bottom border
  const footer = y + height - LINE_HEIGHT - 8;
  out.push(el("line", { class: "divider", x1: x + 8, y1: footer, x2: x + width - 8, y2: footer }));
  out.push(el("g", { class: "fan fan-in" }, [el("text", { x: x + 8, y: footer + 4 + LINE_HEIGHT / 2, class: "sub" }, undefined, clip(fanIn, fit))]));
  if (node.maxVisits !== undefined && node.maxVisits !== 1) out.push(visitsBadge(node.maxVisits, x + width, y));
  // the error count on the top border, right of the title (the bottom border has the fan-in under it)
  const visits = node.maxVisits !== undefined && node.maxVisits !== 1;
  if (node.findings.errors > 0) out.push(errorBadge(node.findings.errors, x + width - (visits ? 44 : 12), y + 2));
  return out;
}

/** A smooth path through the layout's points (Catmull-Rom as cubic Béziers); back edges bow outwards. */
export function edgePath(points: readonly Point[], back = false): string {
  if (points.length === 0) return "";
  const p = points.map((q) => ({ x: round(q.x), y: round(q.y) }));
  if (p.length === 2 && back) {
    // a loop drawn straight would hide under forward edges: bend it to the side
    const [a, b] = p;
    const bow = Math.max(30, Math.abs(b.y - a.y) / 3);
    return `M${a.x},${a.y} C${round(a.x + bow)},${a.y} ${round(b.x + bow)},${b.y} ${b.x},${b.y}`;
  }
  let d = `M${p[0].x},${p[0].y}`;
  if (p.length === 2) return `${d} L${p[1].x},${p[1].y}`;
  for (let i = 0; i < p.length - 1; i++) {
    const p0 = p[Math.max(0, i - 1)];
    const p1 = p[i];
    const p2 = p[i + 1];
    const p3 = p[Math.min(p.length - 1, i + 2)];
    const c1 = { x: round(p1.x + (p2.x - p0.x) / 6), y: round(p1.y + (p2.y - p0.y) / 6) };
    const c2 = { x: round(p2.x - (p3.x - p1.x) / 6), y: round(p2.y - (p3.y - p1.y) / 6) };
    d += ` C${c1.x},${c1.y} ${c2.x},${c2.y} ${p2.x},${p2.y}`;
  }
  return d;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function drawEdge(edge: GraphEdge, points: readonly Point[], labelAt: Point | undefined): VNode {
  const look = edgeLook(edge);
  const classes = ["edge", edge.kind, `look-${look}`];
  if (edge.back) classes.push("back");
  if (edge.dangling) classes.push("dangling");
  const children: VNode[] = [
    el("title", {}, undefined, edgeTitle(edge)),
    el("path", { d: edgePath(points, edge.back === true), "marker-end": `url(#arrow-${look})` }),
  ];
  if (edge.label && labelAt) {
    const w = Array.from(edge.label).length * 6.6 + 10;
    children.push(el("g", { class: "label" }, [
      el("rect", { x: round(labelAt.x - w / 2), y: round(labelAt.y - 8), width: round(w), height: 16, rx: 3 }),
      el("text", { x: round(labelAt.x), y: round(labelAt.y) }, undefined, edge.label),
    ]));
  }
  return el("g", { class: classes.join(" "), "data-from": edge.from, "data-to": edge.to, "data-look": look }, children);
}

function edgeTitle(edge: GraphEdge): string {
  const what = edge.kind === "needs" ? "needs" : edge.kind === "default" ? "default" : edge.kind === "end" ? `to end${edge.label ? ` (${edge.label})` : ""}` : `when ${edge.when ?? edge.label ?? ""}`;
  return `${edge.from} → ${edge.to}: ${what}${edge.back ? " (loop back)" : ""}${edge.dangling ? " (names no step)" : ""}`;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** XML text of a tree. */
export function serialize(node: VNode): string {
  const attrs = Object.entries(node.attrs).map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`).join("");
  const inner = (node.text !== undefined ? escapeXml(node.text) : "") + (node.children ?? []).map(serialize).join("");
  return `<${node.tag}${attrs}>${inner}</${node.tag}>`;
}

/** A standalone SVG file of the drawing (its own style, with the fallback colours: no VS Code variables outside VS Code). */
export function standaloneSvg(data: GraphData): string {
  const w = Math.ceil(data.layout.width) + 16;
  const h = Math.ceil(data.layout.height) + 16;
  const body = drawGraph(data);
  const svg = el("svg", { xmlns: "http://www.w3.org/2000/svg", width: w, height: h, viewBox: `-8 -8 ${w} ${h}` }, [
    el("style", {}, undefined, GRAPH_STYLE),
    el("g", { class: "lwir-graph" }, [el("rect", { class: "bg", x: -8, y: -8, width: w, height: h })]),
    body,
  ]);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(svg)}\n`;
}

/**
 * Nodes whose label (the name drawn on them: a step's own id, not its parallel step's prefix)
 * contains `query` (case-insensitive), exact matches first, then in the graph's order; made-up nodes
 * (end, missing) last. What is found is what the user can read on the node.
 */
export function searchNodes(graph: WorkflowGraph, query: string): string[] {
  const q = query.trim().toLowerCase();
  if (q === "") return [];
  const scored: Array<{ id: string; score: number; index: number }> = [];
  graph.nodes.forEach((n, index) => {
    const label = n.label.toLowerCase();
    if (!label.includes(q)) return;
    const score = (label === q ? 0 : label.startsWith(q) ? 1 : 2) + (n.kind === "step" ? 0 : 3);
    scored.push({ id: n.id, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((s) => s.id);
}

export type NavigationKey = "Tab" | "ShiftTab" | "ArrowDown" | "ArrowUp" | "ArrowLeft" | "ArrowRight" | "Home" | "End";

/**
 * Where keyboard focus goes from `current`: Tab / Shift+Tab through the nodes in document order;
 * ArrowDown to the first node `current` leads to (forward edges before loops back), ArrowUp to the
 * first that leads to it; ArrowLeft / ArrowRight to the neighbour on the same row of the layout. With
 * nothing focused, the first node. Stays put where there is nowhere to go.
 */
export function navigate(data: GraphData, current: string | undefined, key: NavigationKey): string | undefined {
  const { graph, layout } = data;
  const ids = graph.nodes.map((n) => n.id);
  if (ids.length === 0) return undefined;
  if (current === undefined || !ids.includes(current)) return key === "End" || key === "ShiftTab" ? ids[ids.length - 1] : ids[0];
  const i = ids.indexOf(current);
  switch (key) {
    case "Home": return ids[0];
    case "End": return ids[ids.length - 1];
    case "Tab": return ids[(i + 1) % ids.length];
    case "ShiftTab": return ids[(i - 1 + ids.length) % ids.length];
    case "ArrowDown": {
      const out = graph.edges.filter((e) => e.from === current);
      const next = out.find((e) => !e.back) ?? out[0];
      if (next) return next.to;
      // a container leads into its body
      const child = graph.nodes.find((n) => n.parent === current);
      return child?.id ?? current;
    }
    case "ArrowUp": {
      const into = graph.edges.filter((e) => e.to === current);
      const prev = into.find((e) => !e.back) ?? into[0];
      if (prev) return prev.from;
      return graph.nodes[i].parent ?? current;
    }
    case "ArrowLeft":
    case "ArrowRight": {
      const boxes = new Map(layout.nodes.map((n) => [n.id, n]));
      const me = boxes.get(current);
      if (!me) return current;
      const mid = me.y + me.height / 2;
      const row = layout.nodes
        .filter((n) => n.y <= mid && mid <= n.y + n.height && !graph.nodes[ids.indexOf(n.id)]?.container)
        .sort((a, b) => a.x - b.x);
      const k = row.findIndex((n) => n.id === current);
      if (k < 0) return current;
      const next = row[k + (key === "ArrowRight" ? 1 : -1)];
      return next?.id ?? current;
    }
  }
}

/** The innermost step node whose range contains the position (the cursor's step), if any. */
export function stepAt(graph: WorkflowGraph, position: { line: number; character: number }): string | undefined {
  let best: GraphNode | undefined;
  const before = (a: { line: number; character: number }, b: { line: number; character: number }) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  for (const n of graph.nodes) {
    const r = n.range;
    if (n.kind !== "step" || !r || !before(r.start, position) || !before(position, r.end)) continue;
    if (!best || (best.range && before(best.range.start, r.start) && before(r.end, best.range.end))) best = n;
  }
  return best?.id;
}

/** The view box that shows the whole drawing in a viewport of `width` × `height` (at most 1:1). */
export function fitTransform(layout: { width: number; height: number }, width: number, height: number): { x: number; y: number; k: number } {
  const margin = 16;
  const k = Math.min(1, (width - 2 * margin) / Math.max(1, layout.width), (height - 2 * margin) / Math.max(1, layout.height));
  const scale = Math.max(0.05, k);
  return { k: scale, x: (width - layout.width * scale) / 2, y: Math.max(margin, (height - layout.height * scale) / 2) };
}
