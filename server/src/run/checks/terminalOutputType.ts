// lwir.terminal_output_type (runtime semantics 10.4; section 16 item 15): before the first step runs, the
// runtime compares the final step's output type (text and choice: string; object; array; json: its
// schema's type; a parallel step: array) with the single `type` of the workflow's output.schema, and
// fails the run when they differ.
import { isObject, terminalIndexes } from "../../lwir/validate";
import type { RunList } from "./lists";
import { quoted, type RunNotice } from "./notice";

export const TERMINAL_OUTPUT_TYPE = "lwir.terminal_output_type";

export function terminalOutputType(value: unknown, lists: readonly RunList[]): RunNotice[] {
  const top = lists.find((l) => !l.parent);
  if (!top || !isObject(value) || !isObject(value.output) || !isObject(value.output.schema)) return [];
  const wanted = value.output.schema.type;
  if (typeof wanted !== "string") return [];
  const finals = terminalIndexes(top.entries);
  if (finals.length !== 1) return [];
  const final = top.steps.find((s) => s.step === top.entries[finals[0]]);
  const output = final?.step.output;
  if (!final || !isObject(output) || typeof output.mode !== "string") return [];
  const given = primaryType(output);
  // number and integer: how the runtime compares those two is not known, so nothing is said
  if (given === undefined || given === wanted || (isNumeric(given) && isNumeric(wanted))) return [];
  const what = output.mode === "json" ? `its output (mode json) is declared as type "${given}"` : `its output (mode ${output.mode}) is ${article(given)}`;
  return [{
    code: TERMINAL_OUTPUT_TYPE,
    segments: output.mode === "json" ? [...final.segments, "output", "schema", "type"] : [...final.segments, "output", "mode"],
    message: `${quoted(final.id)} is the final step and ${what}, but output.schema declares type "${wanted}": ` +
      `the runtime fails every run of this workflow before its first step. Declare output.schema as type "${given}", or end with a step whose output is ${article(wanted)}.`,
    related: [{ segments: ["output", "schema", "type"], message: `The workflow's output is declared as type "${wanted}".` }],
  }];
}

/** The type a step's output contract gives its value (runtime semantics 10.4), when it is one type. */
function primaryType(output: Record<string, unknown>): string | undefined {
  switch (output.mode) {
    case "text":
    case "choice":
      return "string";
    case "object":
    case "array":
      return output.mode;
    case "json":
      return isObject(output.schema) && typeof output.schema.type === "string" ? output.schema.type : undefined;
    default:
      return undefined;
  }
}

function isNumeric(type: string): boolean {
  return type === "number" || type === "integer";
}

function article(type: string): string {
  return type === "object" || type === "array" || type === "integer" ? `an ${type}` : `a ${type}`;
}
