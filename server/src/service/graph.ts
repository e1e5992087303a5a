// The graph view's answers (the `lwir/graph` request): the graph model (../graph/model.ts) of the
// analysed document with its layout (../graph/layout.ts). The layout is the expensive part, so it is
// kept per document and reused while graphShapeKey is unchanged: an edit that changes no node or edge
// (a prompt, a finding, a range) answers with new decorations on the last layout. While the document
// does not parse, the last graph that did is answered, marked, with the syntax error.
import { buildGraph, graphShapeKey, type GraphNode, type WorkflowGraph } from "../graph/model";
import { layoutGraph, type GraphLayout } from "../graph/layout";
import type { PathSegment } from "../lwir/types";
import type { GraphResult, GraphTextRange } from "../protocol";
import type { Analysis } from "./analysis";

interface Memo {
  key: string;
  hash: string;
  layout: GraphLayout;
  /** The last answer computed from a version that parsed. */
  good?: GraphResult;
}

export class GraphViews {
  private readonly memo = new Map<string, Memo>();
  /** How many layouts were computed (tests count them). */
  layouts = 0;

  constructor(private readonly layout: (graph: WorkflowGraph) => GraphLayout = layoutGraph) {}

  /** The answer for version `version` of `uri`, whose analysis is `analysis`. */
  answer(uri: string, version: number, analysis: Analysis, options: { mermaid?: boolean } = {}): GraphResult {
    const doc = analysis.document;
    const memo = this.memo.get(uri);
    if (doc.parseErrors.length > 0 || doc.tooDeep) {
      const first = doc.parseErrors[0];
      const error = first
        ? { message: first.message, range: first.range }
        : { message: analysis.findings[0]?.message ?? "The document does not parse.", range: doc.rangeAt(0, 0) };
      const base = memo?.good ?? this.empty(uri, version);
      const result: GraphResult = { ...base, uri, version, parseOk: false, error, laidOut: false };
      if (options.mermaid) result.mermaid = graphMermaid(base.graph);
      else delete result.mermaid;
      return result;
    }
    const graph = buildGraph(doc.value, {
      findings: analysis.findings.map((f) => ({ segments: f.segments, message: f.message, code: f.code, severity: f.severity })),
      rangeOf: (segments) => rangeOfPath(analysis, segments),
    });
    const key = graphShapeKey(graph);
    let laidOut = false;
    let current = memo;
    if (!current || current.key !== key) {
      this.layouts++;
      laidOut = true;
      current = { key, hash: hashKey(key), layout: this.layout(graph), good: memo?.good };
      this.memo.set(uri, current);
    }
    const result: GraphResult = {
      uri, version, parseOk: true, graph, layout: current.layout, shapeKey: current.hash, laidOut, selections: selections(analysis, graph.nodes),
    };
    current.good = result;
    return options.mermaid ? { ...result, mermaid: graphMermaid(graph) } : result;
  }

  forget(uri: string): void {
    this.memo.delete(uri);
  }

  private empty(uri: string, version: number): GraphResult {
    const graph: WorkflowGraph = { nodes: [], edges: [], findings: { errors: 0, warnings: 0, messages: [] } };
    return { uri, version, parseOk: false, graph, layout: { width: 1, height: 1, nodes: [], edges: [] }, shapeKey: hashKey(""), laidOut: false, selections: {} };
  }
}

/** The whole value at a path (a step object), as a range. */
function rangeOfPath(analysis: Analysis, segments: PathSegment[]): GraphTextRange | undefined {
  const loc = analysis.document.locate(segments);
  return loc ? analysis.document.rangeAt(loc.valueStart, loc.valueEnd) : undefined;
}

/** Each step's `id` value (what a click selects); steps without a string id select their whole object. */
function selections(analysis: Analysis, nodes: GraphNode[]): Record<string, GraphTextRange> {
  const out: Record<string, GraphTextRange> = {};
  for (const node of nodes) {
    if (node.kind !== "step" || !node.path) continue;
    const loc = analysis.document.locate([...node.path, "id"]);
    const range = loc ? analysis.document.rangeAt(loc.valueStart, loc.valueEnd) : node.range;
    if (range) out[node.id] = range;
  }
  return out;
}

/** FNV-1a (32 bits) of the key and its length: a short stand-in the client compares. */
export function hashKey(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${h.toString(16).padStart(8, "0")}-${key.length.toString(16)}`;
}

/**
 * The graph as a Mermaid flowchart: parallel steps as subgraphs, needs as arrows, decision cases as
 * labelled arrows, defaults dotted, back edges thick. Node names are generated (n0, n1, …) and labels
 * quoted with Mermaid's entity codes, so no step id can break the syntax.
 * (A stand-in until the CLI's renderer, `lwir graph --format mermaid`, is on this branch.)
 */
export function graphMermaid(graph: WorkflowGraph): string {
  const name = new Map<string, string>();
  graph.nodes.forEach((n, i) => name.set(n.id, `n${i}`));
  const lines = ["flowchart TD"];
  const children = new Map<string, GraphNode[]>();
  for (const n of graph.nodes) {
    const list = children.get(n.scope) ?? [];
    list.push(n);
    children.set(n.scope, list);
  }
  const emit = (scope: string, indent: string) => {
    for (const n of children.get(scope) ?? []) {
      const label = mermaidText(n.kind === "step" && n.uses ? `${n.label}\n${n.uses}` : n.label);
      if (n.container) {
        lines.push(`${indent}subgraph ${name.get(n.id)}["${label}"]`);
        emit(n.id, `${indent}  `);
        lines.push(`${indent}end`);
      } else if (n.kind === "end") lines.push(`${indent}${name.get(n.id)}(("${label}"))`);
      else if (n.kind === "missing") lines.push(`${indent}${name.get(n.id)}["${mermaidText(`${n.label}?`)}"]`);
      else lines.push(`${indent}${name.get(n.id)}["${label}"]`);
    }
  };
  emit("", "  ");
  for (const e of graph.edges) {
    const from = name.get(e.from);
    const to = name.get(e.to);
    if (!from || !to) continue;
    const label = e.label ? `|"${mermaidText(e.label)}"|` : "";
    const arrow = e.back ? "==>" : e.kind === "default" || e.dangling ? "-.->" : "-->";
    lines.push(`  ${from} ${arrow}${label} ${to}`);
  }
  const missing = graph.nodes.filter((n) => n.kind === "missing").map((n) => name.get(n.id));
  if (missing.length > 0) {
    lines.push("  classDef missing stroke-dasharray: 4 3,stroke:#d33");
    lines.push(`  class ${missing.join(",")} missing`);
  }
  return `${lines.join("\n")}\n`;
}

function mermaidText(text: string): string {
  return text.replace(/[&"<>#|\n\\`[\]{}]/g, (c) => (c === "\n" ? "<br/>" : `#${c.codePointAt(0)};`));
}
