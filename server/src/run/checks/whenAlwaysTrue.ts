// lwir.when_always_true (runtime semantics 2.5, 9; section 16 item 19): a decision takes the first case
// whose `when` is truthy in JavaScript's sense, so a `when` that reads a value that is always truthy (any
// text but "", such as the choice values "yes" and "no"; an object; an array) always matches when it is
// reached, and the cases after it and the default are never chosen. Certain when the path's declared
// values are all truthy: its listed values (choice values, enum, const), or a type of object or array.
import { parseExpression } from "../../lwir/expressions";
import { possibleValues, typesOf } from "../../lwir/dataTypes";
import { isObject } from "../../lwir/validate";
import type { RunList } from "./lists";
import { quoted, type RunNotice, type SchemaOf } from "./notice";

export const WHEN_ALWAYS_TRUE = "lwir.when_always_true";

export function whenAlwaysTrue(lists: readonly RunList[], schemaOf: SchemaOf | undefined): RunNotice[] {
  const out: RunNotice[] = [];
  if (!schemaOf) return out;
  for (const list of lists) {
    for (const step of list.steps) {
      const w = step.uses === "decision" && isObject(step.step.with) ? step.step.with : undefined;
      const cases = w && Array.isArray(w.cases) ? w.cases : undefined;
      if (!cases) continue;
      cases.forEach((c, k) => {
        const m = isObject(c) && typeof c.when === "string" ? /^\{\{([^{}]+)\}\}$/.exec(c.when) : null;
        if (!m) return;
        const body = m[1].trim();
        const bodyStart = 2 + m[1].indexOf(body);
        const { node, errors } = parseExpression(body);
        if (!node || errors.length > 0 || node.kind !== "path") return;
        const segments = [...step.segments, "with", "cases", k, "when"];
        const schema = schemaOf(segments, node);
        const values = possibleValues(schema);
        const types = typesOf(schema);
        let what: string;
        let fix: string;
        if (values !== undefined) {
          if (values.length === 0 || !values.every((v) => Boolean(v))) return;
          what = `is one of ${values.slice(0, 8).map((v) => JSON.stringify(v)).join(", ")}${values.length > 8 ? ", …" : ""}, all of which count as true`;
          fix = `Compare it with the value meant, as in {{ ${body} == ${JSON.stringify(values[0])} }}.`;
        } else if (types && types.length > 0 && types.every((t) => t === "object" || t === "array")) {
          what = `is declared as ${types.map((t) => (t === "object" ? "an object" : "an array")).join(" or ")}, which always counts as true`;
          fix = "Test a property of it, or compare it.";
        } else return;
        const later = k < cases.length - 1 ? "the cases after it and the default are" : "the default is";
        out.push({
          code: WHEN_ALWAYS_TRUE,
          segments,
          start: bodyStart + node.start,
          end: bodyStart + node.end,
          message: `${body} ${what}: this case of ${quoted(step.id)} always matches once it is reached, and ${later} never chosen. ${fix}`,
        });
      });
    }
  }
  return out;
}
