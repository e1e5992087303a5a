// lwir.function_argument_type (runtime semantics 5.2; section 16 item 6): `len` of a number, a boolean or
// null throws "len() supports strings, arrays, and objects."; `date` of a boolean, null or an object
// throws "Invalid time value" (their text, "true", "null", "[object Object]", is no date). Certain when
// the argument is a path whose declared type allows nothing else. Its output or input is validated
// against that schema, so when the value is there it has that type; coalesce does not catch these errors.
import { callsIn, parseExpression, scanTemplates } from "../../lwir/expressions";
import { typesOf } from "../../lwir/dataTypes";
import type { RunList } from "./lists";
import type { RunNotice, SchemaOf } from "./notice";
import { resolvedStrings } from "./reads";

export const FUNCTION_ARGUMENT_TYPE = "lwir.function_argument_type";

/** The types each function can never take. */
const REFUSED: Record<string, readonly string[]> = {
  len: ["number", "integer", "boolean", "null"],
  date: ["boolean", "null", "object"],
};

export function functionArgumentType(lists: readonly RunList[], schemaOf: SchemaOf | undefined): RunNotice[] {
  const out: RunNotice[] = [];
  if (!schemaOf) return out;
  for (const list of lists) {
    for (const step of list.steps) {
      for (const s of resolvedStrings(step.step, step.segments, "(")) {
        const scan = scanTemplates(s.value);
        if (scan.malformedAt !== undefined) continue;
        for (const m of scan.matches) {
          if (!/\b(?:len|date)\s*\(/.test(m.body)) continue;
          const { node, errors } = parseExpression(m.body);
          if (!node || errors.length > 0) continue;
          for (const call of callsIn(node, (name) => Object.prototype.hasOwnProperty.call(REFUSED, name))) {
            const arg = call.args[0];
            if (call.args.length !== 1 || arg.kind !== "path") continue;
            const types = typesOf(schemaOf(s.segments, arg));
            if (!types || !types.every((t) => REFUSED[call.name].includes(t))) continue;
            const path = m.body.slice(arg.start, arg.end);
            const declared = types.map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`)).join(" or ");
            out.push({
              code: FUNCTION_ARGUMENT_TYPE,
              segments: s.segments,
              start: m.bodyStart + call.start,
              end: m.bodyStart + call.end,
              message: call.name === "len"
                ? `${path} is declared as ${declared}, and len() counts only the characters of a string, the elements of an array or the keys of an object: this call fails whenever it runs.`
                : `${path} is declared as ${declared}, which is never a date: this call of date() fails whenever it runs.`,
            });
          }
        }
      }
    }
  }
  return out;
}
