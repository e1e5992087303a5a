// YAML documents via the `yaml` package, read exactly as the runtime's `YAML.parse(text)` reads them: one
// document, YAML 1.2 core schema, unique keys, aliases resolved (recursive ones give a cyclic value), at most
// 100 alias expansions. The composer is fed by parseYamlCst (depth.ts), which refuses deep nesting first.
import {
  Composer,
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Alias,
  type Document,
  type Node as YNode,
  type Pair,
  type YAMLMap,
} from "yaml";
import type { PathSegment } from "../lwir/types";
import { parseYamlCst } from "./depth";
import { BaseDocument, endOfLine, type TrailNode } from "./text";
import type { ParseProblem, PathAt } from "./types";

// prettyErrors off: plain messages, we give ranges; logLevel "error": no console output (the values and the
// errors are the same as with the defaults YAML.parse uses)
const OPTIONS = { prettyErrors: false, logLevel: "error" } as const;
/** YAML.parse's default budget (Document#toJS maxAliasCount). */
const MAX_ALIAS_COUNT = 100;

type Span = [number, number, number];

interface MapKeys {
  byKey: Map<string, Pair>;
  ofPair: Map<Pair, string>;
}

/** The converted value one step down, following the node walk (undefined where there is none). */
function jsChild(js: unknown, seg: PathSegment): unknown {
  if (js === null || typeof js !== "object" || js instanceof Map || js instanceof Set) return undefined;
  return (js as Record<string, unknown>)[seg as string];
}

function spanOf(node: YNode | null | undefined): Span | undefined {
  const r = node?.range;
  return r ? [r[0], r[1], r[2]] : undefined;
}

/** Children in the order the package visits and converts them: collection items in order, a pair's key then value. */
function childrenOf(node: unknown): unknown[] {
  if (isMap(node) || isSeq(node)) return node.items as unknown[];
  if (isPair(node)) return [node.key, node.value];
  return [];
}

export class YamlDocument extends BaseDocument {
  readonly format = "yaml" as const;
  readonly parseErrors: ParseProblem[] = [];
  readonly parseWarnings: ParseProblem[] = [];
  value: unknown = undefined;
  private aliasTargets: Map<Alias, YNode> | undefined;
  private readonly keyIndexes = new WeakMap<YAMLMap, MapKeys>();

  constructor(
    text: string,
    /** The composed document; undefined when the text was refused before composing (too deep). */
    readonly yaml: Document.Parsed | undefined,
  ) {
    super(text);
  }

  /** Records a problem while the document is being built. */
  report(list: "errors" | "warnings", message: string, start: number, end: number, code?: string): void {
    (list === "errors" ? this.parseErrors : this.parseWarnings).push(this.problem(message, start, end, code));
  }

  /** The node an alias stands for: the last node before it (in document order) carrying its anchor. */
  target(alias: Alias): YNode | undefined {
    if (!this.aliasTargets) {
      const targets = new Map<Alias, YNode>();
      const lastAnchor = new Map<string, YNode>();
      const stack: unknown[] = [this.yaml?.contents];
      while (stack.length > 0) {
        const node = stack.pop();
        if (isAlias(node)) {
          const found = lastAnchor.get(node.source);
          if (found) targets.set(node, found);
          continue;
        }
        const anchor = (node as { anchor?: string } | null)?.anchor;
        if (anchor && (isScalar(node) || isCollection(node))) lastAnchor.set(anchor, node);
        const kids = childrenOf(node);
        for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
      }
      this.aliasTargets = targets;
    }
    return this.aliasTargets.get(alias);
  }

  private deref(node: unknown): YNode | undefined {
    if (isAlias(node)) return this.target(node);
    return isScalar(node) || isCollection(node) ? node : undefined;
  }

  /** The object key toJS gives a scalar key (String() of its value, "" for null); undefined for other keys. */
  private scalarKey(key: unknown): string | undefined {
    if (key === null || key === undefined) return "";
    const node = this.deref(key);
    if (!isScalar(node)) return undefined;
    const v = node.value;
    if (v === null || v === undefined) return "";
    return typeof v === "object" || typeof v === "function" ? undefined : String(v);
  }

  /**
   * The object keys of a map's pairs, as in the converted value (later pairs win). A collection key is
   * stringified by the package in a way it does not export; such keys are matched against the converted
   * object `js` instead: its keys that no scalar key produced, in order, belong to the collection keys.
   */
  private keysOf(map: YAMLMap, js: unknown): MapKeys {
    let keys = this.keyIndexes.get(map);
    if (!keys) {
      keys = { byKey: new Map(), ofPair: new Map() };
      const pending: Pair[] = [];
      for (const item of map.items) {
        const pair = item as Pair;
        const k = this.scalarKey(pair.key);
        if (k === undefined) pending.push(pair);
        else {
          keys.byKey.set(k, pair);
          keys.ofPair.set(pair, k);
        }
      }
      if (pending.length > 0 && js !== null && typeof js === "object" && Object.getPrototypeOf(js) === Object.prototype) {
        const rest = Object.keys(js).filter((k) => !keys!.byKey.has(k));
        pending.forEach((pair, i) => {
          if (i >= rest.length) return;
          keys!.byKey.set(rest[i], pair);
          keys!.ofPair.set(pair, rest[i]);
        });
      }
      this.keyIndexes.set(map, keys);
    }
    return keys;
  }

  protected trail(segments: readonly PathSegment[]): TrailNode[] {
    const root = this.yaml?.contents;
    const rootSpan = spanOf(root);
    if (!this.yaml) return [];
    // an empty document is the value null, written nowhere: at the start
    if (!root || !rootSpan) return [{ valueStart: 0, valueEnd: 0, container: false }];
    const out: TrailNode[] = [{ valueStart: rootSpan[0], valueEnd: rootSpan[1], container: isCollection(this.deref(root)) }];
    let node = this.deref(root);
    let js = this.value;
    for (const seg of segments) {
      let raw: unknown;
      let key: YNode | null | undefined;
      if (isMap(node)) {
        const pair = this.keysOf(node, js).byKey.get(String(seg));
        if (!pair) break;
        raw = pair.value;
        key = pair.key as YNode | null;
      } else if (isSeq(node)) {
        if (typeof seg !== "number" || !Number.isInteger(seg) || seg < 0 || seg >= node.items.length) break;
        raw = node.items[seg];
      } else break;
      const keySpan = spanOf(key);
      const at = spanOf(raw as YNode | null);
      const next = this.deref(raw);
      // where the value is written: for an alias, its use; a pair without a value sits at its key
      const valueStart = at ? at[0] : keySpan ? keySpan[1] : 0;
      const valueEnd = at ? at[1] : valueStart;
      const trailNode: TrailNode = { valueStart, valueEnd, container: isCollection(next) };
      if (keySpan) {
        trailNode.keyStart = keySpan[0];
        trailNode.keyEnd = keySpan[1];
      }
      out.push(trailNode);
      if (!next) break;
      node = next;
      js = jsChild(js, seg);
    }
    return out;
  }

  pathAt(offset: number): PathAt | undefined {
    const root = this.yaml?.contents;
    const rootSpan = spanOf(root);
    if (!root || !rootSpan || (isScalar(root) && root.value === null && rootSpan[0] === rootSpan[1])) {
      // an empty document: a top-level key goes anywhere
      return this.yaml ? { segments: [], inKey: true, between: true } : undefined;
    }
    if (offset < rootSpan[0] || offset > rootSpan[2]) return undefined;
    const segments: PathSegment[] = [];
    let node: unknown = root;
    let js = this.value;
    for (;;) {
      if (isMap(node)) {
        const i = lastStartingBefore(node.items, offset, (p) => spanOf(p.key as YNode)?.[0] ?? spanOf(p.value as YNode)?.[0] ?? -1);
        const pair = i >= 0 ? node.items[i] : undefined;
        const keySpan = spanOf(pair?.key as YNode | null);
        const valueSpan = spanOf(pair?.value as YNode | null);
        const pairEnd = valueSpan?.[2] ?? keySpan?.[2] ?? -1;
        if (!pair || offset > pairEnd) return { segments, inKey: true, between: true };
        const k = this.keysOf(node, js).ofPair.get(pair as Pair) ?? "";
        segments.push(k);
        if (keySpan && offset <= keySpan[1]) return { segments, inKey: true };
        if (!valueSpan || offset < valueSpan[0] || !isCollection(pair.value)) return { segments, inKey: false };
        node = pair.value;
        js = jsChild(js, k);
      } else if (isSeq(node)) {
        const i = lastStartingBefore(node.items, offset, (n) => spanOf(n as YNode)?.[0] ?? -1);
        const item = i >= 0 ? (node.items[i] as YNode) : undefined;
        const span = spanOf(item);
        if (!item || !span || offset > span[2]) return { segments, inKey: false, between: true };
        segments.push(i);
        if (!isCollection(item)) return { segments, inKey: false };
        node = item;
        js = jsChild(js, i);
      } else return { segments, inKey: false };
    }
  }

  /** The first alias (in document order) with no anchor before it. */
  unresolvedAlias(): Alias | undefined {
    const stack: unknown[] = [this.yaml?.contents];
    while (stack.length > 0) {
      const node = stack.pop();
      if (isAlias(node)) {
        if (!this.target(node)) return node;
        continue;
      }
      const kids = childrenOf(node);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    return undefined;
  }

  /**
   * The alias use that exhausted the expansion budget, found by replaying the package's count: each alias use
   * adds one to its anchor's count, and fails once count × (the largest expansion inside the anchored node) > 100.
   */
  excessiveAlias(): Alias | undefined {
    const counts = new Map<YNode, { count: number; aliasCount: number }>();
    const expansion = (start: unknown): number => {
      let max = 0;
      const stack: unknown[] = [start];
      while (stack.length > 0) {
        const n = stack.pop();
        if (isAlias(n)) {
          const t = this.target(n);
          const d = t && counts.get(t);
          max = Math.max(max, d ? d.count * d.aliasCount : 0);
        } else if (isCollection(n) || isPair(n)) {
          for (const kid of childrenOf(n)) stack.push(kid);
        }
        else max = Math.max(max, 1); // scalars, and a pair's missing key or value
      }
      return max;
    };
    const stack: unknown[] = [this.yaml?.contents];
    while (stack.length > 0) {
      const node = stack.pop();
      if (isAlias(node)) {
        const t = this.target(node);
        const d = t && counts.get(t);
        if (!d) continue;
        d.count += 1;
        if (d.aliasCount === 0) d.aliasCount = expansion(t);
        if (d.count * d.aliasCount > MAX_ALIAS_COUNT) return node;
        continue;
      }
      if ((isScalar(node) || isCollection(node)) && node.anchor) counts.set(node, { count: 1, aliasCount: 0 });
      const kids = childrenOf(node);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    return undefined;
  }
}

/** Index of the last item whose start offset is at or before `offset` (items are in text order), or -1. */
function lastStartingBefore<T>(items: readonly T[], offset: number, startOf: (item: T) => number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = startOf(items[mid]);
    if (s >= 0 && s <= offset) {
      found = mid;
      lo = mid + 1;
    } else if (s < 0) {
      // an item without a position (should not happen in parsed documents): look on both sides
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export function parseYaml(text: string): YamlDocument {
  const composer = new Composer(OPTIONS);
  let first: Document.Parsed | undefined;
  let second: Document.Parsed | undefined;
  const take = (doc: Document.Parsed): boolean => {
    if (!first) first = doc;
    else second = doc;
    return second !== undefined; // like YAML.parseDocument: stop at a second document
  };
  const tooDeep = parseYamlCst(text, (token) => {
    for (const doc of composer.next(token)) if (take(doc)) return true;
    return false;
  });
  if (tooDeep) {
    const doc = new YamlDocument(text, undefined);
    doc.report(
      "errors",
      `The YAML is nested more than ${tooDeep.limit} levels deep here; LWIR tools refuse such documents ` +
        `(the runtime's YAML parser gives up on deep nesting too)`,
      tooDeep.offset,
      tooDeep.offset + 1,
      "NESTING_TOO_DEEP",
    );
    return doc;
  }
  if (!second) for (const doc of composer.end(true, text.length)) if (take(doc)) break;
  const parsed = first as Document.Parsed; // end(true) always yields a document
  const doc = new YamlDocument(text, parsed);
  for (const e of parsed.errors) doc.report("errors", e.message, e.pos[0], e.pos[1], e.code);
  if (second) {
    // the start of the second document, to the end of that line (usually its `---`)
    const start = second.range[0];
    doc.report("errors", "More than one YAML document: an LWIR file holds exactly one", start, endOfLine(text, start, text.length), "MULTIPLE_DOCS");
  }
  for (const w of parsed.warnings) doc.report("warnings", w.message, w.pos[0], w.pos[1], w.code);
  if (doc.parseErrors.length > 0) return doc;
  try {
    doc.value = parsed.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const budget = /alias count/i.test(message);
    const alias = budget ? doc.excessiveAlias() : /unresolved alias/i.test(message) ? doc.unresolvedAlias() : undefined;
    const span = spanOf(alias) ?? spanOf(parsed.contents) ?? [0, 0, 0];
    doc.report(
      "errors",
      budget ? `Aliases expand past the parser's budget of ${MAX_ALIAS_COUNT} (${message})` : message,
      span[0],
      alias ? span[1] : span[0] + 1,
      budget ? "ALIAS_BUDGET" : alias ? "UNRESOLVED_ALIAS" : "CONVERSION",
    );
    doc.value = undefined;
  }
  return doc;
}
