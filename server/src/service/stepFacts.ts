// What editor features need to know about a workflow's steps, computed once per analysis:
// the step lists (top level and parallel bodies), their declared steps, and what each step may read.
// Follows the validator's notions (catalog 2.1 and 3.4): declared = first valid id in its list;
// a body sees its own list plus the parent's needs declared in the parent's list (and what the parent sees).
import type { PathSegment } from "../lwir/types";
import { isObject, stepIdProblem, validNeeds } from "../lwir/validate";
import type { Analysis } from "./analysis";

type Obj = Record<string, unknown>;

export interface StepFacts {
  id: string;
  /** Path of the step object, e.g. ["steps", 2, "steps", 0]. */
  segments: PathSegment[];
  step: Obj;
  uses: unknown;
  list: ListFacts;
  /** The body of a parallel step. */
  body?: ListFacts;
  /** Valid needs entries. */
  needs: string[];
}

export interface ListFacts {
  /** Path of the list array, e.g. ["steps"] or ["steps", 2, "steps"]. */
  segments: PathSegment[];
  /** Declared steps in list order. */
  steps: StepFacts[];
  byId: Map<string, StepFacts>;
  /** The parallel step whose body this is. */
  parent?: StepFacts;
  /** Steps of enclosing lists this list may read (through the parent's needs). */
  external: Map<string, StepFacts>;
  /** Every entry of the array, declared or not, by index: for a cursor inside a duplicate or broken step. */
  entries: unknown[];
}

export interface WorkflowFacts {
  root: Obj;
  top: ListFacts | undefined;
  lists: ListFacts[];
  models: string[];
  tools: string[];
}

const cache = new WeakMap<object, WorkflowFacts | undefined>();

/** Facts of an analysis's document (cached on the analysis object). */
export function factsOf(analysis: Analysis): WorkflowFacts | undefined {
  if (cache.has(analysis)) return cache.get(analysis);
  const facts = workflowFacts(analysis.document.value);
  cache.set(analysis, facts);
  return facts;
}

export function workflowFacts(value: unknown): WorkflowFacts | undefined {
  if (!isObject(value)) return undefined;
  const permissions = isObject(value.permissions) ? value.permissions : {};
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((e): e is string => typeof e === "string") : []);
  const facts: WorkflowFacts = { root: value, top: undefined, lists: [], models: strings(permissions.models), tools: strings(permissions.tools) };
  if (!Array.isArray(value.steps)) return facts;
  // Iterative over lists: bodies are queued with the external steps they see.
  const queue: Array<{ entries: unknown[]; segments: PathSegment[]; parent?: StepFacts; external: Map<string, StepFacts>; top?: boolean }> =
    [{ entries: value.steps, segments: ["steps"], external: new Map(), top: true }];
  while (queue.length > 0) {
    const { entries, segments, parent, external, top } = queue.shift()!;
    const list: ListFacts = { segments, steps: [], byId: new Map(), parent, external, entries };
    facts.lists.push(list);
    if (top) facts.top = list;
    entries.forEach((entry, i) => {
      if (!isObject(entry) || stepIdProblem(entry.id) !== undefined) return;
      const id = entry.id as string;
      if (list.byId.has(id)) return;
      const step: StepFacts = { id, segments: [...segments, i], step: entry, uses: entry.uses, list, needs: validNeeds(entry.needs) };
      list.steps.push(step);
      list.byId.set(id, step);
    });
    entries.forEach((entry, i) => {
      if (!isObject(entry) || entry.uses !== "parallel" || !isObject(entry.with) || !Array.isArray(entry.steps)) return;
      const owner = isObject(entry) && typeof entry.id === "string" ? list.byId.get(entry.id) : undefined;
      const seen = new Map(external);
      for (const need of validNeeds(entry.needs)) {
        const s = list.byId.get(need);
        if (s) seen.set(need, s);
      }
      const bodySegments = [...segments, i, "steps"];
      const item = { entries: entry.steps, segments: bodySegments, parent: owner && owner.step === entry ? owner : undefined, external: seen };
      queue.push(item);
    });
  }
  for (const list of facts.lists) {
    if (list.parent) list.parent.body = list;
  }
  return facts;
}

/** The innermost list and step entry that contain a path (the step may be undeclared). */
export function stepAtPath(facts: WorkflowFacts, segments: readonly PathSegment[]):
  { list: ListFacts; index: number; entry: unknown; step: StepFacts | undefined; rest: PathSegment[] } | undefined {
  let best: { list: ListFacts; index: number } | undefined;
  for (const list of facts.lists) {
    const n = list.segments.length;
    if (segments.length <= n || typeof segments[n] !== "number") continue;
    if (!list.segments.every((s, k) => s === segments[k])) continue;
    if (!best || n > best.list.segments.length) best = { list, index: segments[n] as number };
  }
  if (!best) return undefined;
  const entry = best.list.entries[best.index];
  const step = best.list.steps.find((s) => s.step === entry);
  return { ...best, entry, step, rest: segments.slice(best.list.segments.length + 1) };
}

/** Steps a step in `list` may read with `{{ steps.X }}`: its own list, then the external ones not shadowed. */
export function readableSteps(list: ListFacts): StepFacts[] {
  const out = [...list.steps];
  for (const [id, s] of list.external) if (!list.byId.has(id)) out.push(s);
  return out;
}

/** The step's output object, if any. */
export function outputOf(step: StepFacts): Obj | undefined {
  return isObject(step.step.output) ? step.step.output : undefined;
}

/** JavaScript's `maxVisits > 1`, as the validator reads it (catalog 9.7). */
export function isMultiVisit(step: StepFacts): boolean {
  try { return (step.step.maxVisits as number) > 1; } catch { return false; }
}
