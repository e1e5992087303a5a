// lwir.unsafe_input_key (runtime semantics 1.2, 7; section 16 item 7): the runtime resolves a step's input
// (`input`, else `with.args`) key by key and refuses the keys `__proto__`, `constructor` and `prototype`
// ("Unsafe expression path segment"), even where the value holds no template, so the step fails before it
// starts, every time. The validator never looks at keys.
import { FORBIDDEN_SEGMENTS } from "../../lwir/expressions";
import type { PathSegment } from "../../lwir/types";
import { isObject } from "../../lwir/validate";
import type { RunList } from "./lists";
import { quoted, type RunNotice } from "./notice";

export const UNSAFE_INPUT_KEY = "lwir.unsafe_input_key";

export function unsafeInputKey(lists: readonly RunList[]): RunNotice[] {
  const out: RunNotice[] = [];
  for (const list of lists) {
    for (const step of list.steps) {
      const w = isObject(step.step.with) ? step.step.with : undefined;
      const [value, segments]: [unknown, PathSegment[]] = step.step.input !== undefined ? [step.step.input, [...step.segments, "input"]]
        : w && w.args !== undefined ? [w.args, [...step.segments, "with", "args"]] : [undefined, []];
      const stack: Array<[unknown, PathSegment[]]> = [[value, segments]];
      const seen = new Set<unknown>();
      while (stack.length > 0) {
        const [v, at] = stack.pop()!;
        if (typeof v !== "object" || v === null || seen.has(v)) continue;
        seen.add(v);
        const keys = Array.isArray(v) ? v.map((_, k) => k) : Object.keys(v);
        for (let k = keys.length - 1; k >= 0; k--) {
          const key = keys[k];
          const child: unknown = (v as Record<string | number, unknown>)[key];
          if (typeof key === "string" && FORBIDDEN_SEGMENTS.has(key)) {
            out.push({
              code: UNSAFE_INPUT_KEY,
              segments: [...at, key],
              onKey: true,
              message: `The input of ${quoted(step.id)} has the key "${key}", which the runtime refuses even where the value holds no template: the step fails before it starts. Rename the key.`,
            });
          }
          stack.push([child, [...at, key]]);
        }
      }
    }
  }
  return out;
}
