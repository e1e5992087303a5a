// Shared by the document-layer tests: the corpus files, every path of a parsed value, and an independent
// oracle for finding ranges (the rule scripts/conformance.mjs applies, re-stated on jsonc-parser / yaml trees).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseTree, type Node as JsoncNode } from "jsonc-parser";
import * as YAML from "yaml";
import type { PathSegment } from "../../server/src/lwir/types";
import type { Range } from "../../server/src/document/types";

import { CONFORMANCE, REALWORLD } from "../corpus";

export { CONFORMANCE, REALWORLD };

/** Documents under each corpus folder, subfolders included: a missing or short folder fails the test. */
const FILE_COUNTS: Record<string, number> = { [CONFORMANCE]: 354 + 14, [REALWORLD]: 46 };

export interface CorpusFile {
  file: string;
  name: string;
  format: "json" | "yaml";
  syntax: boolean;
}

export function corpusFiles(dir: string = CONFORMANCE): CorpusFile[] {
  const out: CorpusFile[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const m = /\.lwir\.(json|yaml|yml)$/.exec(name);
        if (m) out.push({ file: full, name: full.slice(dir.length + 1), format: m[1] === "json" ? "json" : "yaml", syntax: full.includes("/syntax/") });
      }
    }
  };
  if (!existsSync(dir)) throw new Error(`corpus folder ${dir} is missing`);
  walk(dir);
  const expected = FILE_COUNTS[dir];
  if (expected !== undefined && out.length !== expected) throw new Error(`${dir} holds ${out.length} documents, expected ${expected}`);
  if (out.length === 0) throw new Error(`${dir} holds no documents`);
  return out;
}

/** Every path into a value (cycles visited once), plus one absent member below each object and array. */
export function allPaths(value: unknown, limit = 4000): { segments: PathSegment[]; exists: boolean }[] {
  const out: { segments: PathSegment[]; exists: boolean }[] = [];
  const seen = new Set<unknown>();
  const stack: [unknown, PathSegment[]][] = [[value, []]];
  while (stack.length > 0 && out.length < limit) {
    const [v, segs] = stack.pop()!;
    out.push({ segments: segs, exists: true });
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, [...segs, i]]));
      out.push({ segments: [...segs, v.length], exists: false });
    } else if (Object.getPrototypeOf(v) === Object.prototype) {
      for (const k of Object.keys(v)) stack.push([(v as Record<string, unknown>)[k], [...segs, k]]);
      out.push({ segments: [...segs, "no such key", "below"], exists: false });
    }
  }
  return out;
}

interface Target {
  span: [number, number];
  starts: number[];
  length?: number;
}

function lineStartsLF(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return starts;
}

// the oracle parses each text once, however many paths are checked against it
let cached: { text: string; tree?: JsoncNode; doc?: YAML.Document.Parsed } = { text: "" };
function parsedFor(text: string): typeof cached {
  if (cached.text !== text) cached = { text };
  return cached;
}

function jsonTargets(text: string, segments: readonly PathSegment[]): { targets: Target[]; exact: boolean } {
  const entry = parsedFor(text);
  const root = (entry.tree ??= parseTree(text, [], { disallowComments: true }));
  if (!root) return { targets: [{ span: [0, text.length], starts: [0] }], exact: false };
  let node: JsoncNode = root;
  let target: Target = { span: [node.offset, node.offset + node.length], starts: [node.offset] };
  for (const seg of segments) {
    let next: JsoncNode | undefined;
    if (node.type === "object" && typeof seg === "string") {
      const prop = [...(node.children ?? [])].reverse().find((p) => p.children?.[0].value === seg);
      if (prop?.children?.[1]) {
        next = prop.children[1];
        target = { span: [prop.offset, next.offset + next.length], starts: [prop.offset, next.offset], length: next.length };
      }
    } else if (node.type === "array" && typeof seg === "number") {
      next = node.children?.[seg];
      if (next) target = { span: [next.offset, next.offset + next.length], starts: [next.offset], length: next.length };
    }
    if (!next) return { targets: [target], exact: false };
    node = next;
  }
  return { targets: [target], exact: true };
}

function yamlTargets(text: string, segments: readonly PathSegment[]): { targets: Target[]; exact: boolean } {
  const entry = parsedFor(text);
  const doc = (entry.doc ??= YAML.parseDocument(text));
  const deref = (n: unknown): YAML.Node | undefined =>
    YAML.isAlias(n) ? (n.resolve(doc) as YAML.Node | undefined) : ((n ?? undefined) as YAML.Node | undefined);
  let node = deref(doc.contents);
  if (!node?.range) return { targets: [{ span: [0, text.length], starts: [0] }], exact: false };
  let targets: Target[] = [{ span: [node.range[0], node.range[1]], starts: [node.range[0]] }];
  const keyOf = (p: YAML.Pair): string => {
    const k = deref(p.key);
    if (k === undefined || k === null) return "";
    return YAML.isScalar(k) ? (k.value === null ? "" : String(k.value)) : String(k);
  };
  for (const seg of segments) {
    let raw: YAML.Node | undefined;
    let keyStart: number | undefined;
    if (YAML.isMap(node) && typeof seg === "string") {
      const pair = [...node.items].reverse().find((p) => keyOf(p as YAML.Pair) === seg) as YAML.Pair<YAML.Node, YAML.Node> | undefined;
      if (pair) {
        raw = pair.value ?? undefined;
        keyStart = pair.key?.range?.[0];
        if (!raw && pair.key?.range) return { targets: [{ span: [pair.key.range[0], pair.key.range[1]], starts: [pair.key.range[0]] }], exact: true };
      }
    } else if (YAML.isSeq(node) && typeof seg === "number") {
      raw = node.items[seg] as YAML.Node | undefined;
    }
    const next = raw && deref(raw);
    if (!raw || !next) return { targets, exact: false };
    const at = (raw.range ?? next.range)!;
    targets = [{ span: [keyStart ?? at[0], at[1]], starts: [keyStart ?? at[0], at[0]], length: at[1] - at[0] }];
    if (raw !== next && next.range) targets.push({ span: [next.range[0], next.range[1]], starts: [next.range[0]], length: next.range[1] - next.range[0] });
    node = next;
  }
  return { targets, exact: true };
}

/** Whether conformance/check.mjs would accept this range for a finding at this path (undefined: yes; else why not). */
export function rangeProblem(format: "json" | "yaml", text: string, segments: readonly PathSegment[], range: Range): string | undefined {
  const starts = lineStartsLF(text);
  const off = (p: { line: number; character: number }) => (p.line >= 0 && p.line < starts.length ? starts[p.line] + p.character : NaN);
  const s = off(range.start);
  const e = off(range.end);
  if (!(s <= e && e <= text.length)) return `bad offsets ${s}..${e}`;
  if (segments.length === 0) return undefined;
  const where = format === "json" ? jsonTargets(text, segments) : yamlTargets(text, segments);
  const ok = where.targets.some((t) => s >= t.span[0] && e <= t.span[1] &&
    (!where.exact || ((e > s || !t.length) && t.starts.some((st) => s === st || s === st + 1))));
  return ok ? undefined : `range ${s}..${e} (${JSON.stringify(text.slice(s, e))}) not accepted; targets ${JSON.stringify(where)}`;
}

/** The text a range covers. */
export function textOf(text: string, range: Range, offsetAt: (p: Range["start"]) => number): string {
  return text.slice(offsetAt(range.start), offsetAt(range.end));
}
