// Layered layout of a workflow graph (top to bottom, parallel bodies as compound nodes), with
// @dagrejs/dagre (docs/graph.md says why this library). A pure function of the model: no DOM, no
// text measurement (node and label sizes come from character counts), so the CLI's SVG, the view and a
// web worker compute the same picture, and the same model always gives the same layout.
import type * as Dagre from "@dagrejs/dagre" with { "resolution-mode": "import" };
// dagre ships an ES module and a CommonJS build; this project compiles to CommonJS, whose TypeScript
// settings cannot import a package marked "type": "module", so its types are imported and the
// CommonJS build required (esbuild bundles either).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dagre = require("@dagrejs/dagre") as typeof Dagre;
import type { GraphEdge, GraphNode, WorkflowGraph } from "./model";
import { CASE_ROW_HEIGHT, CASE_ROWS_BOTTOM, caseRows, clipText, containerLines, nodeLines } from "./labels";
import { orderLayers, type OrderGraph } from "./order";
import { rankNetworkSimplex, type RankGraph } from "./rank";

export interface Point { x: number; y: number }

export interface LayoutNode {
  id: string;
  /** Top-left corner, absolute (containers too). */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutEdge {
  /** Index of the edge in `graph.edges`. */
  index: number;
  from: string;
  to: string;
  /** The polyline from `from` to `to` (at least two points), absolute. */
  points: Point[];
  /** Centre of the label, when the edge has one. */
  labelAt?: Point;
}

export interface GraphLayout {
  /** "dagre", or "column" when dagre failed on this graph and every node was put in one column instead. */
  engine: "dagre" | "column";
  width: number;
  height: number;
  /** One per model node, in the model's order. */
  nodes: LayoutNode[];
  /** One per model edge, in the model's order. */
  edges: LayoutEdge[];
}

export interface LayoutOptions {
  /** Space between nodes of one rank, and between ranks (defaults 24 and 40). */
  nodeSpacing?: number;
  rankSpacing?: number;
  /**
   * Ranking of big scopes and crossing reduction: ours (rank.ts, order.ts; the default) or dagre's own,
   * kept for comparison in tests and the benchmark.
   */
  steps?: "ours" | "dagre";
  /** Chains laid out directly (stackedScope, the default) or by dagre, kept for comparison in tests. */
  chains?: "direct" | "dagre";
}

/** Sizes in layout units (CSS pixels at a 12px monospace font: 7.2 per character). */
export const CHAR_WIDTH = 7.2;
export const LINE_HEIGHT = 16;
const PADDING_X = 12;
const NODE_MIN_WIDTH = 64;
const CONTAINER_PAD = 16;
/** Room for a container's three title lines (labels.ts containerLines) above its body. */
export const CONTAINER_HEADER = 3 * LINE_HEIGHT + 12;
/** Room for a container's fan-in line below its body, inside its border (clear of the error badge). */
export const CONTAINER_FOOTER = LINE_HEIGHT + 16;
/** Room the view adds before a step's id for its type glyph ("✦ "), plus slack for a glyph drawn wide. */
const GLYPH_CHARS = 3;

// A node's lines and clipping are labels.ts's (the view draws the same text): re-exported for render.ts.
export { clipText as clip, nodeLines };

/** Width and height of a leaf node (a container's size comes from its body); a decision's holds its case rows under its lines. */
export function nodeSize(node: GraphNode): { width: number; height: number } {
  const lines = nodeLines(node);
  const rows = caseRows(node);
  // a row's text starts at the same padding as the lines (one character of slack for its background)
  const chars = Math.max(...lines.map((l, i) => Array.from(l).length + (i === 0 && node.kind === "step" ? GLYPH_CHARS : 0)),
    ...rows.map((r) => Array.from(r.text).length + 1));
  if (node.kind === "end") return { width: 48, height: 28 };
  const height = lines.length * LINE_HEIGHT + 12 + (rows.length > 0 ? rows.length * CASE_ROW_HEIGHT + CASE_ROWS_BOTTOM : 0);
  return { width: Math.max(NODE_MIN_WIDTH, Math.ceil(chars * CHAR_WIDTH + 2 * PADDING_X)), height };
}

/** The narrowest box that holds a container's header and footer lines whole (its body may widen it). */
export function containerTitleWidth(node: GraphNode): number {
  const { title, fanOut, fanIn } = containerLines(node);
  const chars = Math.max(Array.from(title).length + 1, ...fanOut.map((l) => Array.from(l).length), Array.from(fanIn).length);
  return Math.ceil(chars * CHAR_WIDTH + 2 * PADDING_X);
}

/** Width and height of an edge label. */
export function labelSize(edge: GraphEdge): { width: number; height: number } {
  if (edge.label === undefined || edge.label === "") return { width: 0, height: 0 };
  return { width: Math.ceil(Array.from(edge.label).length * CHAR_WIDTH * 0.9 + 8), height: LINE_HEIGHT };
}

/** With `steps: "dagre"`, scopes with more nodes than this are ranked with dagre's "tight-tree" (its network simplex takes seconds there). */
export const FAST_RANKING_ABOVE = 300;

interface Box { x: number; y: number; width: number; height: number }

/** dagre with our crossing reduction (order.ts) in place of its own: the same heuristic, on arrays. */
const ORDER_OURS: Parameters<typeof dagre.layout>[1] = { customOrder: (laid: unknown) => orderLayers(laid as OrderGraph) };
/** Network simplex ranking, ours on arrays (rank.ts): the optimum dagre's finds, in milliseconds at any size. */
const RANK_OURS = (graph: unknown) => rankNetworkSimplex(graph as RankGraph);

/**
 * Lay out a graph. Synchronous and deterministic; call it in a worker for big documents, and skip it
 * when `graphShapeKey` has not changed since the last call. Never throws: a layout dagre cannot
 * compute falls back to a plain column.
 *
 * Parallel bodies are laid out first, each in its own dagre graph; the parallel step then takes part in
 * its parent's layout as one box that holds its body, its title above it. An edge between a body step and a step
 * outside the body (a body step needing a step its parallel step needs) is ranked between the boxes
 * that contain its ends and drawn from one end to the other over the container's border.
 */
export function layoutGraph(graph: WorkflowGraph, options: LayoutOptions = {}): GraphLayout {
  try {
    return layered(graph, options);
  } catch {
    return column(graph);
  }
}

function layered(graph: WorkflowGraph, options: LayoutOptions): GraphLayout {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  // dagre keeps nodes in plain objects: a step id like "toString" or "__proto__" would collide with
  // their inherited properties, so dagre sees each node by its index instead.
  const index = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const key = (id: string) => index.get(id)!;
  const scopeOf = (n: GraphNode) => (n.parent !== undefined && byId.has(n.parent) ? n.parent : "");
  const members = new Map<string, GraphNode[]>();
  for (const node of graph.nodes) {
    const scope = scopeOf(node);
    const list = members.get(scope);
    if (list) list.push(node);
    else members.set(scope, [node]);
  }
  const depth = (id: string): number => {
    let d = 0;
    for (let n = byId.get(id); n && scopeOf(n) !== "" && d <= graph.nodes.length; n = byId.get(scopeOf(n))) d++;
    return d;
  };
  // The ancestor of a node (or the node itself) that lies directly in `scope`.
  const inScope = (id: string, scope: string): string | undefined => {
    let n = byId.get(id);
    for (let guard = 0; n && guard <= graph.nodes.length; guard++) {
      if (scopeOf(n) === scope) return n.id;
      n = byId.get(scopeOf(n));
    }
    return undefined;
  };
  const ancestors = (id: string): string[] => {
    const out: string[] = [];
    let n = byId.get(id);
    for (let guard = 0; n && guard <= graph.nodes.length; guard++) {
      out.push(scopeOf(n));
      if (scopeOf(n) === "") break;
      n = byId.get(scopeOf(n));
    }
    return out;
  };
  // Each edge is laid out in the innermost scope holding both ends, between the boxes there that contain them.
  const edgesOf = new Map<string, Array<{ index: number; v: string; w: string; direct: boolean }>>();
  graph.edges.forEach((edge, index) => {
    if (!byId.has(edge.from) || !byId.has(edge.to)) return;
    const fromScopes = ancestors(edge.from);
    const scope = ancestors(edge.to).find((s) => fromScopes.includes(s)) ?? "";
    const a = inScope(edge.from, scope);
    const b = inScope(edge.to, scope);
    if (a === undefined || b === undefined || a === b) return;
    const [v, w] = edge.back ? [b, a] : [a, b];
    const list = edgesOf.get(scope) ?? [];
    list.push({ index, v, w, direct: a === edge.from && b === edge.to });
    edgesOf.set(scope, list);
  });

  // Relative positions (centre) of each node inside its scope, and each scope's size.
  const local = new Map<string, Box>();
  const size = new Map<string, { width: number; height: number }>();
  const edgePoints = new Map<number, { scope: string; points: Point[]; label?: Point }>();
  /** Where a body starts inside its container's box. */
  const offsets = new Map<string, Point>();
  // Bodies before the scopes holding them (a body's size is its container's size there).
  const level = (scope: string) => (scope === "" ? 0 : depth(scope) + 1);
  const scopes = [...members.keys()].sort((a, b) => level(b) - level(a) || (a < b ? -1 : a > b ? 1 : 0));
  if (!scopes.includes("")) scopes.push("");
  for (const scope of scopes) {
    const nodes = members.get(scope) ?? [];
    const scopeEdges = edgesOf.get(scope) ?? [];
    const laid = layScope(
      nodes.map((node) => ({ key: key(node.id), ...(size.get(node.id) ?? nodeSize(node)) })),
      scopeEdges.map((e) => ({ name: `e${e.index}`, v: key(e.v), w: key(e.w), ...(e.direct ? labelSize(graph.edges[e.index]) : NO_LABEL) })),
      options,
    );
    let width = 0;
    let height = 0;
    for (const node of nodes) {
      const n = laid.nodes.get(key(node.id))!;
      local.set(node.id, { x: n.x - n.width / 2, y: n.y - n.height / 2, width: n.width, height: n.height });
      width = Math.max(width, n.x + n.width / 2);
      height = Math.max(height, n.y + n.height / 2);
    }
    for (const e of scopeEdges) {
      if (!e.direct) continue;
      const route = laid.edges.get(`e${e.index}`);
      if (!route) continue;
      const points = route.points.map((p) => ({ x: p.x, y: p.y }));
      if (graph.edges[e.index].back) points.reverse();
      for (const p of points) { width = Math.max(width, p.x); height = Math.max(height, p.y); }
      edgePoints.set(e.index, { scope, points, label: route.label });
    }
    if (scope !== "") {
      const owner = byId.get(scope)!;
      const title = { width: Math.max(nodeSize(owner).width, containerTitleWidth(owner)) };
      size.set(scope, { width: Math.max(title.width, width + 2 * CONTAINER_PAD), height: CONTAINER_HEADER + height + CONTAINER_FOOTER });
      // centre the body under the title when the title is the wider
      const shift = Math.max(0, (title.width - (width + 2 * CONTAINER_PAD)) / 2);
      offsets.set(scope, { x: CONTAINER_PAD + shift, y: CONTAINER_HEADER });
    } else {
      size.set("", { width, height });
    }
  }

  // Absolute positions: a scope's origin is its container's corner plus the body's offset.
  const origin = new Map<string, Point>([["", { x: MARGIN, y: MARGIN }]]);
  const absolute = new Map<string, LayoutNode>();
  const place = (id: string): LayoutNode => {
    const known = absolute.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const scope = scopeOf(node);
    const o = originOf(scope);
    const b = local.get(id) ?? { x: 0, y: 0, width: 0, height: 0 };
    const out = { id, x: o.x + b.x, y: o.y + b.y, width: b.width, height: b.height };
    absolute.set(id, out);
    return out;
  };
  const originOf = (scope: string): Point => {
    const known = origin.get(scope);
    if (known) return known;
    const box = place(scope);
    const off = offsets.get(scope) ?? { x: 0, y: 0 };
    const o = { x: box.x + off.x, y: box.y + off.y };
    origin.set(scope, o);
    return o;
  };
  const nodes = graph.nodes.map((n) => place(n.id));
  const edges: LayoutEdge[] = graph.edges.map((edge, index) => {
    const laid = edgePoints.get(index);
    let points: Point[];
    let labelAt: Point | undefined;
    if (laid) {
      const o = originOf(laid.scope);
      points = laid.points.map((p) => ({ x: p.x + o.x, y: p.y + o.y }));
      if (laid.label) labelAt = { x: laid.label.x + o.x, y: laid.label.y + o.y };
    } else {
      points = across(absolute.get(edge.from), absolute.get(edge.to), edge.from === edge.to);
    }
    const out: LayoutEdge = { index, from: edge.from, to: edge.to, points };
    if (edge.label !== undefined && edge.label !== "") out.labelAt = labelAt ?? midpoint(points);
    return out;
  });
  const top = size.get("") ?? { width: 0, height: 0 };
  return { engine: "dagre", width: Math.ceil(top.width + 2 * MARGIN), height: Math.ceil(top.height + 2 * MARGIN), nodes, edges };
}

/**
 * The layout of `graph` made from `previous`, the layout of a graph with the same nodes (graphNodesKey
 * equal) and other edges: every node keeps its box, an edge the previous graph had keeps its route, and a
 * new edge is drawn from one box to the other. What the view shows at once after an edit that only
 * changed edges (a `needs` entry typed), until the real layout of the new shape is ready.
 */
export function patchLayout(previous: GraphLayout, previousGraph: WorkflowGraph, graph: WorkflowGraph): GraphLayout {
  const routes = new Map<string, LayoutEdge[]>();
  const edgeKey = (e: GraphEdge) => JSON.stringify([e.from, e.to, e.kind, e.label ?? "", e.back === true]);
  previous.edges.forEach((laid, i) => {
    const k = edgeKey(previousGraph.edges[i]);
    const list = routes.get(k);
    if (list) list.push(laid);
    else routes.set(k, [laid]);
  });
  const box = new Map(previous.nodes.map((n) => [n.id, n]));
  let width = previous.width;
  let height = previous.height;
  const edges = graph.edges.map((edge, index): LayoutEdge => {
    const old = routes.get(edgeKey(edge))?.shift();
    const points = old ? old.points : across(box.get(edge.from), box.get(edge.to), edge.from === edge.to);
    for (const p of points) { width = Math.max(width, Math.ceil(p.x + MARGIN)); height = Math.max(height, Math.ceil(p.y + MARGIN)); }
    const out: LayoutEdge = { index, from: edge.from, to: edge.to, points };
    if (edge.label !== undefined && edge.label !== "") out.labelAt = old?.labelAt ?? midpoint(points);
    return out;
  });
  return { engine: previous.engine, width, height, nodes: previous.nodes, edges };
}

const MARGIN = 8;
const NO_LABEL = { width: 0, height: 0 };

export interface ScopeNode { key: string; width: number; height: number }
export interface ScopeEdge { name: string; v: string; w: string; width: number; height: number }
export interface ScopeLayout {
  /** Centre and size of each node, the scope's top-left corner at 0,0. */
  nodes: Map<string, Box>;
  /** Each edge's polyline and label centre, by name. */
  edges: Map<string, { points: Point[]; label?: Point }>;
}

/** Lay out the nodes of one scope: a chain without labels directly (as dagre would), anything else with dagre. */
export function layScope(nodes: ScopeNode[], edges: ScopeEdge[], options: LayoutOptions): ScopeLayout {
  return (options.chains === "dagre" ? undefined : stackedScope(nodes, edges, options)) ?? dagreScope(nodes, edges, options);
}

export function dagreScope(nodes: ScopeNode[], edges: ScopeEdge[], options: LayoutOptions): ScopeLayout {
  const g = new dagre.graphlib.Graph({ multigraph: true, directed: true });
  g.setGraph({
    rankdir: "TB", nodesep: options.nodeSpacing ?? 24, ranksep: options.rankSpacing ?? 40, edgesep: 12, marginx: 0, marginy: 0,
    ranker: options.steps !== "dagre" ? RANK_OURS : nodes.length <= FAST_RANKING_ABOVE ? "network-simplex" : "tight-tree",
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) g.setNode(node.key, { width: node.width, height: node.height });
  for (const e of edges) g.setEdge(e.v, e.w, e.width > 0 ? { width: e.width, height: e.height, labelpos: "c" } : {}, e.name);
  if (nodes.length > 0) dagre.layout(g, options.steps === "dagre" ? {} : ORDER_OURS);
  const out: ScopeLayout = { nodes: new Map(), edges: new Map() };
  for (const node of nodes) {
    const n = g.node(node.key) as Box;
    out.nodes.set(node.key, { x: n.x, y: n.y, width: n.width, height: n.height });
  }
  for (const e of edges) {
    const laid = g.edge(e.v, e.w, e.name) as { points?: Point[]; x?: number; y?: number } | undefined;
    if (!laid?.points) continue;
    out.edges.set(e.name, { points: laid.points, label: laid.x !== undefined && laid.y !== undefined ? { x: laid.x, y: laid.y } : undefined });
  }
  return out;
}

/**
 * A scope that is one node, or a chain a → b → c … with one unlabelled edge between each two, needs no
 * search: dagre stacks it in one column centred on the widest node, a rank apart, each edge straight down
 * through the empty rank between (layout.test.ts checks this against dagre). Most parallel bodies are
 * such chains, and skipping dagre's set-up for them is a fifth of the layout of a big document.
 */
export function stackedScope(nodes: ScopeNode[], edges: ScopeEdge[], options: LayoutOptions): ScopeLayout | undefined {
  if (nodes.length === 0 || edges.length !== nodes.length - 1) return undefined;
  const next = new Map<string, ScopeEdge>();
  const targets = new Set<string>();
  for (const e of edges) {
    if (e.width > 0 || e.v === e.w || next.has(e.v) || targets.has(e.w)) return undefined;
    next.set(e.v, e);
    targets.add(e.w);
  }
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  let first: ScopeNode | undefined;
  for (const n of nodes) if (!targets.has(n.key)) { if (first) return undefined; first = n; }
  if (!first) return undefined;
  const chain: ScopeNode[] = [];
  for (let n: ScopeNode | undefined = first; n && chain.length <= nodes.length; ) {
    chain.push(n);
    const e = next.get(n.key);
    n = e ? byKey.get(e.w) : undefined;
  }
  if (chain.length !== nodes.length) return undefined;
  const gap = (options.rankSpacing ?? 40) / 2;
  const x = Math.max(...chain.map((n) => n.width)) / 2;
  const out: ScopeLayout = { nodes: new Map(), edges: new Map() };
  let top = 0;
  chain.forEach((n, i) => {
    out.nodes.set(n.key, { x, y: top + n.height / 2, width: n.width, height: n.height });
    const bottom = top + n.height;
    top = bottom + 2 * gap;
    const e = next.get(n.key);
    if (e && i < chain.length - 1) out.edges.set(e.name, { points: [{ x, y: bottom }, { x, y: bottom + gap }, { x, y: top }] });
  });
  return out;
}

/** An edge dagre did not route (between scopes, or a self loop): bottom of one box to the top of the other. */
function across(a: LayoutNode | undefined, b: LayoutNode | undefined, self: boolean): Point[] {
  if (!a || !b) return [{ x: 0, y: 0 }, { x: 0, y: 0 }];
  if (self) {
    const r = a.x + a.width;
    return [{ x: r, y: a.y + a.height * 0.3 }, { x: r + 16, y: a.y + a.height * 0.3 }, { x: r + 16, y: a.y + a.height * 0.7 }, { x: r, y: a.y + a.height * 0.7 }];
  }
  const start = { x: a.x + a.width / 2, y: a.y + a.height };
  const end = { x: b.x + b.width / 2, y: b.y };
  if (end.y >= start.y) return [start, { x: start.x, y: (start.y + end.y) / 2 }, { x: end.x, y: (start.y + end.y) / 2 }, end];
  // going up (a loop back edge): leave and enter on the sides
  const s = { x: a.x, y: a.y + a.height / 2 };
  const e = { x: b.x, y: b.y + b.height / 2 };
  const left = Math.min(s.x, e.x) - 16;
  return [s, { x: left, y: s.y }, { x: left, y: e.y }, e];
}

function midpoint(points: Point[]): Point {
  if (points.length === 0) return { x: 0, y: 0 };
  if (points.length % 2 === 1) return points[(points.length - 1) / 2];
  const a = points[points.length / 2 - 1];
  const b = points[points.length / 2];
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/** The fallback: every node in one column, in the model's order (a container as a box of its own, above its body). */
function column(graph: WorkflowGraph): GraphLayout {
  let y = MARGIN;
  let width = 0;
  const nodes = graph.nodes.map((node) => {
    const s = nodeSize(node);
    const out = { id: node.id, x: MARGIN, y, width: s.width, height: s.height };
    y += s.height + 24;
    width = Math.max(width, s.width);
    return out;
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges = graph.edges.map((edge, index) => {
    const points = across(byId.get(edge.from), byId.get(edge.to), edge.from === edge.to);
    const out: LayoutEdge = { index, from: edge.from, to: edge.to, points };
    if (edge.label) out.labelAt = midpoint(points);
    return out;
  });
  return { engine: "column", width: Math.ceil(width + 2 * MARGIN), height: Math.ceil(y + MARGIN), nodes, edges };
}
