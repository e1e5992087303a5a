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
}

/** Sizes in layout units (CSS pixels at a 12px monospace font: 7.2 per character). */
export const CHAR_WIDTH = 7.2;
export const LINE_HEIGHT = 16;
const PADDING_X = 12;
const NODE_MIN_WIDTH = 64;
const NODE_MAX_CHARS = 40;
const CONTAINER_PAD = 16;
const CONTAINER_HEADER = 2 * LINE_HEIGHT + 8;

/** The lines a node shows: its label, then its type and model/tool/entrypoint, then output mode and maxVisits. */
export function nodeLines(node: GraphNode): string[] {
  if (node.kind === "end") return ["end"];
  if (node.kind === "missing") return [node.label, "missing"];
  const lines = [node.label];
  const what = node.model ?? node.tool ?? node.entrypoint;
  lines.push(node.uses !== undefined ? (what !== undefined ? `${node.uses} · ${what}` : node.uses) : "no uses");
  const extra: string[] = [];
  if (node.outputMode !== undefined) extra.push(node.outputMode);
  if (node.maxVisits !== undefined && node.maxVisits !== 1) extra.push(`×${node.maxVisits}`);
  if (node.container && node.item?.items !== undefined) extra.push(`each ${node.item.items}`);
  if (extra.length > 0) lines.push(extra.join(" · "));
  return lines.map((l) => clip(l, NODE_MAX_CHARS));
}

/** Cut a line at `max` characters with "…" (code points, so a surrogate pair is never split). */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

/** Width and height of a leaf node (a container's size comes from its body). */
export function nodeSize(node: GraphNode): { width: number; height: number } {
  const lines = nodeLines(node);
  const chars = Math.max(...lines.map((l) => Array.from(l).length));
  if (node.kind === "end") return { width: 48, height: 28 };
  return { width: Math.max(NODE_MIN_WIDTH, Math.ceil(chars * CHAR_WIDTH + 2 * PADDING_X)), height: lines.length * LINE_HEIGHT + 12 };
}

/** Width and height of an edge label. */
export function labelSize(edge: GraphEdge): { width: number; height: number } {
  if (edge.label === undefined || edge.label === "") return { width: 0, height: 0 };
  return { width: Math.ceil(Array.from(edge.label).length * CHAR_WIDTH * 0.9 + 8), height: LINE_HEIGHT };
}

/**
 * Lay out a graph. Synchronous and deterministic; call it in a worker for big documents, and skip it
 * when `graphShapeKey` has not changed since the last call.
 */
export function layoutGraph(graph: WorkflowGraph, options: LayoutOptions = {}): GraphLayout {
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: true, directed: true });
  g.setGraph({ rankdir: "TB", nodesep: options.nodeSpacing ?? 24, ranksep: options.rankSpacing ?? 40, edgesep: 12, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set<string>();
  for (const node of graph.nodes) {
    ids.add(node.id);
    if (node.container) {
      g.setNode(node.id, { paddingTop: CONTAINER_HEADER, paddingLeft: CONTAINER_PAD, paddingRight: CONTAINER_PAD, paddingBottom: CONTAINER_PAD });
    } else {
      g.setNode(node.id, nodeSize(node));
    }
  }
  // Containers with an empty body still need a size: dagre gives a childless compound node the size set above.
  const hasChildren = new Set<string>();
  for (const node of graph.nodes) {
    if (node.parent !== undefined && ids.has(node.parent)) {
      g.setParent(node.id, node.parent);
      hasChildren.add(node.parent);
    }
  }
  for (const node of graph.nodes) {
    if (node.container && !hasChildren.has(node.id)) g.setNode(node.id, nodeSize(node));
  }
  graph.edges.forEach((edge, i) => {
    if (!ids.has(edge.from) || !ids.has(edge.to)) return;
    // dagre cannot route an edge to a compound node; such edges (none in the model today) are left out of the layout.
    if (isCompound(g, edge.from) || isCompound(g, edge.to)) return;
    const size = labelSize(edge);
    // Back edges are laid out reversed, so every forward edge points down and loops come back up.
    const [v, w] = edge.back ? [edge.to, edge.from] : [edge.from, edge.to];
    g.setEdge(v, w, { ...size, labelpos: "c", minlen: 1 }, `e${i}`);
  });
  dagre.layout(g);

  const nodes: LayoutNode[] = graph.nodes.map((node) => {
    const n = g.node(node.id) as { x: number; y: number; width: number; height: number };
    return { id: node.id, x: n.x - n.width / 2, y: n.y - n.height / 2, width: n.width, height: n.height };
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges: LayoutEdge[] = graph.edges.map((edge, index) => {
    const [v, w] = edge.back ? [edge.to, edge.from] : [edge.from, edge.to];
    const laid = g.hasEdge(v, w, `e${index}`) ? (g.edge(v, w, `e${index}`) as { points?: Point[]; x?: number; y?: number }) : undefined;
    let points = laid?.points?.map((p) => ({ x: p.x, y: p.y })) ?? straight(byId.get(edge.from), byId.get(edge.to));
    if (edge.back) points = points.reverse();
    const out: LayoutEdge = { index, from: edge.from, to: edge.to, points };
    if (edge.label !== undefined && edge.label !== "") {
      out.labelAt = laid && laid.x !== undefined && laid.y !== undefined ? { x: laid.x, y: laid.y } : points[Math.floor(points.length / 2)];
    }
    return out;
  });
  const label = g.graph() as { width?: number; height?: number };
  return { width: Math.max(1, Math.ceil(label.width ?? 0)), height: Math.max(1, Math.ceil(label.height ?? 0)), nodes, edges };
}

function isCompound(g: Dagre.graphlib.Graph, id: string): boolean {
  const children = g.children(id) as string[] | undefined;
  return children !== undefined && children.length > 0;
}

function straight(a: LayoutNode | undefined, b: LayoutNode | undefined): Point[] {
  const centre = (n: LayoutNode | undefined) => (n ? { x: n.x + n.width / 2, y: n.y + n.height / 2 } : { x: 0, y: 0 });
  return [centre(a), centre(b)];
}
