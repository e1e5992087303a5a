// The step lists of a validated document as the scheduler sees them (runtime semantics 10, 12): the top
// level and each parallel body, their steps in document order, what each needs and which decision
// targets there are. Pure: values and paths, no positions.
import type { PathSegment } from "../../lwir/types";
import { decisionTargets, isObject, validNeeds } from "../../lwir/validate";

export interface RunStep {
  id: string;
  /** Path of the step object, e.g. ["steps", 2, "steps", 0]. */
  segments: PathSegment[];
  step: Record<string, unknown>;
  uses: unknown;
  /** The valid needs entries, in order. */
  needs: string[];
  list: RunList;
}

export interface RunList {
  /** Path of the array, e.g. ["steps"] or ["steps", 2, "steps"]. */
  segments: PathSegment[];
  entries: unknown[];
  steps: RunStep[];
  byId: Map<string, RunStep>;
  /** The parallel step whose body this is (undefined at the top level). */
  parent?: RunStep;
  /** Ids some decision of this list may choose (never "end"), each with the decisions that may. */
  targets: Map<string, RunStep[]>;
}

/**
 * The lists of a document the validator accepted (ids are valid and unique there). Bodies follow
 * their parallel step; a body's own lists are not nested further (the validator refuses that).
 */
export function runLists(value: unknown): RunList[] {
  if (!isObject(value) || !Array.isArray(value.steps)) return [];
  const out: RunList[] = [];
  const pending: Array<{ entries: unknown[]; segments: PathSegment[]; parent?: RunStep }> = [{ entries: value.steps, segments: ["steps"] }];
  for (let k = 0; k < pending.length; k++) {
    const { entries, segments, parent } = pending[k];
    const list: RunList = { segments, entries, steps: [], byId: new Map(), parent, targets: new Map() };
    entries.forEach((entry, i) => {
      if (!isObject(entry) || typeof entry.id !== "string" || list.byId.has(entry.id)) return;
      const step: RunStep = { id: entry.id, segments: [...segments, i], step: entry, uses: entry.uses, needs: validNeeds(entry.needs), list };
      list.steps.push(step);
      list.byId.set(step.id, step);
      if (entry.uses === "decision") {
        for (const t of new Set(decisionTargets(entry))) {
          const deciders = list.targets.get(t);
          if (deciders) deciders.push(step);
          else list.targets.set(t, [step]);
        }
      }
      if (entry.uses === "parallel" && Array.isArray(entry.steps)) pending.push({ entries: entry.steps, segments: [...step.segments, "steps"], parent: step });
    });
    out.push(list);
  }
  return out;
}

/** The index, in the array as written, of a needs entry naming `id` (the first one). */
export function needsIndexOf(step: RunStep, id: string): number {
  const needs = step.step.needs;
  return Array.isArray(needs) ? needs.indexOf(id) : -1;
}
