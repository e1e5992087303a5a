// "Add values to the output of "classify"": the fix of `output.missing_values` (output mode `choice`
// without a `values` array). The values are what the workflow already compares the step's output
// with (`{{ steps.classify.output == 'bug' }}`), in order of appearance; with none, one placeholder.
// Which values a step may answer is the author's choice, so the fix is a snippet where the client takes
// snippet edits (each value a tab stop to type over) and never applied unasked (`auto` unset).
import { valueAt } from "../lwir/path";
import { isObject } from "../lwir/validate";
import type { Analysis } from "./analysis";
import type { Fix } from "./codeActions";
import { stepPrefix, type LwirDiagnosticData } from "./diagnostics";
import { addProperty, setValue, type OffsetEdit } from "./edits";
import { comparedLiteral, pathUses, segmentName } from "./expressionUses";

/** The value written when the workflow compares the output with nothing yet. */
export const PLACEHOLDER_VALUE = "value";

export function choiceValuesFixes(analysis: Analysis, data: LwirDiagnosticData): Fix[] {
  if (data.code !== "output.missing_values") return [];
  const doc = analysis.document;
  const segments = data.segments;
  const stepSegments = stepPrefix(segments);
  if (!stepSegments || segments.length !== stepSegments.length + 2 || segments[segments.length - 1] !== "values") return [];
  const outputSegments = segments.slice(0, -1);
  const step = valueAt(doc.value, stepSegments);
  const output = valueAt(doc.value, outputSegments);
  // Only while the finding still holds: a choice output whose values are not an array.
  if (!isObject(step) || !isObject(output) || output.mode !== "choice" || Array.isArray(output.values)) return [];
  const id = typeof step.id === "string" ? step.id : undefined;
  const values = id !== undefined ? comparedValues(analysis, id) : [];
  if (values.length === 0) values.push(PLACEHOLDER_VALUE);
  const edits = output.values === undefined
    ? addProperty(doc, outputSegments, "values", values, { after: ["mode"] })
    : setValue(doc, segments, values);
  if (!edits || edits.length !== 1) return [];
  const snippet = snippetOf(edits[0], values);
  return [{
    title: `Add values to the output of ${id !== undefined ? `"${id}"` : "this step"}`,
    edits: [{ ...edits[0], ...(snippet !== undefined ? { snippet } : {}) }],
    preferred: true,
  }];
}

/** The string literals the workflow compares `steps.<id>.output` (or lastOutput) with, first seen first. */
function comparedValues(analysis: Analysis, id: string): string[] {
  const out: string[] = [];
  for (const use of pathUses(analysis)) {
    const n = use.node;
    if (n.root !== "steps" || n.segments.length !== 2 || segmentName(n.segments[0]) !== id) continue;
    const property = segmentName(n.segments[1]);
    if (property !== "output" && property !== "lastOutput") continue;
    const literal = comparedLiteral(use);
    if (literal && typeof literal.value === "string" && !out.includes(literal.value)) out.push(literal.value);
  }
  return out.slice(0, 20);
}

/** The edit's text as a snippet: each value a placeholder, in order, the rest escaped; undefined when a value cannot be found in it. */
function snippetOf(edit: OffsetEdit, values: readonly string[]): string | undefined {
  const text = edit.newText;
  // The values are written after the key: search from there, each after the one before.
  let from = text.indexOf("values");
  if (from < 0) from = 0;
  else from += "values".length;
  let out = "";
  let last = 0;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    const at = text.indexOf(v, from);
    if (at < 0 || v === "") return undefined;
    out += escapeSnippet(text.slice(last, at)) + "${" + (k + 1) + ":" + escapeSnippet(v) + "}";
    last = at + v.length;
    from = last;
  }
  return out + escapeSnippet(text.slice(last));
}

/** Text that reads as itself in a snippet (`$`, `}` and `\` escaped). */
export function escapeSnippet(text: string): string {
  return text.replace(/[$}\\]/g, (c) => "\\" + c);
}

