// "Declare "ticket" in input.schema": a fix of `lwir.unknown_property` on `{{ input.ticket }}` when the
// workflow's input schema lists other properties but not this one. The property is added to
// `input.schema.properties` with a type guessed from how the workflow uses it (guessInputType), and to
// `required` only when the schema already requires every property it declares (its style: an input
// whose properties are all required gets one more required one; an input with optional ones gets an
// optional one). A new input changes the workflow's contract, so the fix is never applied unasked.
import { valueAt } from "../lwir/path";
import { isObject } from "../lwir/validate";
import { analyzeText, type Analysis } from "./analysis";
import type { Fix } from "./codeActions";
import type { LwirDiagnosticData } from "./diagnostics";
import { addProperty, appendToArray, applyEdits, type Json, type OffsetEdit } from "./edits";
import { comparedLiteral, pathUses, segmentName, type PathUse } from "./expressionUses";
import { UNKNOWN_PROPERTY, findTypeNotices } from "./typeChecks";

export type GuessedType = "string" | "number" | "boolean" | "array" | "object";

export function declareInputFixes(analysis: Analysis, data: LwirDiagnosticData): Fix[] {
  if (data.code !== UNKNOWN_PROPERTY || !data.typed) return [];
  const doc = analysis.document;
  const notice = findTypeNotices(analysis).find((n) => n.code === UNKNOWN_PROPERTY && n.start === data.typed!.valueStart
    && n.segments.length === data.segments.length && n.segments.every((s, i) => s === data.segments[i]));
  const name = notice?.inputProperty;
  const root = doc.value;
  if (name === undefined || !isObject(root) || !isObject(root.input) || !isObject(root.input.schema)) return [];
  let byName = cache.get(analysis);
  if (!byName) cache.set(analysis, (byName = new Map()));
  let fixes = byName.get(name);
  if (!fixes) byName.set(name, (fixes = declare(analysis, root.input.schema, name)));
  // Preferred when no declared name is close ("did you mean" comes first then).
  const guessed = (data.typed.suggestions ?? []).length > 0;
  return fixes.map((f) => ({ ...f, ...(guessed ? {} : { preferred: true }) }));
}

/** The fix of every read of `input.<name>` (each costs an analysis of the fixed text: once per name and version). */
const cache = new WeakMap<Analysis, Map<string, Fix[]>>();

function declare(analysis: Analysis, schema: Record<string, unknown>, name: string): Fix[] {
  const doc = analysis.document;
  const type = guessInputType(analysis, name);
  const edits: OffsetEdit[] = [];
  const declared = isObject(schema.properties) ? Object.keys(schema.properties) : undefined;
  const added = declared !== undefined
    ? addProperty(doc, ["input", "schema", "properties"], name, { type })
    : schema.properties === undefined ? addProperty(doc, ["input", "schema"], "properties", { [name]: { type } } as Json, { after: ["type"] }) : undefined;
  if (!added || added.length === 0) return [];
  edits.push(...added);
  if (requiresAll(schema.required, declared)) {
    const required = appendToArray(doc, ["input", "schema", "required"], [name]);
    if (!required) return [];
    edits.push(...required);
  }
  // Offered when the read is then declared: no notice left on it (a propertyNames list may still refuse the name).
  const after = analyzeText(applyEdits(doc.text, edits), doc.format);
  if (after.document.parseErrors.length > 0) return [];
  if (findTypeNotices(after).some((n) => n.code === UNKNOWN_PROPERTY && n.inputProperty === name)) return [];
  return [{ title: `Declare "${name}" in input.schema`, edits }];
}

/** The schema requires every property it declares (and declares some): the style a new property follows. */
function requiresAll(required: unknown, declared: string[] | undefined): boolean {
  if (!Array.isArray(required) || !declared || declared.length === 0) return false;
  return declared.every((p) => required.includes(p));
}

/**
 * The type of `input.<name>` as the workflow uses it: read further (`.x` → object, `[0]` → array), a
 * parallel step's `items` (array), compared with a number or ordered with `<`/`>` (number), compared
 * with `true`/`false` or used as a decision's condition (boolean), compared with a string (string).
 * `len(…)` takes a string or an array: it counts as array only beside another array use. Else string,
 * the type of a value a caller most often passes.
 */
export function guessInputType(analysis: Analysis, name: string): GuessedType {
  const seen = new Set<GuessedType>();
  for (const use of pathUses(analysis)) {
    const n = use.node;
    if (n.root !== "input" || n.segments.length === 0 || segmentName(n.segments[0]) !== name) continue;
    const t = typeOfUse(use);
    if (t) seen.add(t);
  }
  for (const t of ["array", "object", "number", "boolean"] as const) if (seen.has(t)) return t;
  return "string";
}

function typeOfUse(use: PathUse): GuessedType | undefined {
  const n = use.node;
  if (n.segments.length > 1) return n.segments[1].kind === "index" && !n.segments[1].quoted ? "array" : "object";
  const parent = use.parents[0];
  if (!parent) {
    if (use.whole && use.role === "items") return "array";
    if (use.whole && use.role === "when") return "boolean";
    return undefined;
  }
  if (parent.kind === "binary" && (parent.op === "&&" || parent.op === "||")) return use.role === "when" && use.parents.length === 1 ? "boolean" : undefined;
  const literal = comparedLiteral(use);
  if (literal) {
    if (typeof literal.value === "number") return "number";
    if (typeof literal.value === "boolean") return "boolean";
    if (typeof literal.value === "string") return /^[<>]/.test(literal.op) ? undefined : "string";
    return undefined;
  }
  if (parent.kind === "binary" && /^[<>]/.test(parent.op)) return "number";
  return undefined;
}
