// The graph view's drawing, DOM-free: the server's graph and layout → a tree of SVG elements (`VNode`),
// which main.ts turns into DOM and "Save as SVG" serializes; plus search, keyboard navigation order and
// the step at a cursor. Pure functions of plain data, so unit tests run them in Node and the extension
// (cursor → step) shares them with the webview.
import type { GraphEdge, GraphNode, WorkflowGraph } from "../../server/src/graph/model";
import type { GraphLayout, LayoutNode, Point } from "../../server/src/graph/layout";

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

/** The CSS of a drawing: VS Code's theme variables, with fallbacks so a saved SVG has colours of its own. */
// (An array of one-line strings, so the minified bundle stays a few long lines.)
export const GRAPH_STYLE = [
  ".lwir-graph { font: 12px var(--vscode-editor-font-family, ui-monospace, Menlo, Consolas, monospace); }",
  ".lwir-graph .bg { fill: var(--vscode-editor-background, #ffffff); }",
  ".lwir-graph text { fill: var(--vscode-editor-foreground, var(--vscode-foreground, #1f1f1f)); dominant-baseline: middle; }",
  ".lwir-graph .sub { fill: var(--vscode-descriptionForeground, #6b6b6b); }",
  ".lwir-graph .node rect.box { fill: var(--vscode-editorWidget-background, #f3f3f3); stroke: var(--vscode-editorWidget-border, var(--vscode-contrastBorder, #8a8a8a)); stroke-width: 1; }",
  ".lwir-graph .node:focus { outline: none; }",
  ".lwir-graph .node:focus rect.box, .lwir-graph .node.focused rect.box { stroke: var(--vscode-focusBorder, #0078d4); stroke-width: 2; }",
  ".lwir-graph .node.selected rect.box { stroke: var(--vscode-focusBorder, #0078d4); stroke-width: 3; fill: var(--vscode-editor-selectionBackground, #cce4f7); }",
  ".lwir-graph .node.match rect.box { stroke: var(--vscode-editor-findMatchBorder, #b8860b); stroke-width: 2; }",
  ".lwir-graph .node.errors rect.box { stroke: var(--vscode-errorForeground, #d32f2f); stroke-width: 2; }",
  ".lwir-graph .node.missing rect.box { stroke: var(--vscode-errorForeground, #d32f2f); stroke-dasharray: 5 3; fill: none; }",
  ".lwir-graph .node.end rect.box { fill: var(--vscode-badge-background, #616161); stroke: none; }",
  ".lwir-graph .node.end text { fill: var(--vscode-badge-foreground, #ffffff); }",
  ".lwir-graph .stripe { fill: var(--vscode-charts-blue, #1a85ff); }",
  ".lwir-graph .uses-decision .stripe { fill: var(--vscode-charts-orange, #d18616); }",
  ".lwir-graph .uses-parallel .stripe { fill: var(--vscode-charts-purple, #a04fc8); }",
  ".lwir-graph .uses-tool-call .stripe { fill: var(--vscode-charts-green, #388a34); }",
  ".lwir-graph .uses-code-run .stripe { fill: var(--vscode-charts-yellow, #b89500); }",
  ".lwir-graph .badge circle { fill: var(--vscode-errorForeground, #d32f2f); }",
  ".lwir-graph .badge text { fill: var(--vscode-editor-background, #ffffff); font-size: 10px; text-anchor: middle; }",
  ".lwir-graph .visits rect { fill: var(--vscode-badge-background, #616161); }",
  ".lwir-graph .visits text { fill: var(--vscode-badge-foreground, #ffffff); font-size: 10px; text-anchor: middle; }",
  ".lwir-graph .container > rect.group { fill: var(--vscode-editor-inactiveSelectionBackground, rgba(128,128,128,0.08)); stroke: var(--vscode-charts-purple, #a04fc8); stroke-width: 1.5; stroke-dasharray: 2 2; }",
  ".lwir-graph .container.errors > rect.group { stroke: var(--vscode-errorForeground, #d32f2f); stroke-dasharray: none; }",
  ".lwir-graph .container.selected > rect.group { stroke: var(--vscode-focusBorder, #0078d4); stroke-width: 3; }",
  ".lwir-graph .container:focus > rect.group, .lwir-graph .container.focused > rect.group { stroke: var(--vscode-focusBorder, #0078d4); stroke-width: 2; }",
  ".lwir-graph .container.match > rect.group { stroke: var(--vscode-editor-findMatchBorder, #b8860b); stroke-width: 2; }",
  ".lwir-graph .fan text { fill: var(--vscode-charts-purple, #a04fc8); }",
  ".lwir-graph .fan rect { fill: var(--vscode-editor-background, #ffffff); }",
  ".lwir-graph .edge path { fill: none; stroke: var(--vscode-editorWidget-border, var(--vscode-foreground, #8a8a8a)); stroke-width: 1.3; }",
  ".lwir-graph .edge.default path { stroke-dasharray: 6 4; }",
  ".lwir-graph .edge.back path { stroke: var(--vscode-charts-orange, #d18616); stroke-dasharray: 3 3; stroke-width: 1.6; }",
  ".lwir-graph .edge.dangling path { stroke: var(--vscode-errorForeground, #d32f2f); stroke-dasharray: 5 3; }",
  ".lwir-graph .edge .label rect { fill: var(--vscode-editor-background, #ffffff); }",
  ".lwir-graph .edge .label text { font-size: 11px; text-anchor: middle; }",
  ".lwir-graph .edge.back .label text { fill: var(--vscode-charts-orange, #d18616); }",
  ".lwir-graph marker path { stroke: none; fill: var(--vscode-editorWidget-border, var(--vscode-foreground, #8a8a8a)); }",
  ".lwir-graph marker.back path { fill: var(--vscode-charts-orange, #d18616); }",
  ".lwir-graph marker.dangling path { fill: var(--vscode-errorForeground, #d32f2f); }",
].join("\n");

const LINE_HEIGHT = 16;
const MAX_CHARS = 40;

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
export function clip(text: string, max = MAX_CHARS): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

/**
 * The lines of a node: the same text as layout.ts's nodeLines (which sized the box; a unit test
 * compares them); with `visits` false, maxVisits is left to the badge instead of "×N".
 */
export function nodeText(node: GraphNode, visits = true): string[] {
  if (node.kind === "end") return ["end"];
  if (node.kind === "missing") return [node.label, "missing"];
  const lines = [node.label];
  const what = node.model ?? node.tool ?? node.entrypoint;
  lines.push(node.uses !== undefined ? (what !== undefined ? `${node.uses} · ${what}` : node.uses) : "no uses");
  const extra: string[] = [];
  if (node.outputMode !== undefined) extra.push(node.outputMode);
  if (visits && node.maxVisits !== undefined && node.maxVisits !== 1) extra.push(`×${node.maxVisits}`);
  if (node.container && node.item?.items !== undefined) extra.push(`each ${node.item.items}`);
  if (extra.length > 0) lines.push(extra.join(" · "));
  return lines.map((l) => clip(l));
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

function fanOutText(node: GraphNode): string {
  const item = node.item;
  return item?.items !== undefined ? `fan-out: each ${item.items}${item.itemKey ? ` by ${item.itemKey}` : ""}` : "fan-out: each branch";
}

function fanInText(node: GraphNode): string {
  const fanIn = node.fanIn;
  return `fan-in${fanIn?.order ? `: ${fanIn.order}` : ""}${fanIn?.output ? ` · ${fanIn.output}` : ""}${fanIn?.outputStep ? ` ← ${fanIn.outputStep}` : ""}`;
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
    const attrs = { class: classes.join(" "), "data-id": node.id, tabindex: -1, role: "button", "aria-label": nodeTitle(node).split("\n")[0] };
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
  const defs = el("defs", {}, [marker("arrow", ""), marker("arrow-back", "back"), marker("arrow-dangling", "dangling")]);
  return el("g", { class: "lwir-graph" }, [defs, el("g", { class: "containers" }, containers), el("g", { class: "edges" }, edges), el("g", { class: "nodes" }, nodes)]);
}

function marker(id: string, cls: string): VNode {
  return el("marker", { id, class: cls, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, [
    el("path", { d: "M0,0 L10,5 L0,10 z" }),
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
  if (node.maxVisits !== undefined && node.maxVisits !== 1) out.push(visitsBadge(node.maxVisits, x + width, y));
  if (node.findings.errors > 0) out.push(errorBadge(node.findings.errors, x + width, y + height));
  return out;
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
  const header = 2 * LINE_HEIGHT + 8;
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
  const head = clip(`${usesGlyph(node.uses)} ${node.label} · parallel${node.outputMode ? ` · ${node.outputMode}` : ""}`, Math.max(8, Math.floor((width - 16) / 7.2)));
  out.push(el("text", { x: x + 8, y: y + 4 + LINE_HEIGHT / 2, class: "id" }, undefined, head));
  const fanOut = fanOutText(node);
  out.push(el("g", { class: "fan fan-out" }, [el("text", { x: x + 8, y: y + 4 + LINE_HEIGHT * 1.5 }, undefined, clip(fanOut, Math.max(8, Math.floor((width - 16) / 7.2))))]));
  const inClipped = clip(fanInText(node), Math.max(8, Math.floor((width - 24) / 7.2)));
  const w = Array.from(inClipped).length * 7.2 + 8;
  out.push(el("g", { class: "fan fan-in" }, [
    el("rect", { x: x + 8, y: y + height - 8, width: w, height: 14 }),
    el("text", { x: x + 12, y: y + height - 1 }, undefined, inClipped),
  ]));
  if (node.maxVisits !== undefined && node.maxVisits !== 1) out.push(visitsBadge(node.maxVisits, x + width, y));
  if (node.findings.errors > 0) out.push(errorBadge(node.findings.errors, x + width, y + height));
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
  const classes = ["edge", edge.kind];
  if (edge.back) classes.push("back");
  if (edge.dangling) classes.push("dangling");
  const arrow = edge.dangling ? "arrow-dangling" : edge.back ? "arrow-back" : "arrow";
  const children: VNode[] = [
    el("title", {}, undefined, edgeTitle(edge)),
    el("path", { d: edgePath(points, edge.back === true), "marker-end": `url(#${arrow})` }),
  ];
  if (edge.label && labelAt) {
    const w = Array.from(edge.label).length * 6.5 + 8;
    children.push(el("g", { class: "label" }, [
      el("rect", { x: round(labelAt.x - w / 2), y: round(labelAt.y - 8), width: round(w), height: 16, rx: 3 }),
      el("text", { x: round(labelAt.x), y: round(labelAt.y) }, undefined, edge.label),
    ]));
  }
  return el("g", { class: classes.join(" "), "data-from": edge.from, "data-to": edge.to }, children);
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
 * Nodes whose id or label contains `query` (case-insensitive), exact matches first, then in the
 * graph's order; made-up nodes (end, missing) last.
 */
export function searchNodes(graph: WorkflowGraph, query: string): string[] {
  const q = query.trim().toLowerCase();
  if (q === "") return [];
  const scored: Array<{ id: string; score: number; index: number }> = [];
  graph.nodes.forEach((n, index) => {
    const label = n.label.toLowerCase();
    const id = n.id.toLowerCase();
    if (!label.includes(q) && !id.includes(q)) return;
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
