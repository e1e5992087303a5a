// Document symbols: the outline of a workflow. The top-level keys in source order (metadata with its
// fields, input/output with their schema properties, permissions with their lists, steps with every
// step); a step is named by its id ("(step N)" without a valid one), has its `uses` as detail and a kind
// by type, and a parallel step holds its body. Ranges: the member; selection: its key or the step's id.
import { SymbolKind, type DocumentSymbol, type Range } from "vscode-languageserver-types";
import { endWithoutWhiteSpace } from "../document/text";
import type { LwirDocument, NodeLocation } from "../document/types";
import type { PathSegment } from "../lwir/types";
import { isObject, stepIdProblem } from "../lwir/validate";
import type { Analysis } from "./analysis";

/** Symbol kind of each step type; other values give Object. */
export const STEP_SYMBOL_KINDS: Readonly<Record<string, SymbolKind>> = {
  "ai.generate": SymbolKind.Function,
  "tool.call": SymbolKind.Method,
  "code.run": SymbolKind.Module,
  parallel: SymbolKind.Array,
  decision: SymbolKind.Event,
};

/** Bodies nest at most this deep in the outline (the validator refuses nesting below one level anyway). */
const MAX_BODY_DEPTH = 32;

export function provideDocumentSymbols(analysis: Analysis): DocumentSymbol[] {
  const doc = analysis.document;
  const root = doc.value;
  if (!isObject(root)) return [];
  const symbols: DocumentSymbol[] = [];
  const outline = new Outline(doc);
  for (const key of Object.keys(root)) {
    const symbol = outline.topLevel(key, root[key]);
    if (symbol) symbols.push(symbol);
  }
  return symbols.sort((a, b) => compare(a.range.start, b.range.start));
}

class Outline {
  constructor(private readonly doc: LwirDocument) {}

  topLevel(key: string, value: unknown): DocumentSymbol | undefined {
    const segments = [key];
    switch (key) {
      case "apiVersion":
      case "kind":
        return this.member(segments, SymbolKind.Constant, typeof value === "string" ? value : "");
      case "metadata": {
        const symbol = this.member(segments, SymbolKind.Module, isObject(value) && typeof value.name === "string" ? value.name : "");
        if (symbol && isObject(value)) this.children(symbol, Object.keys(value).map((k) => this.member([key, k], SymbolKind.Property, scalarText(value[k]))));
        return symbol;
      }
      case "input":
      case "output": {
        const schema = isObject(value) ? value.schema : undefined;
        const symbol = this.member(segments, SymbolKind.Interface, schemaSummary(schema));
        const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : undefined;
        if (symbol && properties) {
          this.children(symbol, Object.keys(properties).map((k) =>
            this.member([key, "schema", "properties", k], SymbolKind.Field, schemaSummary(properties[k]))));
        }
        return symbol;
      }
      case "permissions": {
        const symbol = this.member(segments, SymbolKind.Namespace, "");
        if (symbol && isObject(value)) {
          this.children(symbol, Object.keys(value).map((k) => {
            const list = value[k];
            const detail = Array.isArray(list) ? list.filter((e) => typeof e === "string").join(", ") : scalarText(list);
            return this.member([key, k], SymbolKind.Array, detail);
          }));
        }
        return symbol;
      }
      case "steps": {
        const count = Array.isArray(value) ? `${value.length} step${value.length === 1 ? "" : "s"}` : "";
        const symbol = this.member(segments, SymbolKind.Array, count);
        if (symbol && Array.isArray(value)) this.children(symbol, this.steps(value, segments, 0));
        return symbol;
      }
      default:
        return this.member(segments, isObject(value) ? SymbolKind.Object : Array.isArray(value) ? SymbolKind.Array : SymbolKind.Property, scalarText(value));
    }
  }

  /** One symbol per step object of a list; parallel bodies nested. */
  steps(entries: unknown[], listSegments: PathSegment[], depth: number): DocumentSymbol[] {
    const out: DocumentSymbol[] = [];
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      if (!isObject(entry)) return;
      const segments = [...listSegments, i];
      const loc = this.doc.locate(segments);
      if (!loc) return;
      const range = this.valueRange(loc);
      const validId = stepIdProblem(entry.id) === undefined ? (entry.id as string) : undefined;
      const idLoc = this.doc.locate([...segments, "id"]);
      const selectionRange = idLoc && within(this.valueRange(idLoc), range) ? this.valueRange(idLoc) : firstLine(this.doc, loc);
      const uses = typeof entry.uses === "string" ? entry.uses : "";
      const duplicate = validId !== undefined && seen.has(validId);
      if (validId !== undefined) seen.add(validId);
      const symbol: DocumentSymbol = {
        name: validId ?? `(step ${i + 1})`,
        detail: duplicate ? `${uses} (duplicate id)` : uses,
        kind: STEP_SYMBOL_KINDS[uses] ?? SymbolKind.Object,
        range,
        selectionRange,
      };
      if (entry.uses === "parallel" && Array.isArray(entry.steps) && depth < MAX_BODY_DEPTH) {
        this.children(symbol, this.steps(entry.steps, [...segments, "steps"], depth + 1));
      }
      out.push(symbol);
    });
    return out;
  }

  /** A `key: value` member: range from the key to the end of the value, selection on the key. */
  member(segments: PathSegment[], kind: SymbolKind, detail: string): DocumentSymbol | undefined {
    const loc = this.doc.locate(segments);
    if (!loc || loc.keyStart === undefined || loc.keyEnd === undefined) return undefined;
    const end = Math.max(loc.keyEnd, endWithoutWhiteSpace(this.doc.text, loc.valueStart, loc.valueEnd));
    const name = segments[segments.length - 1];
    return {
      name: String(name) === "" ? '""' : String(name),
      detail,
      kind,
      range: this.doc.rangeAt(loc.keyStart, end),
      selectionRange: this.doc.rangeAt(loc.keyStart, loc.keyEnd),
    };
  }

  /** Sets the children that lie inside the parent (a YAML alias can point elsewhere). */
  children(parent: DocumentSymbol, children: Array<DocumentSymbol | undefined>): void {
    const inside = children.filter((c): c is DocumentSymbol => c !== undefined && within(c.range, parent.range));
    if (inside.length > 0) parent.children = inside;
  }

  valueRange(loc: NodeLocation): Range {
    return this.doc.rangeAt(loc.valueStart, endWithoutWhiteSpace(this.doc.text, loc.valueStart, loc.valueEnd));
  }
}

/** A short description of a JSON Schema: its type(s), `true`/`false`, or "" when it has none. */
function schemaSummary(schema: unknown): string {
  if (typeof schema === "boolean") return String(schema);
  if (!isObject(schema)) return "";
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.filter((t) => typeof t === "string").join(" | ");
  return "";
}

function scalarText(value: unknown): string {
  if (typeof value === "string") return value.length > 80 ? value.slice(0, 79) + "…" : value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return "";
}

/** The first line of a node (where a step without an id is selected). */
function firstLine(doc: LwirDocument, loc: NodeLocation): Range {
  let end = loc.valueStart;
  while (end < loc.valueEnd && doc.text.charCodeAt(end) !== 10 && doc.text.charCodeAt(end) !== 13) end++;
  return doc.rangeAt(loc.valueStart, endWithoutWhiteSpace(doc.text, loc.valueStart, end));
}

function compare(a: { line: number; character: number }, b: { line: number; character: number }): number {
  return a.line - b.line || a.character - b.character;
}

function within(inner: Range, outer: Range): boolean {
  return compare(outer.start, inner.start) <= 0 && compare(inner.end, outer.end) <= 0;
}
