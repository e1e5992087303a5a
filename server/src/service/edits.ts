// Minimal text edits on an LWIR document that keep the author's formatting, for quick fixes.
// Each function reads where things are written (the document layer's `locate`) and returns edits
// as text offsets; nothing is re-serialised beyond the value being written. Both formats:
//   - JSON: the indentation, line breaks and `": "` spacing of the neighbours; never a trailing comma.
//   - YAML: block or flow style as found, the neighbours' indentation and quote style, plain scalars
//     where they read back as the same string.
// Line breaks follow the document (CRLF stays CRLF). A function returns undefined when the text is
// not in a shape it can edit safely (a YAML alias or anchor, a node written elsewhere through a merge
// key, a value that is not the expected type): a quick fix then offers nothing rather than guess.
import { valueAt } from "../lwir/path";
import type { NodeLocation } from "../document/types";
import type { PathSegment } from "../lwir/types";
import { quoteYaml, yamlScalar } from "../document/yamlQuote";
import { NEEDS_AFTER, yamlFlowLists } from "./needsPlacement";

/** Replace text[start, end) with newText. Insertions have start === end. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/** What the edits need from a parsed document (an LwirDocument has all of it). */
export interface EditableDocument {
  readonly format: "json" | "yaml";
  readonly text: string;
  readonly value: unknown;
  locate(segments: readonly PathSegment[]): NodeLocation | undefined;
}

/** JSON-compatible data to write. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Applies non-overlapping edits (any order) to a text. */
export function applyEdits(text: string, edits: readonly OffsetEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

// ---- the edits ------------------------------------------------------------------------------------

/**
 * Adds ids to the `needs` of the step at `stepSegments`: appended to the array as written (flow or
 * block), or a new `needs` placed after the step's `uses`/`id`.
 */
export function addNeedsEntries(doc: EditableDocument, stepSegments: readonly PathSegment[], ids: readonly string[]): OffsetEdit[] | undefined {
  if (ids.length === 0) return [];
  const step = valueAt(doc.value, stepSegments);
  if (!isObject(step)) return undefined;
  if (step.needs === undefined) return addProperty(doc, stepSegments, "needs", [...ids], { after: NEEDS_AFTER });
  if (!Array.isArray(step.needs)) return undefined;
  return appendToArray(doc, [...stepSegments, "needs"], ids);
}

/** The array at `segments` as written: its node, where its content starts, its style and its elements' nodes (all inside it). */
function writtenArray(doc: EditableDocument, segments: readonly PathSegment[]) {
  const array = valueAt(doc.value, segments);
  const loc = editable(doc, segments);
  if (!Array.isArray(array) || !loc) return undefined;
  const ctx = new Context(doc);
  const text = doc.text;
  const start = ctx.contentStart(loc);
  const flow = doc.format === "json" || text[start] === "[";
  const elements: NodeLocation[] = [];
  for (let i = 0; i < array.length; i++) {
    const el = doc.locate([...segments, i]);
    if (!el || el.valueStart < loc.valueStart || el.valueEnd > loc.valueEnd) return undefined;
    elements.push(el);
  }
  return { array, loc, ctx, text, start, flow, elements };
}

/** Appends values to the array at `segments`, in its own style. */
export function appendToArray(doc: EditableDocument, segments: readonly PathSegment[], values: readonly Json[]): OffsetEdit[] | undefined {
  if (values.length === 0) return [];
  const written = writtenArray(doc, segments);
  if (!written) return undefined;
  const { loc, ctx, text, start, flow, elements } = written;
  if (flow) {
    if (text[start] !== "[") return undefined;
    const quote = ctx.siblingQuote(elements);
    const written = values.map((v) => ctx.flowValue(v, quote));
    const close = ctx.closingBracket(loc, "]");
    if (close === undefined) return undefined;
    if (elements.length === 0) {
      // `[]` or `[ ]`: the entries go inside, on one line.
      return [{ start: start + 1, end: close, newText: written.join(ctx.listSeparator()) }];
    }
    const last = elements[elements.length - 1];
    const lastEnd = ctx.contentEnd(last);
    if (ctx.ownLine(last.valueStart)) {
      // One entry per line: the new ones too, at the last entry's indentation.
      const indent = ctx.lineIndent(last.valueStart);
      const eol = ctx.eol();
      return [{ start: lastEnd, end: lastEnd, newText: written.map((w) => "," + eol + indent + w).join("") }];
    }
    let sep = ctx.listSeparator();
    if (elements.length >= 2) {
      const written = text.slice(ctx.contentEnd(elements[elements.length - 2]), last.valueStart);
      if (/^[ \t]*,[ \t]*$/.test(written)) sep = written;
    }
    return [{ start: lastEnd, end: lastEnd, newText: written.map((w) => sep + w).join("") }];
  }
  // YAML block sequence: `- entry` lines at the first entry's dash column.
  if (elements.length === 0) return undefined;
  const firstDash = dashBefore(text, elements[0].valueStart);
  if (firstDash === undefined) return undefined;
  const dashIndent = " ".repeat(firstDash - ctx.lineStart(firstDash));
  const afterDash = text.slice(firstDash + 1, elements[0].valueStart);
  const gap = /^[ ]+$/.test(afterDash) ? afterDash : " ";
  const quote = ctx.siblingQuote(elements);
  const at = ctx.lineEnd(ctx.contentEnd(elements[elements.length - 1]));
  const eol = ctx.eol();
  return [{ start: at, end: at, newText: values.map((v) => eol + dashIndent + "-" + gap + ctx.flowValue(v, quote)).join("") }];
}

/**
 * Removes the elements at `indexes` from the array at `segments`, in its own style: in a flow array
 * (JSON, YAML `[a, b]`) with the comma and space between, in a YAML block sequence the `- entry`
 * lines. Removing every element leaves `[]`.
 */
export function removeArrayElements(doc: EditableDocument, segments: readonly PathSegment[], indexes: readonly number[],
  options: { multiline?: boolean } = {}): OffsetEdit[] | undefined {
  const written = writtenArray(doc, segments);
  if (!written) return undefined;
  const { array, loc, ctx, text, start, flow, elements } = written;
  const removed = new Set(indexes);
  if (removed.size === 0) return [];
  if ([...removed].some((i) => !Number.isInteger(i) || i < 0 || i >= array.length)) return undefined;
  const all = removed.size === array.length;
  if (flow) {
    if (text[start] !== "[") return undefined;
    const close = ctx.closingBracket(loc, "]");
    if (close === undefined) return undefined;
    if (all) return [{ start: start + 1, end: close, newText: "" }];
    const lastKept = Math.max(...elements.map((_, i) => (removed.has(i) ? -1 : i)));
    const edits: OffsetEdit[] = [];
    for (const i of [...removed].sort((a, b) => a - b)) {
      // An element with a kept one after it goes up to the next element (its comma and the space
      // after); the removed tail goes from the end of the last kept element (the comma before it).
      if (i < lastKept) edits.push({ start: elements[i].valueStart, end: elements[i + 1].valueStart, newText: "" });
    }
    if (lastKept < elements.length - 1) {
      edits.push({ start: ctx.contentEnd(elements[lastKept]), end: ctx.contentEnd(elements[elements.length - 1]), newText: "" });
    }
    return edits;
  }
  // YAML block sequence: each entry is its own `- entry` line (a comment after it goes with it).
  if (all) return setValue(doc, segments, []);
  const edits: OffsetEdit[] = [];
  for (const i of removed) {
    const dash = options.multiline ? itemDash(text, elements[i].valueStart) : dashBefore(text, elements[i].valueStart);
    if (dash === undefined || !ctx.ownLine(dash)) return undefined;
    const end = ctx.contentEnd(elements[i]);
    // An entry over several lines (a block mapping: a step, a decision case) only when asked for: its lines all go.
    if (!options.multiline && !ctx.sameLine(dash, end)) return undefined;
    edits.push({ start: ctx.lineStart(dash), end: ctx.afterLineBreak(ctx.lineEnd(end)), newText: "" });
  }
  return edits;
}

/** Where an element inserted by insertArrayItem starts, for the caller to write it in the array's style. */
export interface ItemLayout {
  format: "json" | "yaml";
  /** A YAML block sequence item (its text follows `- `); otherwise a flow element (JSON, YAML `[…]`). */
  block: boolean;
  /** The column the element's first line starts at (continuation lines are indented from it). */
  column: number;
  /** The document's indentation unit, in columns. */
  unit: number;
  /** Write the element on one line (the array's elements are written that way, or it is a one-line flow array). */
  inline: boolean;
}

/**
 * Inserts an element at index `at` (0 … length) of the array at `segments`, in the array's style: in a
 * flow array (JSON, YAML `[…]`) with its separator, on a line of its own when the elements are written
 * that way; in a YAML block sequence as a `- ` item at the other items' dash column, after the item
 * before it (so comments above the next item stay with it). `render` writes the element (line breaks
 * as `\n`: they become the document's).
 */
export function insertArrayItem(doc: EditableDocument, segments: readonly PathSegment[], at: number, render: (layout: ItemLayout) => string): OffsetEdit[] | undefined {
  const written = writtenArray(doc, segments);
  if (!written) return undefined;
  const { array, loc, ctx, text, start, flow, elements } = written;
  if (!Number.isInteger(at) || at < 0 || at > array.length) return undefined;
  const eol = ctx.eol();
  const unit = ctx.indentUnit() === "\t" ? 2 : ctx.indentUnit().length;
  const lines = (s: string) => s.replace(/\r?\n/g, eol);
  const oneLine = (el: NodeLocation) => ctx.sameLine(el.valueStart, ctx.contentEnd(el));
  if (flow) {
    if (text[start] !== "[") return undefined;
    if (elements.length === 0) {
      const close = ctx.closingBracket(loc, "]");
      if (close === undefined) return undefined;
      if (doc.format === "json" && /[\r\n]/.test(text)) {
        const outer = ctx.lineIndent(start);
        const inner = outer + ctx.indentUnit();
        const item = render({ format: doc.format, block: false, column: inner.length, unit, inline: false });
        return [{ start: start + 1, end: close, newText: eol + inner + lines(item) + eol + outer }];
      }
      return [{ start: start + 1, end: close, newText: lines(render({ format: doc.format, block: false, column: start + 1 - ctx.lineStart(start), unit, inline: true })) }];
    }
    const model = elements[Math.min(at, elements.length - 1)];
    const own = ctx.ownLine(model.valueStart);
    const indent = ctx.lineIndent(model.valueStart);
    const item = lines(render({ format: doc.format, block: false, column: own ? indent.length : model.valueStart - ctx.lineStart(model.valueStart), unit,
      inline: !own || elements.every(oneLine) && elements.length > 0 && oneLine(model) }));
    if (at < elements.length) {
      const before = elements[at].valueStart;
      return [{ start: before, end: before, newText: item + (own ? "," + eol + indent : ctx.listSeparator()) }];
    }
    const end = ctx.contentEnd(elements[elements.length - 1]);
    return [{ start: end, end, newText: (own ? "," + eol + indent : ctx.listSeparator()) + item }];
  }
  if (elements.length === 0) return undefined;
  const firstDash = itemDash(text, elements[0].valueStart);
  if (firstDash === undefined || !ctx.ownLine(firstDash)) return undefined;
  const dashIndent = " ".repeat(firstDash - ctx.lineStart(firstDash));
  const afterDash = text.slice(firstDash + 1, elements[0].valueStart);
  const gap = /^[ ]+$/.test(afterDash) ? afterDash : " ";
  const column = dashIndent.length + 1 + gap.length;
  const item = dashIndent + "-" + gap + lines(render({ format: "yaml", block: true, column, unit, inline: elements.every(oneLine) }));
  if (at === 0) {
    const lineStart = ctx.lineStart(firstDash);
    return [{ start: lineStart, end: lineStart, newText: item + eol }];
  }
  const after = ctx.lineEnd(ctx.contentEnd(elements[at - 1]));
  return [{ start: after, end: after, newText: eol + item }];
}

/**
 * Moves the element at `from` to index `to` of the array at `segments`: the elements' texts between the
 * two change places, the separators, line breaks and comments between elements stay where they are.
 * Undefined when YAML block items over several lines start at different columns (their continuation
 * lines would no longer line up).
 */
export function moveArrayElement(doc: EditableDocument, segments: readonly PathSegment[], from: number, to: number): OffsetEdit[] | undefined {
  const written = writtenArray(doc, segments);
  if (!written) return undefined;
  const { array, ctx, text, elements } = written;
  const valid = (i: number) => Number.isInteger(i) && i >= 0 && i < array.length;
  if (!valid(from) || !valid(to)) return undefined;
  if (from === to) return [];
  const lo = Math.min(from, to);
  const hi = Math.max(from, to);
  const spans = elements.map((el) => ({ start: el.valueStart, end: ctx.contentEnd(el) }));
  const range = spans.slice(lo, hi + 1);
  if (doc.format === "yaml" && range.some((s) => !ctx.sameLine(s.start, s.end))) {
    const columns = new Set(range.map((s) => s.start - ctx.lineStart(s.start)));
    if (columns.size > 1) return undefined;
  }
  const order = range.map((_, k) => lo + k);
  const [moved] = order.splice(from - lo, 1);
  order.splice(to - lo, 0, moved);
  return range.map((s, k) => ({ start: s.start, end: s.end, newText: text.slice(spans[order[k]].start, spans[order[k]].end) }));
}

export interface AddOptions {
  /** Put the new property after the last written of these keys (else after the last property). */
  after?: readonly string[];
  /** Put the new property before the first one. */
  first?: boolean;
}

/**
 * The object at `segments` and its members in source order, when the object is editable and has (or lacks)
 * `key`. A member reached through an alias is written elsewhere: such objects are left alone.
 */
function objectMembers(doc: EditableDocument, segments: readonly PathSegment[], key: string, has: boolean):
  { loc: NodeLocation; props: Array<{ key: string; loc: NodeLocation }> } | undefined {
  const object = valueAt(doc.value, segments);
  const loc = editable(doc, segments);
  if (!isObject(object) || !loc || Object.prototype.hasOwnProperty.call(object, key) !== has) return undefined;
  const props: Array<{ key: string; loc: NodeLocation }> = [];
  for (const k of Object.keys(object)) {
    const p = doc.locate([...segments, k]);
    if (!p || p.keyStart === undefined || p.keyStart < loc.valueStart || p.valueEnd > loc.valueEnd) return undefined;
    props.push({ key: k, loc: p });
  }
  props.sort((a, b) => a.loc.keyStart! - b.loc.keyStart!);
  return { loc, props };
}

/** Adds a property to the object at `segments` (which must not have it yet). */
export function addProperty(doc: EditableDocument, segments: readonly PathSegment[], key: string, value: Json, options: AddOptions = {}): OffsetEdit[] | undefined {
  const found = objectMembers(doc, segments, key, false);
  if (!found) return undefined;
  const { loc, props } = found;
  const ctx = new Context(doc);
  const text = doc.text;
  const start = ctx.contentStart(loc);
  const flow = doc.format === "json" || text[start] === "{";
  if (flow && text[start] !== "{") return undefined;
  if (props.length === 0) {
    if (!flow) return undefined;
    const close = ctx.closingBracket(loc, "}");
    if (close === undefined) return undefined;
    // An empty JSON object in a multi-line document opens onto its own lines; `{}` in YAML stays flow.
    if (doc.format === "json" && /[\r\n]/.test(text)) {
      const outer = ctx.lineIndent(start);
      const inner = outer + ctx.indentUnit();
      const eol = ctx.eol();
      return [{ start: start + 1, end: close, newText: eol + inner + ctx.member(key, value, undefined, inner) + eol + outer }];
    }
    return [{ start: start + 1, end: close, newText: ctx.member(key, value, undefined) }];
  }
  const sep = ctx.keySeparator(props[0].loc);
  if (options.first) {
    const first = props[0].loc;
    const keyStart = first.keyStart!;
    if (!flow) {
      const col = keyStart - ctx.lineStart(keyStart);
      return [{ start: keyStart, end: keyStart, newText: ctx.blockMember(key, value, col) + ctx.eol() + " ".repeat(col) }];
    }
    if (ctx.ownLine(keyStart)) {
      const indent = ctx.lineIndent(keyStart);
      return [{ start: keyStart, end: keyStart, newText: ctx.member(key, value, sep, indent) + "," + ctx.eol() + indent }];
    }
    return [{ start: keyStart, end: keyStart, newText: ctx.member(key, value, sep) + ctx.listSeparator() }];
  }
  const anchors = props.filter((p) => options.after?.includes(p.key));
  const anchor = (anchors.length > 0 ? anchors : props)[(anchors.length > 0 ? anchors : props).length - 1];
  const end = ctx.contentEnd(anchor.loc);
  if (!flow) {
    const keyStart = anchor.loc.keyStart!;
    const col = keyStart - ctx.lineStart(keyStart);
    const at = ctx.lineEnd(end);
    return [{ start: at, end: at, newText: ctx.eol() + " ".repeat(col) + ctx.blockMember(key, value, col) }];
  }
  if (ctx.ownLine(anchor.loc.keyStart!)) {
    const indent = ctx.lineIndent(anchor.loc.keyStart!);
    return [{ start: end, end, newText: "," + ctx.eol() + indent + ctx.member(key, value, sep, indent) }];
  }
  let between = ctx.listSeparator();
  if (props.length >= 2) {
    const written = text.slice(ctx.contentEnd(props[props.length - 2].loc), props[props.length - 1].loc.keyStart);
    if (/^[ \t]*,[ \t]*$/.test(written)) between = written;
  }
  return [{ start: end, end, newText: between + ctx.member(key, value, sep) }];
}

/** Replaces the value at `segments` (which must exist), keeping a YAML string's quote style. */
export function setValue(doc: EditableDocument, segments: readonly PathSegment[], value: Json): OffsetEdit[] | undefined {
  if (segments.length === 0) return undefined;
  const loc = editable(doc, segments);
  if (!loc || valueAt(doc.value, segments) === undefined) return undefined;
  const ctx = new Context(doc);
  const text = doc.text;
  const start = ctx.contentStart(loc);
  const end = ctx.contentEnd(loc);
  if (doc.format === "json") return [{ start, end, newText: ctx.flowValue(value, '"') }];
  const old = text.slice(start, end);
  const quote = old.startsWith("'") ? "'" : old.startsWith('"') ? '"' : undefined;
  // A block collection written on the lines below its key becomes a flow value on the key's line.
  if (loc.keyEnd !== undefined && !ctx.sameLine(loc.keyEnd, start)) {
    const colon = text.indexOf(":", loc.keyEnd);
    if (colon >= 0 && colon < start) return [{ start: colon + 1, end, newText: " " + ctx.flowValue(value, quote) }];
  }
  // An empty value (`key:`) may be located right after the colon: keep a space between.
  return [{ start, end, newText: (text[start - 1] === ":" ? " " : "") + ctx.flowValue(value, quote) }];
}

/** Sets `key` in the object at `segments`: replaces its value, or adds it. */
export function setProperty(doc: EditableDocument, segments: readonly PathSegment[], key: string, value: Json, options: AddOptions = {}): OffsetEdit[] | undefined {
  const object = valueAt(doc.value, segments);
  if (!isObject(object)) return undefined;
  if (Object.prototype.hasOwnProperty.call(object, key)) return setValue(doc, [...segments, key], value);
  return addProperty(doc, segments, key, value, options);
}

/** Removes `key` from the object at `segments`, with its comma (JSON, YAML flow) or its lines (YAML block). */
export function removeProperty(doc: EditableDocument, segments: readonly PathSegment[], key: string): OffsetEdit[] | undefined {
  const found = objectMembers(doc, segments, key, true);
  if (!found) return undefined;
  const { loc, props } = found;
  const ctx = new Context(doc);
  const text = doc.text;
  const start = ctx.contentStart(loc);
  const flow = doc.format === "json" || text[start] === "{";
  const i = props.findIndex((p) => p.key === key);
  const target = props[i].loc;
  const targetEnd = ctx.contentEnd(target);
  if (flow) {
    if (props.length === 1) {
      const close = ctx.closingBracket(loc, "}");
      if (close === undefined) return undefined;
      return [{ start: start + 1, end: close, newText: "" }];
    }
    // Take the following comma and the space up to the next key; the last property takes the comma before it.
    if (i < props.length - 1) return [{ start: target.keyStart!, end: props[i + 1].loc.keyStart!, newText: "" }];
    return [{ start: ctx.contentEnd(props[i - 1].loc), end: targetEnd, newText: "" }];
  }
  if (props.length === 1) {
    // The only key of a block mapping: the mapping becomes `{}` (an empty block mapping would read as null).
    return setValue(doc, segments, {});
  }
  const keyStart = target.keyStart!;
  const lineStart = ctx.lineStart(keyStart);
  if (text.slice(lineStart, keyStart).trim() !== "") {
    // `- key: value` opens a sequence entry: keep the dash, pull the next key onto its line.
    if (i < props.length - 1) return [{ start: keyStart, end: props[i + 1].loc.keyStart!, newText: "" }];
    return undefined;
  }
  // Whole lines: from the key's line to the end of the value's last line, with its line break.
  const end = ctx.afterLineBreak(ctx.lineEnd(targetEnd));
  return [{ start: lineStart, end, newText: "" }];
}

/**
 * Replaces value[valueStart, valueEnd) of the string at `segments`. Given where that text is written
 * (`source`, document offsets, found by matching the same spelling), only that text changes;
 * otherwise the whole string is rewritten in its own quote style.
 */
export function replaceInString(doc: EditableDocument, segments: readonly PathSegment[], valueStart: number, valueEnd: number, replacement: string,
  source?: { start: number; end: number }): OffsetEdit[] | undefined {
  const value = valueAt(doc.value, segments);
  if (typeof value !== "string" || valueStart < 0 || valueEnd > value.length || valueStart > valueEnd) return undefined;
  const loc = editable(doc, segments);
  if (!loc) return undefined;
  const expected = value.slice(valueStart, valueEnd);
  if (source && source.start >= loc.valueStart && source.end <= loc.valueEnd && doc.text.slice(source.start, source.end) === expected && isVerbatim(replacement)) {
    return [{ start: source.start, end: source.end, newText: replacement }];
  }
  return setValue(doc, segments, value.slice(0, valueStart) + replacement + value.slice(valueEnd));
}

/** Wraps the YAML text at [start, end) (an unquoted `{{ … }}` read as a mapping) in quotes; the string it becomes is that text. */
export function quoteYamlText(doc: EditableDocument, start: number, end: number): OffsetEdit[] | undefined {
  const raw = doc.text.slice(start, end);
  if (raw.length === 0) return undefined;
  return [{ start, end, newText: quoteYaml(raw) }];
}

// ---- helpers --------------------------------------------------------------------------------------


/**
 * The location of a node we may edit in place: written inside its parent (not borrowed through a YAML
 * alias or merge key) and, in YAML, not an alias or an anchored node that aliases elsewhere would share.
 */
function editable(doc: EditableDocument, segments: readonly PathSegment[]): NodeLocation | undefined {
  const loc = doc.locate(segments);
  if (!loc) return undefined;
  if (doc.format === "yaml") {
    if (sharedYamlNode(doc.text, loc.valueStart)) return undefined;
    // Ancestors must contain it: a member reached through an alias is written elsewhere.
    for (let n = segments.length - 1; n >= 0; n--) {
      const outer = doc.locate(segments.slice(0, n));
      if (!outer || loc.valueStart < outer.valueStart || loc.valueEnd > outer.valueEnd) return undefined;
      if (sharedYamlNode(doc.text, outer.valueStart)) return undefined;
    }
  }
  return loc;
}

/** A YAML node that is an alias (`*a`) or carries an anchor (`&a`, written before it): editing it would change every alias too. */
function sharedYamlNode(text: string, valueStart: number): boolean {
  if (text[valueStart] === "*" || text[valueStart] === "&") return true;
  // Node properties (`&anchor`, `!tag`, in either order) precede the node, possibly on the line above.
  let i = valueStart;
  for (let k = 0; k < 2; k++) {
    while (i > 0 && /\s/.test(text[i - 1])) i--;
    let j = i;
    while (j > 0 && !/\s/.test(text[j - 1])) j--;
    const token = text.slice(j, i);
    if (token.startsWith("&")) return true;
    if (!token.startsWith("!")) return false;
    i = j;
  }
  return false;
}

/** Text that reads the same wherever it is put in a string (identifier characters, as `lastOutput`). */
function isVerbatim(s: string): boolean {
  return /^[A-Za-z0-9_$.\-]*$/.test(s);
}

/**
 * The `-` of the block sequence item whose content starts at `at`: on the same line, or alone (a comment
 * after it) on an earlier line, with only blank or comment lines between (`- # note` then `id: x`).
 */
function itemDash(text: string, at: number): number | undefined {
  const same = dashBefore(text, at);
  if (same !== undefined) return same;
  const lineStartOf = (i: number) => { while (i > 0 && text[i - 1] !== "\n" && text[i - 1] !== "\r") i--; return i; };
  let start = lineStartOf(at);
  if (text.slice(start, at).trim() !== "") return undefined;
  while (start > 0) {
    let end = start - 1;
    if (text[end] === "\n" && text[end - 1] === "\r") end--;
    const prev = lineStartOf(end);
    const line = text.slice(prev, end);
    const dash = /^([ \t]*)-(?:[ \t]+#.*|[ \t]*)$/.exec(line);
    if (dash) return prev + dash[1].length;
    if (!/^[ \t]*(?:#.*)?$/.test(line)) return undefined;
    start = prev;
  }
  return undefined;
}

/** The `-` of a block sequence entry before `at`, on the same line, with only spaces between. */
function dashBefore(text: string, at: number): number | undefined {
  let i = at - 1;
  while (i >= 0 && text[i] === " ") i--;
  return text[i] === "-" ? i : undefined;
}

/** Per-document formatting facts, sniffed lazily. */
class Context {
  private eolText: string | undefined;
  private unit: string | undefined;
  private flowArrays: boolean | undefined;
  private multilineArrays: boolean | undefined;
  constructor(private readonly doc: EditableDocument) {}

  private get text(): string {
    return this.doc.text;
  }

  /** The document's line break: the first one written, else \n. */
  eol(): string {
    if (this.eolText === undefined) {
      const m = /\r\n|\n|\r/.exec(this.text);
      this.eolText = m ? m[0] : "\n";
    }
    return this.eolText;
  }

  /** One level of indentation: the smallest indentation of an indented line (tabs kept in JSON). */
  indentUnit(): string {
    if (this.unit !== undefined) return this.unit;
    let best: string | undefined;
    const re = /(?:^|\n|\r)([ \t]+)(?=[^ \t\r\n])/g;
    let count = 0;
    for (let m = re.exec(this.text); m && count < 2000; m = re.exec(this.text), count++) {
      const lead = m[1];
      if (lead.startsWith("\t")) {
        if (this.doc.format === "json") { best = "\t"; break; }
        continue;
      }
      // YAML comments may sit anywhere; only content lines count.
      if (this.doc.format === "yaml" && this.text[m.index + m[0].length] === "#") continue;
      if (best === undefined || lead.length < best.length) best = lead;
    }
    this.unit = best && best.length <= 8 ? best : "  ";
    return this.unit;
  }

  /** YAML: write arrays of scalars in flow style (`[a, b]`) unless the document's needs/lists are block style. */
  yamlFlowArrays(): boolean {
    if (this.flowArrays === undefined) this.flowArrays = yamlFlowLists(this.text);
    return this.flowArrays;
  }

  lineStart(offset: number): number {
    let i = offset;
    while (i > 0 && this.text[i - 1] !== "\n" && this.text[i - 1] !== "\r") i--;
    return i;
  }

  /** The offset of the line break ending the line at `offset` (or the text's end). */
  lineEnd(offset: number): number {
    let i = offset;
    while (i < this.text.length && this.text[i] !== "\n" && this.text[i] !== "\r") i++;
    return i;
  }

  afterLineBreak(offset: number): number {
    if (this.text.startsWith("\r\n", offset)) return offset + 2;
    if (this.text[offset] === "\n" || this.text[offset] === "\r") return offset + 1;
    return offset;
  }

  lineIndent(offset: number): string {
    const start = this.lineStart(offset);
    return /^[ \t]*/.exec(this.text.slice(start, offset))![0];
  }

  /** Only whitespace precedes `offset` on its line. */
  ownLine(offset: number): boolean {
    return this.text.slice(this.lineStart(offset), offset).trim() === "";
  }

  sameLine(a: number, b: number): boolean {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    return !/[\r\n]/.test(this.text.slice(lo, hi));
  }

  /** Where a node's own text starts (past a YAML tag, never past an anchor: anchored nodes are not edited). */
  contentStart(loc: NodeLocation): number {
    let i = loc.valueStart;
    if (this.doc.format === "yaml" && this.text[i] === "!") {
      const m = /^![^\s]*[ \t]+/.exec(this.text.slice(i, loc.valueEnd));
      if (m) i += m[0].length;
    }
    return i;
  }

  /** Where a node's text ends, without trailing blanks, line breaks or YAML comments the range may include. */
  contentEnd(loc: NodeLocation): number {
    let end = loc.valueEnd;
    const start = loc.valueStart;
    for (;;) {
      while (end > start && /\s/.test(this.text[end - 1])) end--;
      if (this.doc.format !== "yaml") return end;
      // A trailing comment line inside the range: drop it and look again.
      const ls = this.lineStart(end);
      const line = this.text.slice(Math.max(ls, start), end);
      if (ls > start && /^[ \t]*#/.test(line)) { end = ls; continue; }
      return end;
    }
  }

  /** The offset of the bracket closing a flow collection. */
  closingBracket(loc: NodeLocation, bracket: "]" | "}"): number | undefined {
    const end = this.contentEnd(loc);
    return this.text[end - 1] === bracket ? end - 1 : undefined;
  }

  /** `", "` or `","` as the document writes them (a minified JSON document has no spaces). */
  listSeparator(): string {
    if (this.doc.format === "json" && !/[,:] /.test(this.text) && /[,:]"/.test(this.text)) return ",";
    return ", ";
  }

  /** `": "` between a key and its value, as the given property writes it. */
  keySeparator(prop: NodeLocation | undefined): string {
    if (prop && prop.keyEnd !== undefined) {
      const between = this.text.slice(prop.keyEnd, prop.valueStart);
      if (/^[ \t]*:[ \t]*$/.test(between)) return between;
    }
    return this.doc.format === "json" && this.listSeparator() === "," ? ":" : ": ";
  }

  /** The quote style of existing string entries (YAML), double by default. */
  siblingQuote(elements: readonly NodeLocation[]): "'" | '"' | undefined {
    if (this.doc.format === "json") return '"';
    for (const el of elements) {
      const c = this.text[el.valueStart];
      if (c === "'" || c === '"') return c;
    }
    return undefined;
  }

  key(key: string): string {
    if (this.doc.format === "json") return JSON.stringify(key);
    return yamlScalar(key);
  }

  /** A value on one line: JSON, or YAML flow style with plain scalars where safe. `quote` is the style for strings that need quotes (or always, given `'` or `"`). */
  flowValue(v: Json, quote?: "'" | '"'): string {
    const sep = this.listSeparator();
    if (this.doc.format === "json") {
      const colon = sep === "," ? ":" : ": ";
      const write = (x: Json): string => {
        if (Array.isArray(x)) return "[" + x.map(write).join(sep) + "]";
        if (x !== null && typeof x === "object") return "{" + Object.entries(x).map(([k, e]) => JSON.stringify(k) + colon + write(e)).join(sep) + "}";
        return JSON.stringify(x);
      };
      return write(v);
    }
    const write = (x: Json): string => {
      if (Array.isArray(x)) return "[" + x.map(write).join(", ") + "]";
      if (x !== null && typeof x === "object") return "{" + Object.entries(x).map(([k, e]) => this.key(k) + ": " + write(e)).join(", ") + "}";
      if (typeof x === "string") return quote === undefined ? yamlScalar(x) : quoteYaml(x, quote);
      return JSON.stringify(x);
    };
    return write(v);
  }

  /**
   * `"key": value` (JSON) or `key: value` (YAML flow). Given the member's indentation (a JSON member on
   * its own line), nested values are laid out as the document does: objects over several lines, arrays
   * too when its arrays are written that way.
   */
  member(key: string, value: Json, sep: string | undefined, indent?: string): string {
    const colon = sep ?? (this.doc.format === "json" ? this.keySeparator(undefined) : ": ");
    if (indent === undefined || this.doc.format !== "json") return this.key(key) + colon + this.flowValue(value);
    return this.key(key) + colon + this.prettyJson(value, indent, colon);
  }

  private prettyJson(v: Json, indent: string, colon: string): string {
    const eol = this.eol();
    const inner = indent + this.indentUnit();
    if (Array.isArray(v)) {
      if (v.length === 0 || !this.jsonMultilineArrays()) return this.flowValue(v);
      return "[" + v.map((e) => eol + inner + this.prettyJson(e, inner, colon)).join(",") + eol + indent + "]";
    }
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v);
      if (entries.length === 0) return "{}";
      return "{" + entries.map(([k, e]) => eol + inner + JSON.stringify(k) + colon + this.prettyJson(e, inner, colon)).join(",") + eol + indent + "}";
    }
    return JSON.stringify(v);
  }

  /** JSON: are arrays of strings written one entry per line (as JSON.stringify with indentation does)? `needs` arrays decide first. */
  private jsonMultilineArrays(): boolean {
    if (this.multilineArrays === undefined) {
      const m = /"needs"[ \t]*:[ \t]*\[([ \t\r\n]*)"/.exec(this.text) ?? /"[^"\r\n]*"[ \t]*:[ \t]*\[([ \t\r\n]*)"/.exec(this.text);
      this.multilineArrays = m !== null && /[\r\n]/.test(m[1]);
    }
    return this.multilineArrays;
  }

  /** A YAML block mapping member at column `col`: nested objects as block mappings, arrays in the document's style. */
  blockMember(key: string, value: Json, col: number): string {
    const eol = this.eol();
    const unit = this.indentUnit();
    const pad = " ".repeat(col) + unit;
    if (Array.isArray(value) && value.length > 0 && !this.yamlFlowArrays() && value.every((e) => e === null || typeof e !== "object")) {
      return this.key(key) + ":" + value.map((e) => eol + pad + "- " + this.flowValue(e)).join("");
    }
    if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
      return this.key(key) + ":" + Object.entries(value).map(([k, e]) => eol + pad + this.blockMember(k, e, pad.length)).join("");
    }
    return this.key(key) + ": " + this.flowValue(value);
  }
}
