// Editing the workflow from its graph (the `lwir/graphEdit` request, protocol.ts): each graph action
// becomes text edits of the document, made with the quick fixes' helpers (edits.ts), so the author's
// formatting and comments stay and an editor applies the action as one undoable edit. The text stays the
// one source of truth: nothing is regenerated, and a refused action says why.
//
// Steps are named by their node ids in the graph model (graph/model.ts): `id` at the top level,
// `parallel.child` in a parallel body.
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-types";
import { parseDocument } from "../document/document";
import { buildGraph, type GraphNode, type WorkflowGraph } from "../graph/model";
import { isCycle, stronglyConnected, type Graph } from "../lwir/graph";
import { pathOfSegments, pathString, valueAt } from "../lwir/path";
import type { PathSegment } from "../lwir/types";
import { STEP_TYPES, isObject, validateLwir, visitsEnoughForCycle } from "../lwir/validate";
import type { GraphEditAction, GraphEditReferrer, GraphEditRefusal } from "../protocol";
import type { Analysis } from "./analysis";
import {
  addNeedsEntries, addProperty, applyEdits, insertArrayItem, moveArrayElement, removeArrayElements, removeProperty, setProperty,
  type ItemLayout, type OffsetEdit,
} from "./edits";
import { occurrencesOfStep, navigationIndex } from "./references";
import { arr, expandSnippet, obj, renderItem, renderValue, stepSnippet, str, type Snip } from "./snippets";
import { factsOf } from "./stepFacts";

type Obj = Record<string, unknown>;

/** An action's edits, or why it is refused. */
export type GraphEditOutcome = { edits: OffsetEdit[] } | { refused: string; data: GraphEditRefusal };

/** The `when` of a case added by connect: a placeholder for the author, false until edited so routing is unchanged. */
export const CASE_WHEN_PLACEHOLDER = "{{ false }}";

/** The action's edits as a WorkspaceEdit of `uri`. */
export function graphEditWorkspaceEdit(analysis: Analysis, uri: string, action: GraphEditAction): { edit: WorkspaceEdit } | { refused: string; data: GraphEditRefusal } {
  const outcome = graphEdit(analysis, action);
  if ("refused" in outcome) return outcome;
  const doc = analysis.document;
  const edits: TextEdit[] = [...outcome.edits].sort((a, b) => a.start - b.start)
    .map((e) => ({ range: doc.rangeAt(e.start, e.end), newText: e.newText }));
  return { edit: { changes: { [uri]: edits } } };
}

class Refusal extends Error {
  constructor(message: string, readonly data: GraphEditRefusal = { reason: "invalid" }) {
    super(message);
  }
}

/** The edits of one graph action on an analysed document. */
export function graphEdit(analysis: Analysis, action: GraphEditAction): GraphEditOutcome {
  try {
    const doc = analysis.document;
    if (doc.parseErrors.length > 0 || doc.tooDeep) throw new Refusal("The document does not parse: fix its syntax first.");
    const ctx = new EditContext(analysis);
    const edits = ordered(ctx.run(action));
    // a safety net: an action never leaves text that does not parse (a YAML anchor's definition removed, say)
    if (parseDocument(applyEdits(doc.text, edits), doc.format).parseErrors.length > 0) {
      throw new Refusal("The edited text would not parse; make this change in the text.");
    }
    return { edits };
  } catch (error) {
    if (error instanceof Refusal) return { refused: error.message, data: error.data };
    throw error;
  }
}

/**
 * The edits in text order, insertions at one offset joined into one (in the order they were made), so
 * an editor applying a WorkspaceEdit and applyEdits give the same text.
 */
function ordered(edits: OffsetEdit[]): OffsetEdit[] {
  const out: OffsetEdit[] = [];
  for (const e of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const last = out[out.length - 1];
    if (last && last.start === last.end && e.start === e.end && last.start === e.start) last.newText += e.newText;
    else out.push({ ...e });
  }
  return out;
}

const q = (s: string) => JSON.stringify(s);

/** What an edit helper answers when the text is not in a shape it edits safely. */
function must(edits: OffsetEdit[] | undefined, what: string): OffsetEdit[] {
  if (!edits) throw new Refusal(`Cannot ${what}: that part of the text is not in a shape the graph edits safely (a YAML alias or anchor, say).`);
  return edits;
}

class EditContext {
  readonly graph: WorkflowGraph;
  private readonly nodes = new Map<string, GraphNode>();
  private readonly byPath = new Map<string, GraphNode>();

  constructor(private readonly analysis: Analysis) {
    this.graph = buildGraph(analysis.document.value);
    for (const node of this.graph.nodes) {
      this.nodes.set(node.id, node);
      if (node.path) this.byPath.set(JSON.stringify(node.path), node);
    }
  }

  run(action: GraphEditAction): OffsetEdit[] {
    switch (action.kind) {
      case "connect": return this.connect(action.from, action.to, action.as, action.acceptLoop);
      case "disconnect": return this.disconnect(action.from, action.to, action.edge);
      case "addStep": return this.addStep(action.uses, action.after, action.parent);
      case "deleteStep": return this.deleteStep(action.id, action.references);
      case "moveCase": return this.moveCase(action.step, action.from, action.to);
      default: throw new Refusal(`Unknown graph action ${JSON.stringify((action as { kind?: unknown }).kind)}.`);
    }
  }

  private get doc() {
    return this.analysis.document;
  }

  /** A step node by id (any step, or only one in the flow graph: a first, valid id). */
  private step(id: unknown, what: string, flow = true): GraphNode & { path: PathSegment[]; stepId: string } {
    if (typeof id !== "string") throw new Refusal(`The ${what} must be a step id (a string).`);
    const node = this.nodes.get(id);
    if (!node || node.kind !== "step" || !node.path) throw new Refusal(`There is no step ${q(id)} in this workflow.`);
    if (flow && node.problem) {
      throw new Refusal(`Step ${q(node.label)} is not in the graph's flow: ${node.problem === "duplicateId" ? "another step before it has the same id" : "its id is not valid"}.`);
    }
    return node as GraphNode & { path: PathSegment[]; stepId: string };
  }

  private value(node: GraphNode): Obj {
    return valueAt(this.doc.value, node.path!) as Obj;
  }

  /** The node ids of a step's scope's flow graph (its list's steps with first, valid ids) and its edges. */
  private scopeGraph(scope: string): { ids: string[]; graph: Graph; index: Map<string, number> } {
    const ids = this.graph.nodes.filter((n) => n.kind === "step" && n.scope === scope && !n.problem).map((n) => n.id);
    const index = new Map(ids.map((id, i) => [id, i]));
    const graph: Graph = ids.map(() => []);
    for (const e of this.graph.edges) {
      const a = index.get(e.from);
      const b = index.get(e.to);
      if (a !== undefined && b !== undefined) graph[a].push(b);
    }
    return { ids, graph, index };
  }

  // ---- connect ------------------------------------------------------------------------------------

  connect(fromId: string, toId: string, as: unknown, acceptLoop: unknown = false): OffsetEdit[] {
    const from = this.step(fromId, "source");
    const to = this.step(toId, "target");
    if (as !== undefined && as !== "case" && as !== "default") throw new Refusal(`as must be "case" or "default".`);
    if (acceptLoop !== undefined && typeof acceptLoop !== "boolean") throw new Refusal(`acceptLoop must be true or false.`);
    let edits: OffsetEdit[];
    if (from.uses === "decision") edits = this.route(from, to, as);
    else {
      if (as !== undefined) throw new Refusal(`Step ${q(from.label)} is not a decision: as applies to a decision's routes only.`);
      edits = this.addNeeds(from, to);
    }
    if (from.scope !== to.scope) return edits; // a needs edge to a body step from outside: no loop within a list
    return [...edits, ...this.loop(from, to, edits, acceptLoop === true)];
  }

  private addNeeds(from: GraphNode & { stepId: string }, to: GraphNode & { path: PathSegment[] }): OffsetEdit[] {
    if (!this.visibleFrom(to.scope, from)) {
      const parent = this.nodes.get(to.scope);
      throw new Refusal(from.scope === to.scope || !parent
        ? `Step ${q(to.label)} cannot need ${q(from.label)}: it is not a step of its list.`
        : `Step ${q(to.label)} is in the body of parallel step ${q(parent.label)}: it can need steps of that body, and steps outside only when ${q(parent.label)} needs them.`);
    }
    const step = this.value(to);
    const needs = step.needs;
    if (needs !== undefined && !Array.isArray(needs)) throw new Refusal(`The needs of step ${q(to.label)} is not a list: fix it in the text first.`);
    if (Array.isArray(needs) && needs.includes(from.stepId)) throw new Refusal(`Step ${q(to.label)} already needs ${q(from.label)}.`);
    return must(addNeedsEntries(this.doc, to.path, [from.stepId]), `add to the needs of step ${q(to.label)}`);
  }

  /** Can a needs entry of a step in `scope` name `node`? Its own list, else what its parallel step needs (and so on outward); a same id in the own list shadows. */
  private visibleFrom(scope: string, node: GraphNode & { stepId: string }): boolean {
    if (node.scope === scope) return true;
    const shadow = this.graph.nodes.some((n) => n.kind === "step" && n.scope === scope && !n.problem && n.stepId === node.stepId);
    if (shadow || scope === "") return false;
    const parent = this.nodes.get(scope);
    if (!parent) return false;
    const parentNeeds = this.value(parent).needs;
    if (node.scope === parent.scope) return Array.isArray(parentNeeds) && parentNeeds.includes(node.stepId);
    return this.visibleFrom(parent.scope, node);
  }

  private route(from: GraphNode & { path: PathSegment[]; stepId: string }, to: GraphNode & { stepId: string }, as: unknown): OffsetEdit[] {
    if (from.scope !== to.scope) throw new Refusal(`Decision ${q(from.label)} can route only to steps of its own list, and ${q(to.label)} is not one.`);
    const w = this.value(from).with;
    if (!isObject(w)) throw new Refusal(`Decision ${q(from.label)} has no with object: write its cases first.`);
    const cases = w.cases;
    if (cases !== undefined && !Array.isArray(cases)) throw new Refusal(`The cases of decision ${q(from.label)} are not a list: fix them in the text first.`);
    const routes = (Array.isArray(cases) ? cases : []).some((c) => isObject(c) && c.to === to.stepId) || w.default === to.stepId;
    if (routes) throw new Refusal(`Decision ${q(from.label)} already routes to ${q(to.label)}.`);
    const withPath = [...from.path, "with"];
    const hasDefault = w.default !== undefined;
    if (as === undefined && !hasDefault) {
      throw new Refusal(`Decision ${q(from.label)} has no default: the edge to ${q(to.label)} can be a new case or the default; say which (as: "case" or "default").`,
        { reason: "ambiguous", choices: ["case", "default"] });
    }
    if (as === "default") {
      if (hasDefault) throw new Refusal(`Decision ${q(from.label)} already has a default (${JSON.stringify(w.default)}): disconnect it first.`);
      return must(addProperty(this.doc, withPath, "default", to.stepId), `add a default to decision ${q(from.label)}`);
    }
    const newCase = { when: CASE_WHEN_PLACEHOLDER, to: to.stepId };
    if (cases === undefined) return must(addProperty(this.doc, withPath, "cases", [newCase], { first: true }), `add cases to decision ${q(from.label)}`);
    const snip = obj([["when", str(newCase.when)], ["to", str(newCase.to)]], false);
    return must(insertArrayItem(this.doc, [...withPath, "cases"], cases.length, (layout) => renderPlain(snip, layout, layout.inline)),
      `add a case to decision ${q(from.label)}`);
  }

  /**
   * The edge from → to (already in `edits`) may close a loop. Every step of a loop must be allowed to run
   * at least twice and a decision must be on it to leave it (catalog 3.4, the validator's cycles()): a
   * loop without one is refused; with one, its steps that lack it get the loop's maxVisits (the largest
   * already written on it, else 2). The result must then have no finding the document did not have.
   * Such an edge is only offered (a "loop" refusal naming the loop and the maxVisits) until the action
   * says `acceptLoop: true`: a loop changes how often steps run, so the user confirms it.
   */
  private loop(from: GraphNode, to: GraphNode, edits: OffsetEdit[], accept: boolean): OffsetEdit[] {
    const { ids, graph, index } = this.scopeGraph(from.scope);
    const a = index.get(from.id)!;
    const b = index.get(to.id)!;
    graph[a].push(b);
    const component = stronglyConnected(graph).find((c) => c.includes(a) && c.includes(b));
    if (!component || !isCycle(graph, component)) return [];
    const node = (i: number) => this.nodes.get(ids[i])!;
    const loopPath = () => shortestPath(graph, b, a);
    const loopText = () => {
      const path = loopPath().map((i) => node(i).label);
      return [...path, path[0]].map(q).join(" → ");
    };
    const rest = component.filter((i) => node(i).uses !== "decision");
    const local = new Map(rest.map((n, i) => [n, i]));
    const sub: Graph = rest.map((n) => graph[n].filter((w) => local.has(w)).map((w) => local.get(w)!));
    const closed = stronglyConnected(sub).find((part) => isCycle(sub, part));
    if (closed) {
      const labels = closed.map((i) => node(rest[i]).label);
      throw new Refusal(`Connecting ${q(from.label)} to ${q(to.label)} would close the loop ${loopText()}, and no decision step on it could leave it (${labels.map(q).join(", ")} would wait for each other forever).`,
        { reason: "cycle", cycle: closed.map((i) => rest[i]).map((i) => ids[i]) });
    }
    const members = component.map((i) => ({ node: node(i), step: this.value(node(i)) }));
    const written = members.map((m) => m.step.maxVisits).filter((v): v is number => Number.isInteger(v) && (v as number) >= 2 && (v as number) <= 100);
    const visits = written.length > 0 ? Math.max(...written) : 2;
    const more: OffsetEdit[] = [];
    for (const m of members) {
      if (visitsEnoughForCycle(m.step)) continue;
      more.push(...must(setProperty(this.doc, m.node.path!, "maxVisits", visits, { after: ["id", "uses"] }), `set maxVisits on step ${q(m.node.label)}`));
    }
    const added = this.newFindings([...edits, ...more]);
    if (added.length > 0) {
      throw new Refusal(`Connecting ${q(from.label)} to ${q(to.label)} closes the loop ${loopText()}, which needs maxVisits ${visits} on ${members.filter((m) => !visitsEnoughForCycle(m.step)).map((m) => q(m.node.label)).join(", ")}; `
        + `but then: ${added.join(" ")}`, { reason: "invalid" });
    }
    if (!accept) {
      const lacking = members.filter((m) => !visitsEnoughForCycle(m.step)).map((m) => m.node);
      const needs = lacking.length > 0 ? `it needs maxVisits ${visits} on ${lacking.map((n) => q(n.label)).join(", ")}` : "its steps allow enough visits already";
      throw new Refusal(`Connecting ${q(from.label)} to ${q(to.label)} closes the loop ${loopText()}; ${needs}. Send the action again with acceptLoop: true to add the edge${lacking.length > 0 ? " and the maxVisits" : ""}.`,
        { reason: "loop", loop: loopPath().map((i) => ids[i]), maxVisits: visits, steps: lacking.map((n) => n.id) });
    }
    return more;
  }

  /** Messages of the findings the edited text has and the document has not (a multiset by code and message). */
  private newFindings(edits: OffsetEdit[]): string[] {
    const text = applyEdits(this.doc.text, ordered(edits));
    const parsed = parseDocument(text, this.doc.format);
    if (parsed.parseErrors.length > 0) return ["the edited text does not parse."];
    const key = (f: { code: string; message: string }) => `${f.code}\u0000${f.message}`;
    const before = new Map<string, number>();
    for (const f of this.analysis.findings) before.set(key(f), (before.get(key(f)) ?? 0) + 1);
    const out: string[] = [];
    for (const f of validateLwir(parsed.value, { plainData: true }).findings) {
      const n = before.get(key(f)) ?? 0;
      if (n > 0) before.set(key(f), n - 1);
      else out.push(f.message);
    }
    return out;
  }

  // ---- disconnect ---------------------------------------------------------------------------------

  disconnect(fromId: string, toId: string, choice: unknown): OffsetEdit[] {
    const from = this.step(fromId, "source");
    const to = this.step(toId, "target");
    const candidates: Array<"needs" | "default" | number> = [];
    const toStep = this.value(to);
    if (Array.isArray(toStep.needs) && toStep.needs.includes(from.stepId) && this.visibleFrom(to.scope, from)) candidates.push("needs");
    const w = from.uses === "decision" && from.scope === to.scope ? this.value(from).with : undefined;
    if (isObject(w)) {
      if (Array.isArray(w.cases)) w.cases.forEach((c, k) => { if (isObject(c) && c.to === to.stepId) candidates.push(k); });
      if (w.default === to.stepId) candidates.push("default");
    }
    if (candidates.length === 0) throw new Refusal(`There is no edge from ${q(from.label)} to ${q(to.label)}.`);
    if (choice !== undefined && !candidates.includes(choice as never)) {
      throw new Refusal(`The edge from ${q(from.label)} to ${q(to.label)} is ${candidates.map(describeEdge).join(" or ")}, not ${describeEdge(choice as never)}.`,
        { reason: "ambiguous", choices: candidates });
    }
    if (choice === undefined && candidates.length > 1) {
      throw new Refusal(`Several edges go from ${q(from.label)} to ${q(to.label)}: ${candidates.map(describeEdge).join(", ")}; say which (edge).`,
        { reason: "ambiguous", choices: candidates });
    }
    const chosen = (choice ?? candidates[0]) as "needs" | "default" | number;
    if (chosen === "needs" && to.container) {
      // body steps may need `from` through this entry: the edge to them would go too
      const through = this.graph.edges.filter((e) => e.kind === "needs" && e.from === from.id && this.nodes.get(e.to)?.scope.startsWith(to.id + "."));
      const direct = this.graph.edges.filter((e) => e.kind === "needs" && e.from === from.id && this.nodes.get(e.to)?.scope === to.id);
      const inside = [...direct, ...through].map((e) => q(this.nodes.get(e.to)!.label));
      if (inside.length > 0) {
        throw new Refusal(`Steps in the body of ${q(to.label)} (${inside.join(", ")}) need ${q(from.label)} through this needs entry: disconnect them first.`);
      }
    }
    if (chosen === "needs") return removeNeedsOf(this, to.path, toStep.needs as unknown[], from.stepId, to.label);
    if (chosen === "default") return must(removeProperty(this.doc, [...from.path, "with"], "default"), `remove the default of decision ${q(from.label)}`);
    return must(removeArrayElements(this.doc, [...from.path, "with", "cases"], [chosen], { multiline: true }), `remove case ${chosen + 1} of decision ${q(from.label)}`);
  }

  // ---- addStep ------------------------------------------------------------------------------------

  addStep(uses: string, afterId: string | undefined, parentId: string | undefined): OffsetEdit[] {
    if (!(STEP_TYPES as readonly unknown[]).includes(uses)) throw new Refusal(`uses must be one of ${STEP_TYPES.map(q).join(", ")}.`);
    let listPath: PathSegment[] = ["steps"];
    let scope = "";
    if (parentId !== undefined) {
      const parent = this.step(parentId, "parent", false);
      if (parent.uses !== "parallel" || !Array.isArray(this.value(parent).steps)) throw new Refusal(`Step ${q(parent.label)} is not a parallel step with a body.`);
      if (uses === "parallel") throw new Refusal("A parallel step cannot run inside another parallel step's body.");
      listPath = [...parent.path, "steps"];
      scope = parent.id;
    }
    const list = valueAt(this.doc.value, listPath);
    if (!Array.isArray(list)) throw new Refusal("The workflow has no steps list to add to.");
    let at = list.length;
    let needs: string | undefined;
    if (afterId !== undefined) {
      const after = this.step(afterId, "step to add after");
      if (after.scope !== scope) throw new Refusal(`Step ${q(after.label)} is not in ${scope === "" ? "the top-level steps" : `the body of ${q(this.nodes.get(scope)!.label)}`}.`);
      at = (after.path[after.path.length - 1] as number) + 1;
      needs = after.stepId;
    }
    const facts = factsOf(this.analysis);
    const taken = new Set(list.flatMap((s) => (isObject(s) && typeof s.id === "string" ? [s.id] : [])));
    const snip = stepSnippet(uses, { models: facts?.models ?? [], tools: facts?.tools ?? [], takenIds: taken, listIds: [...taken] });
    if (needs !== undefined && snip.k === "obj") {
      const usesAt = snip.entries.findIndex(([k]) => k === "uses");
      snip.entries.splice(usesAt + 1, 0, ["needs", arr([str(needs)], true)]);
    }
    return must(insertArrayItem(this.doc, listPath, at, (layout) => renderPlain(snip, layout, false)), "add a step here");
  }

  // ---- deleteStep ---------------------------------------------------------------------------------

  deleteStep(id: string, references: unknown): OffsetEdit[] {
    const node = this.step(id, "step to delete", false);
    if (references !== undefined && references !== "remove" && references !== "keep") throw new Refusal(`references must be "remove" or "keep".`);
    const listPath = node.path.slice(0, -1);
    const position = node.path[node.path.length - 1] as number;
    const refs = node.problem ? [] : this.referencesTo(node);
    if (refs.length > 0 && references === undefined) {
      const referrers: GraphEditReferrer[] = refs.map((r) => ({ step: this.byPath.get(JSON.stringify(r.owner))?.id ?? pathString(pathOfSegments(r.owner)), kind: r.kind, path: pathString(pathOfSegments(r.segments)) }));
      const named = [...new Set(referrers.map((r) => r.step))].map(q).join(", ");
      throw new Refusal(`Step ${q(node.label)} is referred to by ${named} (${referrers.map((r) => `${r.path}: ${r.kind}`).join("; ")}). `
        + `Delete it with references "remove" to remove their needs entries and decision routes to it too, or "keep" to leave them.`,
        { reason: "referenced", referrers });
    }
    const edits = must(removeArrayElements(this.doc, listPath, [position], { multiline: true }), `delete step ${q(node.label)}`);
    if (this.doc.format === "yaml") {
      // a YAML anchor defined in the step and aliased elsewhere would leave the aliases dangling
      const removed = edits.map((e) => this.doc.text.slice(e.start, e.end)).join("\n");
      const rest = applyEdits(this.doc.text, edits);
      const used = [...removed.matchAll(/(?:^|[\s:,[{-])&([^\s,[\]{}]+)/g)].map((m) => m[1]).filter((name) => rest.includes(`*${name}`));
      if (used.length > 0) throw new Refusal(`Step ${q(node.label)} defines the YAML anchor ${used.map((n) => `&${n}`).join(", ")} that other parts of the document use (*${used[0]}): move it out of the step first.`);
    }
    if (references !== "remove") return edits;
    // needs entries per step, cases per decision, defaults
    const needsOf = new Map<string, PathSegment[]>();
    const casesOf = new Map<string, { owner: PathSegment[]; indexes: number[] }>();
    for (const r of refs) {
      const key = JSON.stringify(r.owner);
      if (r.kind === "needs") needsOf.set(key, r.owner);
      else if (r.kind === "case") {
        const k = r.segments[r.segments.length - 2] as number;
        const entry = casesOf.get(key) ?? { owner: r.owner, indexes: [] };
        entry.indexes.push(k);
        casesOf.set(key, entry);
      } else if (r.kind === "default") edits.push(...must(removeProperty(this.doc, [...r.owner, "with"], "default"), "remove a decision's default"));
    }
    for (const owner of needsOf.values()) {
      const step = valueAt(this.doc.value, owner) as Obj;
      edits.push(...removeNeedsOf(this, owner, step.needs as unknown[], node.stepId, String(step.id)));
    }
    for (const { owner, indexes } of casesOf.values()) {
      edits.push(...must(removeArrayElements(this.doc, [...owner, "with", "cases"], indexes, { multiline: true }), "remove a decision's cases"));
    }
    return edits;
  }

  /** Where other steps (not the step itself nor its body) name the step: needs, decision routes, outputStep, expressions. */
  private referencesTo(node: GraphNode & { path: PathSegment[] }) {
    const index = navigationIndex(this.analysis);
    const facts = index?.facts.lists.flatMap((l) => l.steps).find((s) => JSON.stringify(s.segments) === JSON.stringify(node.path));
    if (!index || !facts) return [];
    const inside = (segments: readonly PathSegment[]) => segments.length >= node.path.length && node.path.every((s, i) => segments[i] === s);
    return occurrencesOfStep(index, facts)
      .filter((o) => o.kind !== "id" && !inside(o.owner))
      .map((o) => ({ kind: o.kind as GraphEditReferrer["kind"], owner: o.owner, segments: o.segments }));
  }

  // ---- moveCase -----------------------------------------------------------------------------------

  moveCase(stepId: string, from: number, to: number): OffsetEdit[] {
    const node = this.step(stepId, "decision", false);
    const w = this.value(node).with;
    const cases = isObject(w) ? w.cases : undefined;
    if (node.uses !== "decision" || !Array.isArray(cases)) throw new Refusal(`Step ${q(node.label)} is not a decision with a list of cases.`);
    const ok = (i: unknown) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < cases.length;
    if (!ok(from) || !ok(to)) throw new Refusal(`Decision ${q(node.label)} has cases 0 to ${cases.length - 1}; from and to must be among them.`);
    return must(moveArrayElement(this.doc, [...node.path, "with", "cases"], from, to), `move the cases of decision ${q(node.label)}`);
  }

  /** For the helpers below. */
  get document() {
    return this.doc;
  }
}

function describeEdge(edge: "needs" | "default" | number): string {
  return edge === "needs" ? "a needs entry" : edge === "default" ? "the default" : `case ${edge}`;
}

/** Removes every copy of `id` from a step's needs; the last entries take the key with them, as the "Remove needs entry" quick fix does. */
function removeNeedsOf(ctx: EditContext, stepPath: PathSegment[], needs: unknown[], id: string, label: string): OffsetEdit[] {
  const at = needs.flatMap((v, k) => (v === id ? [k] : []));
  const kept = needs.length - at.length;
  const edits = kept > 0 ? removeArrayElements(ctx.document, [...stepPath, "needs"], at) : removeProperty(ctx.document, stepPath, "needs");
  return must(edits, `remove ${q(id)} from the needs of step ${q(label)}`);
}

/** A snippet as plain text (its placeholders at their defaults), laid out where insertArrayItem puts it. */
function renderPlain(snip: Snip, layout: ItemLayout, inline: boolean): string {
  const shaped: Snip = inline && snip.k === "obj" ? { ...snip, inline: true } : snip;
  const style = { format: layout.format, indent: layout.column, unit: layout.unit, flow: layout.format === "yaml" && !layout.block };
  return expandSnippet(layout.block ? renderItem(shaped, style) : renderValue(shaped, style));
}

/** The nodes of a shortest path from `from` to `to` (both included; [from] when they are one). */
function shortestPath(graph: Graph, from: number, to: number): number[] {
  const previous = new Map<number, number>([[from, -1]]);
  const queue = [from];
  for (let head = 0; head < queue.length && !previous.has(to); head++) {
    for (const w of graph[queue[head]]) if (!previous.has(w)) { previous.set(w, queue[head]); queue.push(w); }
  }
  if (from === to) return [from];
  const path: number[] = [];
  for (let v = to; v !== -1 && v !== undefined; v = previous.get(v)!) path.unshift(v);
  return path;
}
