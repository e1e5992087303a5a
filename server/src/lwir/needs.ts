// Needs inference (findings catalog section 7, "Needs A Planner Left Out"), for the editor's quick
// fix on `step.undeclared_dependency`. Pure and value-level: it says which `needs` entries to add,
// never how to write them. Section 11 decides the runtime never infers silently, so this only feeds
// code actions.
//
// Rules, per list (the top-level list, then every parallel body), visiting declared steps in order
// and their references in the validator's order (`with` before `input`, strings in document order):
//   - only ids of declared steps of the same list (missing steps are left alone; external ones, read
//     by a body through its parallel step's needs, only on request: section 7 leaves them out);
//   - not the step itself, not an id already in `needs`, not when `needs` is present but not an array;
//   - not for a reference the validator exempts (a `lastOutput`/`allVisits` read of a step that
//     already reaches the reader);
//   - never an entry that closes a cycle (the reader already reaches the needed step);
//   - beyond section 7, never an entry that would add a `lwir.decision_target_referenced_by_needs`
//     finding: a quick fix must not trade one error for another (catalog 3.4, deadlocks).
// Each added entry becomes an edge of the graph before the next reference is considered.
import { stepReferencesOf } from "./expressions";
import { reaches, type Graph } from "./graph";
import type { PathSegment } from "./types";
import { decisionTargets, isObject, stepIdProblem, validNeeds } from "./validate";

type Obj = Record<string, unknown>;

export interface InferredNeed {
  /** Path of the step object whose `needs` gets the entry, e.g. ["steps", 3] or ["steps", 2, "steps", 0]. */
  stepSegments: PathSegment[];
  /** The step id to append. */
  id: string;
}

/** Why an entry is not added (see the rules above). */
export type NeedsSkipReason =
  | "no-step" // stepSegments does not name a declared step
  | "needs-not-array"
  | "self"
  | "already-needed"
  | "not-referenced" // the step does not read that id
  | "missing" // no step of the same list has that id
  | "external" // only a step of an enclosing list has that id
  | "exempt" // every read is a lastOutput/allVisits back-edge read the validator accepts
  | "cycle"
  | "deadlock";

export type NeedsCheck =
  | { add: true; external: boolean }
  | { add: false; reason: NeedsSkipReason };

interface Node {
  id: string;
  step: Obj;
  segments: PathSegment[];
  index: number;
  /** Valid needs entries (grows as entries are inferred). */
  needs: string[];
  /** The raw `needs` is an array with at least one element (what makes a decision target "guarded"). */
  hasNeeds: boolean;
}

interface ListState {
  segments: PathSegment[];
  entries: unknown[];
  nodes: Node[];
  byId: Map<string, Node>;
  graph: Graph;
  /** Decision targets of the list (catalog 3.4, deadlocks). */
  targets: Set<string>;
  /** Ids of enclosing lists' steps this list may read (parent's needs, and what the parent sees). */
  external: Set<string>;
}

/**
 * Every entry section 7 would append to the document's `needs` arrays, in order. With
 * `includeExternal`, also the entries a body step needs for steps of enclosing lists it may read
 * (those in its parallel step's needs): section 7 leaves them out, but the validator asks for them
 * and they can close no cycle, so the editor's fix-all adds them too.
 */
export function inferNeeds(value: unknown, options: { includeExternal?: boolean } = {}): InferredNeed[] {
  const out: InferredNeed[] = [];
  // A body is built after its parent's list is done, so it sees the entries inferred for its parallel step.
  const queue = rootList(value);
  for (let head = 0; head < queue.length; head++) {
    const list = buildList(queue[head]);
    for (const node of list.nodes) {
      if (node.step.needs !== undefined && !Array.isArray(node.step.needs)) continue;
      for (const ref of referencesOf(node.step)) {
        const check = decide(list, node, ref.stepId, [ref.property], options.includeExternal === true);
        if (!check.add) continue;
        addEntry(list, node, ref.stepId);
        out.push({ stepSegments: node.segments, id: ref.stepId });
      }
    }
    queue.push(...bodiesOf(list));
  }
  return out;
}

/**
 * Should `id` be added to the needs of the step at `stepSegments`, given the document as it is?
 * `allowExternal` as `includeExternal` above.
 */
export function needsToAdd(value: unknown, stepSegments: readonly PathSegment[], id: string, options: { allowExternal?: boolean } = {}): NeedsCheck {
  const listSegments = stepSegments.slice(0, -1);
  const key = JSON.stringify(listSegments);
  const list = listsOf(value).find((l) => JSON.stringify(l.segments) === key);
  const node = list?.nodes.find((n) => n.index === stepSegments[stepSegments.length - 1]);
  if (!list || !node) return { add: false, reason: "no-step" };
  if (node.step.needs !== undefined && !Array.isArray(node.step.needs)) return { add: false, reason: "needs-not-array" };
  const properties = referencesOf(node.step).filter((r) => r.stepId === id).map((r) => r.property);
  if (properties.length === 0) return { add: false, reason: "not-referenced" };
  return decide(list, node, id, properties, options.allowExternal === true);
}

/** The rules for one (step, id) pair; `properties` are the properties of the step's reads of `id`. */
function decide(list: ListState, node: Node, id: string, properties: Array<string | undefined>, allowExternal: boolean): NeedsCheck {
  if (id === node.id) return { add: false, reason: "self" };
  if (node.needs.includes(id)) return { add: false, reason: "already-needed" };
  const target = list.byId.get(id);
  if (!target) {
    // External steps are not in the flow graph: no exemption and no cycle, only the deadlock rule.
    if (!list.external.has(id)) return { add: false, reason: "missing" };
    if (!allowExternal) return { add: false, reason: "external" };
    return wouldDeadlock(list, node, undefined) ? { add: false, reason: "deadlock" } : { add: true, external: true };
  }
  // The validator exempts a back-edge read (lastOutput/allVisits of a step that reaches the reader);
  // one plain read is enough to need the entry.
  const reachesReader = reaches(list.graph, target.index, node.index);
  if (reachesReader && properties.every((p) => p === "lastOutput" || p === "allVisits")) return { add: false, reason: "exempt" };
  if (reaches(list.graph, node.index, target.index)) return { add: false, reason: "cycle" };
  if (wouldDeadlock(list, node, target)) return { add: false, reason: "deadlock" };
  return { add: true, external: false };
}

/**
 * Would `node` needing `target` add a `lwir.decision_target_referenced_by_needs`? Either the reader
 * is an ordinary step and the target is a decision target with needs of its own, or the reader is a
 * decision target without needs that ordinary steps already need (its first entry guards it).
 */
function wouldDeadlock(list: ListState, node: Node, target: Node | undefined): boolean {
  const ordinary = (n: Node) => n.step.uses !== "decision" && !list.targets.has(n.id);
  if (target && ordinary(node) && list.targets.has(target.id) && target.hasNeeds) return true;
  if (list.targets.has(node.id) && !node.hasNeeds) {
    return list.nodes.some((n) => ordinary(n) && n.needs.includes(node.id));
  }
  return false;
}

function addEntry(list: ListState, node: Node, id: string): void {
  const from = list.byId.get(id);
  if (from) list.graph[from.index].push(node.index);
  node.needs.push(id);
  node.hasNeeds = true;
}

/** The step references of a step, as the validator collects them: `with` first, then `input`. */
function referencesOf(step: Obj): Array<{ stepId: string; property: string | undefined }> {
  const out: Array<{ stepId: string; property: string | undefined }> = [];
  for (const part of [step.with, step.input]) {
    if (part === undefined || part === null) continue;
    // Depth-first in document order, iteratively (documents can be deep).
    const stack: unknown[] = [part];
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v === "string") {
        for (const r of stepReferencesOf(v)) out.push({ stepId: r.stepId, property: r.property });
      } else if (Array.isArray(v)) {
        for (let k = v.length - 1; k >= 0; k--) stack.push(v[k]);
      } else if (isObject(v)) {
        const keys = Object.keys(v);
        for (let k = keys.length - 1; k >= 0; k--) stack.push(v[keys[k]]);
      }
    }
  }
  return out;
}

/** Where a list is and what it may read from enclosing lists. */
interface ListSource {
  entries: unknown[];
  segments: PathSegment[];
  external: Set<string>;
}

function rootList(value: unknown): ListSource[] {
  return isObject(value) && Array.isArray(value.steps) ? [{ entries: value.steps, segments: ["steps"], external: new Set() }] : [];
}

/** Every step list of the document with its declared steps and flow graph (catalog 2.1, 3.4). */
function listsOf(value: unknown): ListState[] {
  const lists: ListState[] = [];
  const queue = rootList(value);
  for (let head = 0; head < queue.length; head++) {
    const list = buildList(queue[head]);
    lists.push(list);
    queue.push(...bodiesOf(list));
  }
  return lists;
}

function buildList({ entries, segments, external }: ListSource): ListState {
  const list: ListState = { segments, entries, nodes: [], byId: new Map(), graph: [], targets: new Set(), external };
  entries.forEach((entry, i) => {
    if (!isObject(entry) || stepIdProblem(entry.id) !== undefined) return;
    const id = entry.id as string;
    if (list.byId.has(id)) return;
    const node: Node = {
      id, step: entry, segments: [...segments, i], index: list.nodes.length, needs: validNeeds(entry.needs),
      hasNeeds: Array.isArray(entry.needs) && entry.needs.length > 0,
    };
    list.nodes.push(node);
    list.byId.set(id, node);
    list.graph.push([]);
  });
  for (const node of list.nodes) {
    for (const need of node.needs) {
      const from = list.byId.get(need);
      if (from) list.graph[from.index].push(node.index);
    }
    if (node.step.uses === "decision") {
      for (const t of decisionTargets(node.step)) {
        list.targets.add(t);
        const to = list.byId.get(t);
        if (to) list.graph[node.index].push(to.index);
      }
    }
  }
  return list;
}

/**
 * The bodies of a list's parallel steps. The validator checks the body of every parallel entry with a
 * valid id (duplicates too); a body may read the parallel step's needs (as inferred so far) and what
 * the parallel step itself may read.
 */
function bodiesOf(list: ListState): ListSource[] {
  const out: ListSource[] = [];
  list.entries.forEach((entry, i) => {
    if (!isObject(entry) || entry.uses !== "parallel" || stepIdProblem(entry.id) !== undefined) return;
    if (!isObject(entry.with) || !Array.isArray(entry.steps)) return;
    const node = list.byId.get(entry.id as string);
    const needs = node && node.step === entry ? node.needs : validNeeds(entry.needs);
    const seen = new Set(list.external);
    for (const need of needs) if (list.byId.has(need)) seen.add(need);
    out.push({ entries: entry.steps, segments: [...list.segments, i, "steps"], external: seen });
  });
  return out;
}
