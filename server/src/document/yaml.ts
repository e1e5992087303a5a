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
import type { ParseProblem, ParseValue, PathAt } from "./types";
import { explainYamlErrors } from "./yamlErrors";

// prettyErrors off: plain messages, we give ranges; logLevel "error": no console output (the values and the
// errors are the same as with the defaults YAML.parse uses)
const OPTIONS = { prettyErrors: false, logLevel: "error" } as const;
/** YAML.parse's default budget (Document#toJS maxAliasCount). */
const MAX_ALIAS_COUNT = 100;
/** Collection keys inside collection keys: converting them costs super-polynomial time in the package. */
export const MAX_KEY_NESTING = 32;
/** Alias work allowed, in steps of the package's document visitor (about 0.7 µs each): about a second. */
const MAX_ALIAS_WORK = 1_500_000;
/** A step of the package's scan of its anchor/alias list, relative to a visitor step. */
const LIST_STEP_COST = 0.05;

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
  report(list: "errors" | "warnings", message: string, start: number, end: number, code?: string, value?: ParseValue): void {
    const problem = this.problem(message, start, end, code);
    (list === "errors" ? this.parseErrors : this.parseWarnings).push(value ? { ...problem, value } : problem);
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

  /** How deeply collections used as mapping keys nest inside each other (and where), and how many aliases there are. */
  collectionKeyNesting(): { depth: number; offset: number; aliases: number } {
    let best = { depth: 0, offset: 0 };
    let aliases = 0;
    const stack: [unknown, number][] = [[this.yaml?.contents, 0]];
    while (stack.length > 0) {
      const [node, depth] = stack.pop()!;
      if (isAlias(node)) aliases++;
      else if (isPair(node)) {
        const keyDepth = isCollection(node.key) ? depth + 1 : depth;
        if (keyDepth > best.depth) best = { depth: keyDepth, offset: spanOf(node.key as YNode)?.[0] ?? 0 };
        stack.push([node.key, keyDepth], [node.value, depth]);
      } else if (isCollection(node)) {
        for (const item of node.items) stack.push([item, depth]);
      }
    }
    return { ...best, aliases };
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
   * Replays what the package's toJS does with aliases, to know before running it (1) whether it would take
   * too long and (2) which alias use exhausts the budget. Each use adds one to its anchor's count and fails
   * once count × (the largest expansion inside the anchored node, computed at its first use) > 100. The cost:
   * toJS finds each alias's anchor by scanning a list of anchors and aliases up to it, and computing an
   * expansion walks the anchored node and visits the whole document once per alias inside it (quadratic:
   * a crafted 60 KB file takes the package over 30 s).
   */
  replayAliases(): { excessive?: Alias; costly?: Alias } {
    const root = this.yaml?.contents;
    // per node: size, aliases inside, and the largest expansion when that does not depend on aliases
    const order: unknown[] = [];
    const walk: unknown[] = [root];
    const aliasOrder = new Map<Alias, number>();
    let listed = 0;
    while (walk.length > 0) {
      const n = walk.pop();
      order.push(n);
      if (isAlias(n)) aliasOrder.set(n, listed++);
      else if ((isScalar(n) || isCollection(n)) && n.anchor) listed++;
      const kids = childrenOf(n);
      for (let i = kids.length - 1; i >= 0; i--) walk.push(kids[i]);
    }
    const nodeCount = order.length;
    const stats = new Map<unknown, { size: number; aliases: number; max: number }>();
    const statOf = (n: unknown) =>
      stats.get(n) ?? (isAlias(n) ? { size: 1, aliases: 1, max: 0 } : n === null || n === undefined ? { size: 0, aliases: 0, max: 1 } : { size: 1, aliases: 0, max: 1 });
    for (let i = order.length - 1; i >= 0; i--) {
      const n = order[i];
      if (!isCollection(n) && !isPair(n)) continue;
      const st = { size: 1, aliases: 0, max: 0 };
      for (const kid of childrenOf(n)) {
        const k = statOf(kid);
        st.size += k.size;
        st.aliases += k.aliases;
        st.max = Math.max(st.max, k.max);
      }
      stats.set(n, st);
    }

    const counts = new Map<YNode, { count: number; aliasCount: number }>();
    const expansion = (start: unknown): number => {
      if (statOf(start).aliases === 0) return statOf(start).max;
      let max = 0;
      const stack: unknown[] = [start];
      while (stack.length > 0) {
        const n = stack.pop();
        if (isAlias(n)) {
          const t = this.target(n);
          const d = t && counts.get(t);
          max = Math.max(max, d ? d.count * d.aliasCount : 0);
        } else if (statOf(n).aliases === 0) max = Math.max(max, statOf(n).max);
        else for (const kid of childrenOf(n)) stack.push(kid);
      }
      return max;
    };
    let work = nodeCount; // the first alias lists every anchor and alias of the document
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (isAlias(node)) {
        work += (aliasOrder.get(node) ?? 0) * LIST_STEP_COST;
        const t = this.target(node);
        const d = t && counts.get(t);
        if (!d) return {}; // unresolved: toJS stops here
        d.count += 1;
        if (d.aliasCount === 0) {
          d.aliasCount = expansion(t);
          const st = statOf(t);
          work += st.size + st.aliases * nodeCount;
        }
        // the package computes the expansion before it checks the budget: the cost comes first
        if (work > MAX_ALIAS_WORK) return { costly: node };
        if (d.count * d.aliasCount > MAX_ALIAS_COUNT) return { excessive: node };
        continue;
      }
      if ((isScalar(node) || isCollection(node)) && node.anchor) counts.set(node, { count: 1, aliasCount: 0 });
      const kids = childrenOf(node);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    return {};
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
  const raw = parsed.errors.map((e) => ({ code: e.code, message: e.message, start: e.pos[0], end: e.pos[1] }));
  for (const e of explainYamlErrors(text, raw)) doc.report("errors", e.message, e.start, e.end, e.code, e.value);
  if (second) {
    // the start of the second document, to the end of that line (usually its `---`)
    const start = second.range[0];
    doc.report("errors", "More than one YAML document: an LWIR file holds exactly one", start, endOfLine(text, start, text.length), "MULTIPLE_DOCS");
  }
  for (const w of parsed.warnings) doc.report("warnings", w.message, w.pos[0], w.pos[1], w.code);
  if (doc.parseErrors.length > 0) return doc;
  const keyNesting = doc.collectionKeyNesting();
  if (keyNesting.depth > MAX_KEY_NESTING) {
    // the package's toJS stringifies collection keys, and nested ones take super-polynomial time
    // (`? ? ? … x` 300 levels deep: over a minute); the runtime would hang on such a document
    doc.report(
      "errors",
      `Mapping keys that are collections are nested ${keyNesting.depth} deep here; LWIR tools refuse more than ${MAX_KEY_NESTING}`,
      keyNesting.offset,
      keyNesting.offset + 1,
      "KEY_NESTING_TOO_DEEP",
    );
    return doc;
  }
  const replay = keyNesting.aliases > 0 ? doc.replayAliases() : {};
  if (replay.costly) {
    const [start, end] = spanOf(replay.costly) ?? [0, 1];
    doc.report("errors", "So many aliases inside aliased nodes that resolving them would take the YAML parser too long", start, end, "ALIAS_WORK");
    return doc;
  }
  try {
    doc.value = parsed.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const budget = /alias count/i.test(message);
    const alias = budget ? replay.excessive : /unresolved alias/i.test(message) ? doc.unresolvedAlias() : undefined;
    const span = spanOf(alias) ?? spanOf(parsed.contents) ?? [0, 0, 0];
    doc.report(
      "errors",
      budget ? `The aliases (*name) in this document expand to more than ${MAX_ALIAS_COUNT} copies, more than LWIR reads.` : message,
      span[0],
      alias ? span[1] : span[0] + 1,
      budget ? "ALIAS_BUDGET" : alias ? "UNRESOLVED_ALIAS" : "CONVERSION",
    );
    doc.value = undefined;
  }
  return doc;
}
