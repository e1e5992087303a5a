// The graph view's answers (the `lwir/graph` request): the graph model (../graph/model.ts) of the
// analysed document with its layout (../graph/layout.ts). The layout is the expensive part, so it is
// kept per document and reused while graphShapeKey is unchanged: an edit that changes no node or edge
// (a prompt, a finding, a range) answers with new decorations on the last layout. Layouts are computed
// by a Layouter (../graph/layouter.ts; a worker thread in the Node server), one at a time per document:
// while one runs, only the newest other shape waits. While the document does not parse, the last graph
// that did is answered, marked, with the syntax error.
import { buildGraph, graphKeys, type GraphNode, type WorkflowGraph } from "../graph/model";
import { patchLayout, type GraphLayout } from "../graph/layout";
import { inThreadLayouter, type Layouter } from "../graph/layouter";
import { toMermaid } from "../graph/render";
import type { PathSegment } from "../lwir/types";
import type { GraphResult, GraphTextRange } from "../protocol";
import type { Analysis } from "./analysis";

/** What a request is answered from: the document's newest version and its analysis, read when needed. */
export interface GraphSnapshot {
  version: number;
  analysis: Analysis;
}

/** The part of an LSP CancellationToken the answer listens to. */
export interface Cancellation {
  isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A layout waited for: its outcome, or SUPERSEDED when a newer shape replaced it before it started. */
const SUPERSEDED = Symbol("superseded");
type Outcome = GraphLayout | typeof SUPERSEDED;

/** A graph's shape key and its nodes' part (model.ts graphKeys). */
type Keys = { shape: string; nodes: string };

interface DocumentState {
  /** The last layout computed, the graph and shape key it is for, and that graph's nodes key. */
  laid?: { key: string; hash: string; layout: GraphLayout; graph: WorkflowGraph; nodesKey: string };
  /** The one layout in flight for this document. */
  running?: { key: string; done: Promise<Outcome> };
  /** The newest shape waiting for the running one to finish: a newer shape replaces it. */
  queued?: { keys: Keys; graph: WorkflowGraph; done: Deferred<Outcome> };
  /** The last answer computed from a version that parsed. */
  good?: GraphResult;
}

export class GraphViews {
  private readonly docs = new Map<string, DocumentState>();
  /** How many layouts were started (tests count them). */
  layouts = 0;

  constructor(private readonly layouter: Layouter = inThreadLayouter) {}

  /**
   * The answer for `uri` from its newest version (`latest()`, undefined once it is gone). The answer's
   * layout is always that of its own graph's shape: while that layout is computed, newer versions may
   * arrive; when one with another shape replaces the queued layout, the answer starts again from the
   * newest version. Undefined when the document is gone or the request is cancelled.
   *
   * With `provisional`, a shape that differs from the last one laid out only in its edges is answered at
   * once on that layout (patchLayout: the nodes stay, new edges are drawn box to box), marked
   * `provisional`, while its own layout starts; the next request without it gets that layout.
   */
  async answer(uri: string, latest: () => GraphSnapshot | undefined, options: { mermaid?: boolean; token?: Cancellation; provisional?: boolean } = {}): Promise<GraphResult | undefined> {
    for (;;) {
      const snapshot = latest();
      if (!snapshot || options.token?.isCancellationRequested) return undefined;
      const { version, analysis } = snapshot;
      const state = this.state(uri);
      const doc = analysis.document;
      if (doc.parseErrors.length > 0 || doc.tooDeep) {
        const first = doc.parseErrors[0];
        const error = first
          ? { message: first.message, range: first.range }
          : { message: analysis.findings[0]?.message ?? "The document does not parse.", range: doc.rangeAt(0, 0) };
        const base = state.good ?? this.empty(uri, version);
        const result: GraphResult = { ...base, uri, version, parseOk: false, error, laidOut: false };
        if (options.mermaid) result.mermaid = toMermaid(base.graph);
        else delete result.mermaid;
        return result;
      }
      const graph = graphOfAnalysis(analysis)!;
      const keys = graphKeys(graph);
      const key = keys.shape;
      let layout: GraphLayout;
      let laidOut = false;
      let provisional = false;
      let hash: string;
      if (state.laid?.key === key) ({ layout, hash } = state.laid);
      else if (options.provisional && state.laid && state.laid.nodesKey === keys.nodes) {
        // the real layout starts now (a failure shows on the request that waits for it)
        this.waitFor(state, keys, graph, undefined).catch(() => undefined);
        layout = patchLayout(state.laid.layout, state.laid.graph, graph);
        provisional = true;
        hash = hashKey(`provisional|${key}`);
      } else {
        const outcome = await this.waitFor(state, keys, graph, options.token);
        if (outcome === undefined) return undefined; // cancelled
        if (outcome === SUPERSEDED) continue;
        layout = outcome;
        laidOut = true;
        hash = hashKey(key);
      }
      const result: GraphResult = {
        uri, version, parseOk: true, graph, layout, shapeKey: hash, laidOut, selections: selections(analysis, graph.nodes),
      };
      if (provisional) result.provisional = true;
      // answers can complete out of order (one waited for a layout, a later one reused it)
      if (this.docs.get(uri) === state && (!state.good || state.good.version <= version)) state.good = result;
      return options.mermaid ? { ...result, mermaid: toMermaid(graph) } : result;
    }
  }

  forget(uri: string): void {
    this.docs.delete(uri);
  }

  private state(uri: string): DocumentState {
    let state = this.docs.get(uri);
    if (!state) this.docs.set(uri, (state = {}));
    return state;
  }

  /** The layout of shape `key`: the one in flight, the queued one, or a new one (queued behind the running one). */
  private waitFor(state: DocumentState, keys: Keys, graph: WorkflowGraph, token: Cancellation | undefined): Promise<Outcome | undefined> {
    let done: Promise<Outcome>;
    if (state.running?.key === keys.shape) done = state.running.done;
    else if (state.queued?.keys.shape === keys.shape) done = state.queued.done.promise;
    else if (!state.running) done = this.run(state, keys, graph);
    else {
      state.queued?.done.resolve(SUPERSEDED);
      const deferred = defer<Outcome>();
      state.queued = { keys, graph, done: deferred };
      done = deferred.promise;
    }
    if (!token) return done;
    // a cancelled request stops waiting; the layout goes on (the next request for this shape uses it)
    return new Promise<Outcome | undefined>((resolve, reject) => {
      const listener = token.onCancellationRequested(() => resolve(undefined));
      done.then((outcome) => { listener.dispose(); resolve(outcome); }, (error) => { listener.dispose(); reject(error); });
    });
  }

  private run(state: DocumentState, keys: Keys, graph: WorkflowGraph): Promise<Outcome> {
    this.layouts++;
    const key = keys.shape;
    const done: Promise<Outcome> = this.layouter.layout(graph).then(
      (layout) => {
        state.laid = { key, hash: hashKey(key), layout, graph, nodesKey: keys.nodes };
        return layout;
      },
    );
    state.running = { key, done };
    const next = () => {
      if (state.running?.done !== done) return;
      state.running = undefined;
      const queued = state.queued;
      if (!queued) return;
      state.queued = undefined;
      this.run(state, queued.keys, queued.graph).then(queued.done.resolve, queued.done.reject);
    };
    done.then(next, next);
    return done;
  }

  private empty(uri: string, version: number): GraphResult {
    const graph: WorkflowGraph = { nodes: [], edges: [], findings: { errors: 0, warnings: 0, messages: [] } };
    return { uri, version, parseOk: false, graph, layout: { engine: "column", width: 1, height: 1, nodes: [], edges: [] }, shapeKey: hashKey(""), laidOut: false, selections: {} };
  }
}

function defer<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
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
