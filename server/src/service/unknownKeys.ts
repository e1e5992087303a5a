// lwir.unknown_key (docs/rules/lwir.unknown_key.md): a key the runtime never reads, in an object whose keys
// the format defines. The runtime's validator ignores unknown keys everywhere (but `cache` on a step), so a
// misspelt `need:` or `permission:` is silently dropped and the workflow runs without it. Only objects
// whose every key the runtime reads are checked; open ones are left alone: `metadata`, the `with` of
// ai.generate, tool.call and code.run (free-form, passed on), `input` of a step (any JSON), and every JSON
// Schema (its keywords are the schema check's business, and unknown keywords are a finding already).
import type { LwirDocument, Range } from "../document/types";
import type { PathSegment } from "../lwir/types";
import type { Analysis } from "./analysis";
import type { Fix } from "./codeActions";
import type { LwirDiagnosticData } from "./diagnostics";
import { closeNames } from "./didYouMean";

export const UNKNOWN_KEY = "lwir.unknown_key";

export interface UnknownKey {
  /** The path of the member whose key is unknown. */
  segments: PathSegment[];
  key: string;
  /** The keys that object may have. */
  known: readonly string[];
  /** Known keys close to `key`, nearest first (did you mean), none already in the object; never empty. */
  suggestions: string[];
}

const TOP = ["apiVersion", "kind", "metadata", "input", "output", "permissions", "steps"];
const SCHEMA_HOLDER = ["schema"];
const PERMISSIONS = ["models", "tools", "secrets", "network"];
// `cache` is refused by the runtime (schema.unimplemented_field), not ignored; `steps` is read for parallel steps.
const STEP = ["id", "uses", "needs", "input", "with", "output", "maxVisits", "sensitive", "onFailure", "steps", "cache"];
const OUTPUT = ["mode", "schema", "values", "name", "description"];
const ON_FAILURE = ["repair", "fixer"];
const REPAIR = ["mode", "maxAttempts", "model"];
const FIXER = ["model", "maxAttempts", "system"];
const DECISION_WITH = ["default", "cases"];
const CASE = ["when", "to"];
const PARALLEL_WITH = ["items", "itemKey", "cardinality", "maxBranches", "maxConcurrency", "failureMode", "fanIn"];
const FAN_IN = ["order", "output", "outputStep"];
const CARDINALITY = ["kind"];
const SANDBOX = ["network", "env", "fs"];
const FILE = ["content", "sha256"];

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Every unknown key of the document's closed objects, in document order. Never throws on odd values. */
export function findUnknownKeys(root: unknown): UnknownKey[] {
  const out: UnknownKey[] = [];
  const check = (value: unknown, segments: PathSegment[], known: readonly string[]): value is Record<string, unknown> => {
    if (!isPlainObject(value)) return false;
    const keys = Object.keys(value);
    for (const key of keys) {
      if (known.includes(key)) continue;
      // Only a misspelling: a key close to a known one the object lacks. Other extra keys (`notes`, `comment`)
      // are annotations people add on purpose, and the runtime's own corpus has them in valid workflows.
      // (`cache` is never proposed: the runtime refuses it.)
      const free = known.filter((k) => k !== "cache" && !Object.prototype.hasOwnProperty.call(value, k));
      const suggestions = closeNames(key, free, 3).map((s) => s.name);
      if (suggestions.length > 0) out.push({ segments: [...segments, key], key, known, suggestions });
    }
    return true;
  };
  if (!check(root, [], TOP)) return out;
  check(root.input, ["input"], SCHEMA_HOLDER);
  check(root.output, ["output"], SCHEMA_HOLDER);
  check(root.permissions, ["permissions"], PERMISSIONS);
  // Step lists, iteratively (a parallel body is a list; the runtime refuses deeper nesting, but odd
  // documents must not cost the stack).
  const lists: Array<{ list: unknown; segments: PathSegment[] }> = [{ list: root.steps, segments: ["steps"] }];
  while (lists.length > 0) {
    const { list, segments } = lists.pop()!;
    if (!Array.isArray(list)) continue;
    list.forEach((step, i) => {
      const at = [...segments, i];
      if (!check(step, at, STEP)) return;
      check(step.output, [...at, "output"], OUTPUT);
      if (check(step.onFailure, [...at, "onFailure"], ON_FAILURE)) {
        const onFailure = step.onFailure as Record<string, unknown>;
        check(onFailure.repair, [...at, "onFailure", "repair"], REPAIR);
        check(onFailure.fixer, [...at, "onFailure", "fixer"], FIXER);
      }
      const w = step.with;
      const withAt = [...at, "with"];
      if (step.uses === "decision" && check(w, withAt, DECISION_WITH)) {
        const cases = (w as Record<string, unknown>).cases;
        if (Array.isArray(cases)) cases.forEach((c, j) => check(c, [...withAt, "cases", j], CASE));
      } else if (step.uses === "parallel") {
        if (check(w, withAt, PARALLEL_WITH)) {
          const pw = w as Record<string, unknown>;
          check(pw.fanIn, [...withAt, "fanIn"], FAN_IN);
          check(pw.cardinality, [...withAt, "cardinality"], CARDINALITY);
        }
        lists.push({ list: step.steps, segments: [...at, "steps"] });
      } else if (step.uses === "code.run" && isPlainObject(w)) {
        check(w.sandbox, [...withAt, "sandbox"], SANDBOX);
        if (isPlainObject(w.files)) for (const [name, file] of Object.entries(w.files)) check(file, [...withAt, "files", name], FILE);
      }
    });
  }
  return out.sort((a, b) => compareSegments(a.segments, b.segments));
}

/** Document order for paths from one walk: parents before children, list elements and keys as found. */
function compareSegments(a: readonly PathSegment[], b: readonly PathSegment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    if (typeof a[i] === "number" && typeof b[i] === "number") return (a[i] as number) - (b[i] as number);
    return 0; // keys of one object: keep the walk's order (sort is stable)
  }
  return a.length - b.length;
}

/** The notice's message. */
export function unknownKeyMessage(u: UnknownKey): string {
  const where = u.segments.length === 1 ? "at the top level" : "here";
  const didYouMean = `Did you mean ${u.suggestions.map((s) => `"${s}"`).join(" or ")}?`;
  // A second byte-order mark at the start of a YAML file lands in the first key, where no one can see it.
  if (u.key.includes("\ufeff")) {
    return `The runtime ignores the key "${u.key.replace(/\ufeff/g, "")}" ${where}: it holds an invisible byte-order mark (U+FEFF), ` +
      `so it is not one of the keys the runtime reads. ${didYouMean}`;
  }
  return `The runtime ignores the key "${u.key}" ${where}: it is not one of the keys it reads, so this value has no effect. ${didYouMean}`;
}

// ---- the notice and its quick fix -----------------------------------------------------------------

/** An unknown key where the document writes it: the key's range (the member's when the key has none). */
export function unknownKeyNotices(doc: LwirDocument): Array<UnknownKey & { range: Range; message: string }> {
  if (doc.parseErrors.length > 0 || doc.value === undefined) return [];
  return findUnknownKeys(doc.value).map((u) => {
    const loc = doc.locate(u.segments);
    const range = loc?.keyStart !== undefined && loc.keyEnd !== undefined ? doc.rangeAt(loc.keyStart, loc.keyEnd) : doc.findingRange(u.segments);
    return { ...u, range, message: unknownKeyMessage(u) };
  });
}

/**
 * "Rename to NAME", one per suggestion, the nearest preferred; applied unasked (`lwir validate --fix`)
 * only when exactly one known key is close. Empty when the data no longer matches the text.
 */
export function unknownKeyFixes(analysis: Analysis, data: LwirDiagnosticData): Fix[] {
  const u = data.unknownKey;
  if (data.code !== UNKNOWN_KEY || !u) return [];
  const doc = analysis.document;
  const current = unknownKeyNotices(doc).find((n) => n.key === u.key && n.segments.length === data.segments.length && n.segments.every((s, i) => s === data.segments[i]));
  if (!current) return [];
  const loc = doc.locate(current.segments);
  if (loc?.keyStart === undefined || loc.keyEnd === undefined) return [];
  const written = doc.text.slice(loc.keyStart, loc.keyEnd);
  const fixes: Fix[] = [];
  for (const name of current.suggestions) {
    const newText = renamedKey(written, u.key, name, doc.format);
    if (newText === undefined) continue;
    fixes.push({ title: `Rename to ${name}`, edits: [{ start: loc.keyStart, end: loc.keyEnd, newText }], ...(fixes.length === 0 ? { preferred: true } : {}) });
  }
  if (fixes.length === 1 && current.suggestions.length === 1) fixes[0].auto = true;
  return fixes;
}

/** The key as written, renamed in the same quoting; undefined when it is written in a way not handled here. */
function renamedKey(written: string, key: string, name: string, format: "json" | "yaml"): string | undefined {
  if (written === JSON.stringify(key)) return JSON.stringify(name);
  if (format === "yaml" && written === key) return name; // known keys are plain YAML scalars
  if (format === "yaml" && written === `'${key.replace(/'/g, "''")}'`) return `'${name}'`;
  return undefined;
}
