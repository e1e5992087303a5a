// Calls of names inherited from Object.prototype in expressions (`{{ toString() }}`, `{{ valueOf(x) }}`).
// The runtime looks function names up in a plain object, so it accepts these (findings catalog 5.5) and
// they are no finding; but no such call can produce a value when the workflow runs, so the editor warns.
import { OBJECT_PROTOTYPE_NAMES } from "../lwir/jsObject";
import { callsIn, checkTemplateString, parseExpression } from "../lwir/expressions";
import { isObject } from "../lwir/validate";
import { forEachWithString, walkStrings } from "./evaluatedStrings";
import type { PathSegment } from "../lwir/types";

export interface InheritedCall {
  /** The string holding the call. */
  segments: PathSegment[];
  name: string;
  /** The name's offsets in the string's value. */
  start: number;
  end: number;
}

/** A name of Object.prototype followed by `(`: the cheap gate before a string is parsed. */
const CANDIDATE = /(?:toString|toLocaleString|valueOf|hasOwnProperty|isPrototypeOf|propertyIsEnumerable|__(?:define|lookup)[GS]etter__)\s*\(/;

/**
 * Every call of an inherited name in the strings the runtime evaluates: a step's `with` and `input`
 * (decision and parallel steps: `when`, `items`, `itemKey`), through parallel bodies. Only templates
 * the validator accepts are read, so a string that already has a finding gets no second squiggle.
 */
export function findInheritedCalls(value: unknown): InheritedCall[] {
  const out: InheritedCall[] = [];
  if (!isObject(value) || !Array.isArray(value.steps)) return out;
  const lists: Array<[unknown[], PathSegment[]]> = [[value.steps, ["steps"]]];
  const seen = new Set<unknown>();
  while (lists.length > 0) {
    const [steps, listPath] = lists.pop()!;
    steps.forEach((step, i) => {
      if (!isObject(step) || seen.has(step)) return;
      seen.add(step);
      const path = [...listPath, i];
      forEachWithString(step, path, (value, segments) => visit(value, segments, out));
      // the body is the parallel step's own `steps` (catalog 4), beside its `with`
      if (step.uses === "parallel" && Array.isArray(step.steps)) lists.push([step.steps, [...path, "steps"]]);
      walkStrings(step.input, [...path, "input"], (value, segments) => visit(value, segments, out));
    });
  }
  return out;
}

function visit(s: unknown, segments: PathSegment[], out: InheritedCall[]): void {
  if (typeof s !== "string" || s.indexOf("{{") < 0 || !CANDIDATE.test(s)) return;
  // `item` is refused outside parallel bodies, but that is the validator's finding, not ours to repeat.
  const check = checkTemplateString(s, true);
  if (check.status !== "ok") return;
  for (const m of check.matches) {
    if (!CANDIDATE.test(m.body)) continue;
    const { node, errors } = parseExpression(m.body);
    if (!node || errors.length > 0) continue;
    for (const call of callsIn(node, (name) => OBJECT_PROTOTYPE_NAMES.has(name))) {
      out.push({ segments, name: call.name, start: m.bodyStart + call.nameStart, end: m.bodyStart + call.nameEnd });
    }
  }
}
