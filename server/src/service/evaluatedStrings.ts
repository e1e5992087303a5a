// The strings of a step the runtime evaluates as templates (catalog 5): a decision's case `when`s and a
// parallel step's `items` and `itemKey` (whole-string templates), every string of any other step's
// `with`, and every string of any step's `input`. One walk for our own checks that read expressions
// (inheritedFunctions.ts, typeChecks.ts), so they agree on what is evaluated.
import type { PathSegment } from "../lwir/types";
import { isObject } from "../lwir/validate";

/** What a string of `with` is: a whole-string template the runtime requires, or text with templates. */
export type WithStringRole = "when" | "items" | "itemKey" | "text";

/** Visits the evaluated strings of a step's `with`, in document order (a step's `input`: walkStrings). */
export function forEachWithString(
  step: Record<string, unknown>, stepSegments: PathSegment[],
  visit: (value: unknown, segments: PathSegment[], role: WithStringRole) => void,
): void {
  const w = step.with;
  if (step.uses === "decision") {
    if (isObject(w) && Array.isArray(w.cases)) {
      w.cases.forEach((c, k) => { if (isObject(c)) visit(c.when, [...stepSegments, "with", "cases", k, "when"], "when"); });
    }
  } else if (step.uses === "parallel") {
    if (isObject(w)) {
      visit(w.items, [...stepSegments, "with", "items"], "items");
      visit(w.itemKey, [...stepSegments, "with", "itemKey"], "itemKey");
    }
  } else {
    walkStrings(w, [...stepSegments, "with"], (value, segments) => visit(value, segments, "text"));
  }
}

/** Every string inside `value` (objects and arrays, each visited once), in document order. */
export function walkStrings(value: unknown, segments: PathSegment[], visit: (s: string, segments: PathSegment[]) => void): void {
  const stack: Array<[unknown, PathSegment[]]> = [[value, segments]];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") visit(v, path);
    else if (typeof v === "object" && v !== null && !seen.has(v)) {
      seen.add(v);
      if (Array.isArray(v)) for (let k = v.length - 1; k >= 0; k--) stack.push([v[k], [...path, k]]);
      else {
        const keys = Object.keys(v);
        for (let k = keys.length - 1; k >= 0; k--) stack.push([(v as Record<string, unknown>)[keys[k]], [...path, keys[k]]]);
      }
    }
  }
}
