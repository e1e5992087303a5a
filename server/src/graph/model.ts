// The workflow graph: what the editor's graph view and `lwir graph` draw, built from the parsed
// document value and the analysis' findings. Pure (no Node or DOM APIs), so it runs in the server, the
// CLI, a web worker or the webview alike. Never throws on a partial or invalid document: it draws what
// it can read and keeps broken references as edges to "missing" placeholder nodes.
//
// Node ids: a step id cannot contain ".", "[" or "]" (catalog 3.3), so the id of a body step is its
// parallel step's node id, ".", its own id (like the runtime's step paths), and every node this module
// makes up (the End of a scope, a missing target, a step without a usable id) has "[" in its id: no
// made-up id can equal a step's.
import { isObject, validNeeds, END } from "../lwir/validate";
import { isCycle, stronglyConnected, type Graph } from "../lwir/graph";
import type { PathSegment } from "../lwir/types";

type Obj = Record<string, unknown>;

/** What a node stands for. */
export type GraphNodeKind =
  /** A step of the document (any `uses`, including parallel containers and decisions). */
  | "step"
  /** The end of a scope: a decision's `to: "end"`; one per scope that has such a target. */
  | "end"
  /** A `needs` entry or decision target naming no step: the placeholder its dangling edge points to. */
  | "missing";

export interface GraphFindings {
  errors: number;
  warnings: number;
  /** Messages of every finding on the step (errors first, in document order), for hovers and titles. */
  messages: string[];
}

export interface GraphNode {
  /** Unique in the graph: the step id at the top level, `parent.child` in a parallel body, `[…]` for made-up nodes. */
  id: string;
  kind: GraphNodeKind;
  /** The step's own id as written (a string); for an End node "end"; for a missing node the name referenced. */
  stepId?: string;
  /** The text to show: the step id, "end", the missing name, or `steps[i]` for a step without a usable id. */
  label: string;
  /** The step's `uses` when it is a string (any string: an unknown type is still drawn). */
  uses?: string;
  /** The node id of the enclosing parallel step, or "" at the top level. */
  scope: string;
  /** Same as scope inside a parallel body (the compound parent for layout); absent at the top level. */
  parent?: string;
  /** ai.generate: `with.model`. */
  model?: string;
  /** tool.call: `with.tool`. */
  tool?: string;
  /** code.run: `with.entrypoint`. */
  entrypoint?: string;
  /** `output.mode` when it is a string. */
  outputMode?: string;
  /** `maxVisits` when it is a number. */
  maxVisits?: number;
  /** Parallel step: its body is drawn inside it. */
  container?: boolean;
  /** Parallel step: the fan-out, `with.items` (and `with.itemKey`) as written. */
  item?: { items?: string; itemKey?: string };
  /** Parallel step: the fan-in, `with.fanIn` fields that are strings. */
  fanIn?: { order?: string; output?: string; outputStep?: string };
  /** Body step named by its parallel step's `fanIn.outputStep`: its lastOutput is the branch's contribution. */
  fanInOutput?: boolean;
  /** Why a step node is not in the flow graph: a second step with the same id, or an id the format rejects. */
  problem?: "duplicateId" | "invalidId";
  findings: GraphFindings;
  /** Decision: its cases that name a target, in text order (drawn as the node's case list), and its default. */
  cases?: GraphCase[];
  defaultTo?: string;
  /** Path of the step object in the document value, e.g. ["steps", 2, "steps", 0] (absent on made-up nodes). */
  path?: PathSegment[];
  /** The step's range in the text, when the caller gave `rangeOf`. */
  range?: GraphRange;
}

/** A decision's case as its node lists it. */
export interface GraphCase {
  /** Its index in `with.cases` (what moveCase takes). */
  index: number;
  /** The target as written ("end" included). */
  to: string;
  /** The `when` as written, when it is a string. */
  when?: string;
  /** The case's range in the text, when the caller gave `rangeOf`. */
  range?: GraphRange;
}

export type GraphEdgeKind =
  /** `to` lists `from` in its needs. */
  | "needs"
  /** A decision case routes `from` to `to`; label = the case's `when`, shortened. */
  | "transition"
  /** A decision's `default` routes `from` to `to`; label "default". */
  | "default"
  /** A decision case or default routes to "end": `to` is the scope's End node; label = the case or "default". */
  | "end";

export interface GraphEdge {
  from: string;
  to: string;
  kind: GraphEdgeKind;
  label?: string;
  /** Decision edges: the index of the case in `with.cases`; absent for the default. */
  caseIndex?: number;
  /** The full `when` of a case edge (the label is shortened). */
  when?: string;
  /** A loop's back edge: its target can reach its source (a decision routing back), or a needs edge closing a cycle. */
  back?: boolean;
  /** The reference names no step in scope: `to` (or `from`, for needs) is a "missing" node. */
  dangling?: boolean;
}

export interface GraphRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface WorkflowGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Findings on no step (the document's top level, permissions, …). */
  findings: GraphFindings;
}

/** A finding as the graph reads it: the analysis' findings and diagnostics both fit. */
export interface GraphFindingInput {
  segments: readonly PathSegment[];
  message: string;
  code?: string;
  /** Absent: an error (every runtime finding is one). */
  severity?: "error" | "warning" | "info" | "hint";
}

export interface BuildGraphOptions {
  findings?: readonly GraphFindingInput[];
  /** Range of a path in the text (e.g. `document.findingRange`), to put on step nodes. */
  rangeOf?: (segments: PathSegment[]) => GraphRange | undefined;
  /** Case labels longer than this many characters are cut with "…" (default 40). */
  labelLength?: number;
}

/** Made-up node ids (see the note at the top). */
export function endNodeId(scope: string): string {
  return scope === "" ? "[end]" : `${scope}.[end]`;
}
export function missingNodeId(scope: string, name: string): string {
  return `${scope === "" ? "" : `${scope}.`}[missing]${name}`;
}

/** A `when` template as a short edge label: `{{ }}` stripped, whitespace collapsed, cut at `max` characters. */
export function shortenWhen(when: string, max = 40): string {
  let s = when.trim();
  const m = /^\{\{([\s\S]*)\}\}$/.exec(s);
  if (m && !m[1].includes("{{")) s = m[1].trim();
  s = s.replace(/\s+/g, " ");
  if (s.startsWith("steps.")) s = s.slice("steps.".length);
  if (s.length > max) s = `${s.slice(0, Math.max(1, max - 1))}…`;
  return s;
}

interface ScopeStep {
  node: GraphNode;
  step: Obj;
  /** Index in this scope's flow graph, for steps in the flow graph (first of their id). */
  flow: number;
}

interface Scope {
  id: string;
  entries: unknown[];
  segments: PathSegment[];
  /** Steps of enclosing lists this scope may name in needs (through its parallel step's needs). */
  external: Map<string, GraphNode>;
  parentStep?: Obj;
}

/**
 * The graph of a parsed document value. `value` may be anything (null, an array, a workflow missing
 * its steps…); nodes and edges are listed in document order, scope by scope, so the result is
 * deterministic.
 */
export function buildGraph(value: unknown, options: BuildGraphOptions = {}): WorkflowGraph {
  const graph: WorkflowGraph = { nodes: [], edges: [], findings: emptyFindings() };
  const byPath = new Map<string, GraphNode>();
  const missing = new Set<string>();
  const ends = new Set<string>();
  const labelLength = options.labelLength ?? 40;
  if (isObject(value) && Array.isArray(value.steps)) {
    const queue: Scope[] = [{ id: "", entries: value.steps, segments: ["steps"], external: new Map() }];
    // Breadth-first over scopes keeps the walk iterative; nodes are reordered to document order at the end.
    for (let head = 0; head < queue.length; head++) {
      const scope = queue[head];
      const prefix = scope.id === "" ? "" : `${scope.id}.`;
      const declared = new Map<string, ScopeStep>();
      const steps: ScopeStep[] = [];
      const flow: ScopeStep[] = [];
      const fanInStep = scope.parentStep && isObject(scope.parentStep.with) && isObject(scope.parentStep.with.fanIn)
        && typeof scope.parentStep.with.fanIn.outputStep === "string" ? scope.parentStep.with.fanIn.outputStep : undefined;
      scope.entries.forEach((entry, i) => {
        if (!isObject(entry)) return;
        const segments = [...scope.segments, i];
        const rawId = entry.id;
        const usable = typeof rawId === "string" && rawId.length > 0 && !/[.[\]]/.test(rawId) && !rawId.includes("@attempt_");
        const first = usable && !declared.has(rawId);
        const id = first ? `${prefix}${rawId}` : `${prefix}steps[${i}]`;
        const node: GraphNode = {
          id, kind: "step", label: usable ? rawId : typeof rawId === "string" && rawId.length > 0 ? rawId : `steps[${i}]`,
          scope: scope.id, findings: emptyFindings(), path: segments,
        };
        if (typeof rawId === "string") node.stepId = rawId;
        if (scope.id !== "") node.parent = scope.id;
        if (!usable) node.problem = "invalidId";
        else if (!first) node.problem = "duplicateId";
        describeStep(node, entry);
        if (first && fanInStep === rawId) node.fanInOutput = true;
        if (options.rangeOf) {
          const range = safe(() => options.rangeOf!(segments));
          if (range) node.range = range;
        }
        const s: ScopeStep = { node, step: entry, flow: -1 };
        if (first) {
          s.flow = flow.length;
          flow.push(s);
          declared.set(rawId, s);
        }
        steps.push(s);
        graph.nodes.push(node);
        byPath.set(pathKey(segments), node);
      });

      const flowGraph: Graph = flow.map(() => []);
      const scopeEdges: Array<{ edge: GraphEdge; from: number; to: number }> = [];
      const add = (edge: GraphEdge, from = -1, to = -1) => {
        scopeEdges.push({ edge, from, to });
        if (from >= 0 && to >= 0) flowGraph[from].push(to);
      };
      const missingNode = (name: string): string => {
        const id = missingNodeId(scope.id, name);
        if (!missing.has(id)) {
          missing.add(id);
          const node: GraphNode = { id, kind: "missing", stepId: name, label: name, scope: scope.id, findings: emptyFindings() };
          if (scope.id !== "") node.parent = scope.id;
          graph.nodes.push(node);
        }
        return id;
      };
      const endNode = (): string => {
        const id = endNodeId(scope.id);
        if (!ends.has(id)) {
          ends.add(id);
          const node: GraphNode = { id, kind: "end", stepId: END, label: END, scope: scope.id, findings: emptyFindings() };
          if (scope.id !== "") node.parent = scope.id;
          graph.nodes.push(node);
        }
        return id;
      };

      for (const s of steps) {
        // Duplicates and steps without a usable id are drawn but, as in the validator, are not in the flow graph.
        if (s.flow < 0) continue;
        for (const need of validNeeds(s.step.needs)) {
          const from = declared.get(need);
          if (from) add({ from: from.node.id, to: s.node.id, kind: "needs" }, from.flow, s.flow);
          else {
            const outer = scope.external.get(need);
            if (outer) add({ from: outer.id, to: s.node.id, kind: "needs" });
            else add({ from: missingNode(need), to: s.node.id, kind: "needs", dangling: true });
          }
        }
        if (s.step.uses === "decision" && isObject(s.step.with)) {
          const w = s.step.with;
          const route = (to: string, kind: "transition" | "default", label: string, caseIndex?: number, when?: string) => {
            const edge: GraphEdge = { from: s.node.id, to: "", kind, label };
            if (caseIndex !== undefined) edge.caseIndex = caseIndex;
            if (when !== undefined) edge.when = when;
            if (to === END) {
              edge.kind = "end";
              edge.to = endNode();
              add(edge);
            } else {
              const target = declared.get(to);
              if (target) {
                edge.to = target.node.id;
                add(edge, s.flow, target.flow);
              } else {
                edge.to = missingNode(to);
                edge.dangling = true;
                add(edge);
              }
            }
          };
          if (Array.isArray(w.cases)) {
            const listed: GraphCase[] = [];
            w.cases.forEach((c, k) => {
              if (isObject(c) && typeof c.to === "string" && c.to.length > 0) {
                const when = typeof c.when === "string" ? c.when : undefined;
                const item: GraphCase = { index: k, to: c.to };
                if (when !== undefined) item.when = when;
                if (options.rangeOf && s.node.path) {
                  const range = safe(() => options.rangeOf!([...s.node.path!, "with", "cases", k]));
                  if (range) item.range = range;
                }
                listed.push(item);
                route(c.to, "transition", when !== undefined ? shortenWhen(when, labelLength) : `case ${k + 1}`, k, when);
              }
            });
            if (listed.length > 0) s.node.cases = listed;
          }
          if (typeof w.default === "string" && w.default.length > 0) {
            s.node.defaultTo = w.default;
            route(w.default, "default", "default");
          }
        }
      }
      markBackEdges(flowGraph, scopeEdges, flow);
      for (const e of scopeEdges) graph.edges.push(e.edge);

      // Parallel bodies become scopes of their own, seeing the parent's needs declared in this list.
      for (const s of steps) {
        if (s.step.uses !== "parallel" || !Array.isArray(s.step.steps)) continue;
        const external = new Map(scope.external);
        if (s.flow >= 0) {
          for (const need of validNeeds(s.step.needs)) {
            const d = declared.get(need);
            if (d) external.set(need, d.node);
          }
        }
        queue.push({ id: s.node.id, entries: s.step.steps, segments: [...(s.node.path ?? []), "steps"], external, parentStep: s.step });
      }
    }
  }
  attachFindings(graph, byPath, options.findings ?? []);
  orderNodes(graph);
  return graph;
}

/** The per-step facts drawn on a node, from whatever the step holds (wrong types are left out). */
function describeStep(node: GraphNode, step: Obj): void {
  if (typeof step.uses === "string") node.uses = step.uses;
  const w = isObject(step.with) ? step.with : undefined;
  if (w && step.uses === "ai.generate" && typeof w.model === "string") node.model = w.model;
  if (w && step.uses === "tool.call" && typeof w.tool === "string") node.tool = w.tool;
  if (w && step.uses === "code.run" && typeof w.entrypoint === "string") node.entrypoint = w.entrypoint;
  if (isObject(step.output) && typeof step.output.mode === "string") node.outputMode = step.output.mode;
  if (typeof step.maxVisits === "number" && Number.isFinite(step.maxVisits)) node.maxVisits = step.maxVisits;
  if (step.uses === "parallel" && Array.isArray(step.steps)) {
    node.container = true;
    if (w) {
      const item: { items?: string; itemKey?: string } = {};
      if (typeof w.items === "string") item.items = w.items;
      if (typeof w.itemKey === "string") item.itemKey = w.itemKey;
      node.item = item;
      if (isObject(w.fanIn)) {
        const fanIn: { order?: string; output?: string; outputStep?: string } = {};
        if (typeof w.fanIn.order === "string") fanIn.order = w.fanIn.order;
        if (typeof w.fanIn.output === "string") fanIn.output = w.fanIn.output;
        if (typeof w.fanIn.outputStep === "string") fanIn.outputStep = w.fanIn.outputStep;
        node.fanIn = fanIn;
      }
    }
  }
}

/**
 * Back edges of one scope: a decision edge whose target reaches the decision (the spec's loop back
 * edge: both ends in one strongly connected component), then, if needs edges still close a cycle (an invalid document), the edges a depth-first walk
 * in document order finds going back. What is left is acyclic, so a layered layout keeps every
 * forward edge pointing down.
 */
function markBackEdges(flowGraph: Graph, edges: Array<{ edge: GraphEdge; from: number; to: number }>, flow: ScopeStep[]): void {
  if (flow.length === 0) return;
  const components = stronglyConnected(flowGraph);
  const component = new Int32Array(flow.length);
  let anyCycle = false;
  components.forEach((c, k) => {
    for (const v of c) component[v] = k;
    if (isCycle(flowGraph, c)) anyCycle = true;
  });
  if (!anyCycle) return;
  const rest: Graph = flow.map(() => []);
  for (const e of edges) {
    if (e.from < 0 || e.to < 0) continue;
    // an edge from → to lies on a cycle exactly when both ends are in one strongly connected component
    if (e.edge.kind !== "needs" && component[e.from] === component[e.to] && (e.from !== e.to || isCycle(flowGraph, [e.from]))) {
      e.edge.back = true;
    } else rest[e.from].push(e.to);
  }
  // Iterative DFS over what is left; an edge to a node on the stack is a back edge.
  const state = new Uint8Array(flow.length); // 0 new, 1 on stack, 2 done
  const backPairs = new Set<number>();
  for (let root = 0; root < flow.length; root++) {
    if (state[root] !== 0) continue;
    const stack = [root];
    const next = [0];
    state[root] = 1;
    while (stack.length > 0) {
      const v = stack[stack.length - 1];
      const k = next[next.length - 1]++;
      if (k < rest[v].length) {
        const w = rest[v][k];
        if (state[w] === 1) backPairs.add(v * flow.length + w);
        else if (state[w] === 0) { state[w] = 1; stack.push(w); next.push(0); }
      } else {
        state[v] = 2;
        stack.pop();
        next.pop();
      }
    }
  }
  if (backPairs.size === 0) return;
  for (const e of edges) {
    if (e.from >= 0 && e.to >= 0 && !e.edge.back && backPairs.has(e.from * flow.length + e.to)) e.edge.back = true;
  }
}

function emptyFindings(): GraphFindings {
  return { errors: 0, warnings: 0, messages: [] };
}

function pathKey(segments: readonly PathSegment[]): string {
  return JSON.stringify(segments);
}

/** Each finding goes to the innermost step whose path starts its path; the rest are the document's. */
function attachFindings(graph: WorkflowGraph, byPath: Map<string, GraphNode>, findings: readonly GraphFindingInput[]): void {
  const errorsFirst: Array<{ f: GraphFindingInput; target: GraphFindings }> = [];
  for (const f of findings) {
    const segments = Array.isArray(f.segments) ? f.segments : [];
    let target: GraphFindings = graph.findings;
    for (let n = segments.length; n >= 2; n--) {
      if (typeof segments[n - 1] !== "number" || segments[n - 2] !== "steps") continue;
      const node = byPath.get(pathKey(segments.slice(0, n)));
      if (node) { target = node.findings; break; }
    }
    errorsFirst.push({ f, target });
  }
  for (const pass of [true, false]) {
    for (const { f, target } of errorsFirst) {
      const isError = (f.severity ?? "error") === "error";
      if (isError !== pass) continue;
      if (isError) target.errors++;
      else if (f.severity === "warning") target.warnings++;
      target.messages.push(f.code ? `${f.message} (${f.code})` : f.message);
    }
  }
}

/** Nodes in document order: each step followed by its body, then its scope's made-up nodes after its steps. */
function orderNodes(graph: WorkflowGraph): void {
  const children = new Map<string, GraphNode[]>();
  for (const node of graph.nodes) {
    const list = children.get(node.scope);
    if (list) list.push(node);
    else children.set(node.scope, [node]);
  }
  const ordered: GraphNode[] = [];
  const stack: GraphNode[] = [...(children.get("") ?? [])].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    ordered.push(node);
    const kids = node.kind === "step" ? children.get(node.id) : undefined;
    if (kids) for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  graph.nodes = ordered;
}

function safe<T>(f: () => T): T | undefined {
  try { return f(); } catch { return undefined; }
}

/**
 * A key that changes exactly when the drawing's shape changes: nodes (id, label, parent, what sizes
 * them) and edges (ends, kind, label, back). Findings, ranges and messages are left out, so an edit
 * that changes none of these can reuse the last layout (`layoutGraph` is the expensive part). Each field
 * is written with its length in front, so no id or label can make two shapes give the same key.
 */
export function graphShapeKey(graph: WorkflowGraph): string {
  return graphKeys(graph).shape;
}

/** graphShapeKey and graphNodesKey of one graph, the nodes' part written once. */
export function graphKeys(graph: WorkflowGraph): { shape: string; nodes: string } {
  const nodes = graphNodesKey(graph);
  return { shape: `${nodes}|${graphEdgesKey(graph)}`, nodes };
}

/** A key field: its length in front. */
const field = (s: string) => `${s.length}:${s}`;

/** The part of graphShapeKey that the nodes make: equal when only edges differ (layout.ts patchLayout). */
export function graphNodesKey(graph: WorkflowGraph): string {
  const parts: string[] = [];
  for (const n of graph.nodes) {
    parts.push("n", field(n.id), n.kind, field(n.label), field(n.parent ?? ""), field(n.uses ?? ""), field(n.model ?? n.tool ?? n.entrypoint ?? ""),
      field(n.outputMode ?? ""), String(n.maxVisits ?? ""), n.container ? "c" : "-", field(n.item?.items ?? ""));
    // a decision's case list sizes its node (layout.ts)
    if (n.cases || n.defaultTo !== undefined) {
      parts.push("cases", String(n.cases?.length ?? 0), field(n.defaultTo ?? ""));
      for (const c of n.cases ?? []) parts.push(String(c.index), field(c.to), field(c.when ?? ""));
    }
  }
  return parts.join("|");
}

function graphEdgesKey(graph: WorkflowGraph): string {
  const parts: string[] = [];
  for (const e of graph.edges) parts.push("e", field(e.from), field(e.to), e.kind, field(e.label ?? ""), e.back ? "b" : "-");
  return parts.join("|");
}
