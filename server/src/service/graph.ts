// The graph view's answers (the `lwir/graph` request): the graph model (../graph/model.ts) of the
// analysed document with its layout (../graph/layout.ts). The layout is the expensive part, so it is
// kept per document and reused while graphShapeKey is unchanged: an edit that changes no node or edge
// (a prompt, a finding, a range) answers with new decorations on the last layout. While the document
// does not parse, the last graph that did is answered, marked, with the syntax error.
import { buildGraph, graphShapeKey, type GraphNode, type WorkflowGraph } from "../graph/model";
import { layoutGraph, type GraphLayout } from "../graph/layout";
import { toMermaid } from "../graph/render";
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
      if (options.mermaid) result.mermaid = toMermaid(base.graph);
      else delete result.mermaid;
      return result;
    }
    const graph = graphOfAnalysis(analysis)!;
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
    return options.mermaid ? { ...result, mermaid: toMermaid(graph) } : result;
  }

  forget(uri: string): void {
    this.memo.delete(uri);
  }

  private empty(uri: string, version: number): GraphResult {
    const graph: WorkflowGraph = { nodes: [], edges: [], findings: { errors: 0, warnings: 0, messages: [] } };
    return { uri, version, parseOk: false, graph, layout: { engine: "column", width: 1, height: 1, nodes: [], edges: [] }, shapeKey: hashKey(""), laidOut: false, selections: {} };
  }
}

/**
 * The graph model of an analysis, with its findings on their steps and each step's range in the text
 * (for reveal and highlight); undefined while the text does not parse (the view keeps its last graph).
 */
export function graphOfAnalysis(analysis: Analysis): WorkflowGraph | undefined {
  const doc = analysis.document;
  if (doc.parseErrors.length > 0 || doc.tooDeep) return undefined;
  return buildGraph(doc.value, {
    findings: analysis.findings.map((f) => ({ segments: f.segments, message: f.message, code: f.code, severity: f.severity })),
    rangeOf: (segments) => rangeOfPath(analysis, segments),
  });
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
