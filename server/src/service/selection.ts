// Selection ranges (smart select / expand selection), strictly nested from the cursor outwards:
// inside an expression: the word → the dotted path (`steps.draft.output`) → the expression → the
// `{{ }}` template; then the string's content → the string with its quotes (a YAML block scalar: with
// its header) → the property (`key: value`) → a YAML sequence item with its `- ` → the enclosing object
// or array → its property → … → the root value → the whole document.
// Works from the document's positions (pathAt, locate), so also on documents with syntax errors.
import type { Position, SelectionRange } from "vscode-languageserver-types";
import { endWithoutWhiteSpace } from "../document/text";
import type { LwirDocument } from "../document/types";
import type { PathSegment } from "../lwir/types";
import { scanTemplates } from "../lwir/expressions";
import { sourceSpan, stringSource, valueIndexAt, type StringSource } from "./stringSource";

type Span = [number, number];

export function provideSelectionRanges(doc: LwirDocument, positions: readonly Position[]): SelectionRange[] {
  return positions.map((position) => {
    const offset = doc.offsetAt(position);
    return toSelectionRange(doc, nest(selectionSpans(doc, offset), offset));
  });
}

/**
 * Nested deeper than this, only the whole document is offered: every level is located from the root, so the
 * work grows with the square of the nesting (minutes and gigabytes for a hostile document 100,000 levels deep).
 */
const MAX_LEVELS = 1000;

/** The spans around an offset, innermost first (not yet filtered). */
export function selectionSpans(doc: LwirDocument, offset: number): Span[] {
  const spans: Span[] = [];
  const at = doc.pathAt(offset);
  if (at && at.segments.length <= MAX_LEVELS) {
    let segments = at.segments;
    if (!at.between) {
      const loc = doc.locate(segments);
      if (loc) {
        const hasKey = loc.keyStart !== undefined && loc.keyEnd !== undefined;
        if (at.inKey && hasKey) scalarSpans(doc, loc.keyStart!, loc.keyEnd!, offset, spans);
        else if (!isContainerText(doc, loc.valueStart)) scalarSpans(doc, loc.valueStart, loc.valueEnd, offset, spans);
        memberSpans(doc, segments, spans);
        segments = segments.slice(0, -1);
      }
    }
    // the enclosing containers, each followed by its own property
    for (let k = segments.length; k >= 0; k--) memberSpans(doc, segments.slice(0, k), spans);
  }
  spans.push([0, doc.text.length]);
  return spans;
}

/** A member's value, its `key: value` and (YAML) its `- ` item, as spans. */
function memberSpans(doc: LwirDocument, segments: readonly PathSegment[], spans: Span[]): void {
  const loc = doc.locate(segments);
  if (!loc) return;
  const end = endWithoutWhiteSpace(doc.text, loc.valueStart, loc.valueEnd);
  spans.push([loc.valueStart, end]);
  if (loc.keyStart !== undefined) spans.push([loc.keyStart, Math.max(end, loc.keyEnd ?? end)]);
  else if (doc.format === "yaml" && typeof segments[segments.length - 1] === "number") {
    // a block sequence item: from its `-`
    let i = loc.valueStart - 1;
    while (i >= 0 && (doc.text.charCodeAt(i) === 32 || doc.text.charCodeAt(i) === 9)) i--;
    if (i >= 0 && doc.text.charCodeAt(i) === 0x2d) spans.push([i, end]);
  }
}

/** Inside a scalar: word, dotted path, expression and template (strings), the content, the scalar. */
function scalarSpans(doc: LwirDocument, start: number, end: number, offset: number, spans: Span[]): void {
  const source = stringSource(doc.text, start, end, doc.format);
  if (source) stringSpans(doc.text, source, offset, spans);
  spans.push([start, endWithoutWhiteSpace(doc.text, start, end)]);
}

const WORD = /[A-Za-z0-9_$-]/;
const PATH = /[A-Za-z0-9_$.-]/;

function stringSpans(text: string, source: StringSource, offset: number, spans: Span[]): void {
  const value = source.value;
  const p = valueIndexAt(source, offset);
  const map = (a: number, b: number) => {
    const span = b > a ? sourceSpan(source, a, b) : undefined;
    if (span) spans.push(span);
  };
  const around = (from: number, to: number, chars: RegExp): Span => {
    let a = p;
    let b = p;
    while (a > from && chars.test(value[a - 1])) a--;
    while (b < to && chars.test(value[b])) b++;
    return [a, b];
  };
  const template = scanTemplates(value).matches.find((m) => m.start <= p && p <= m.end);
  if (template) {
    const bodyEnd = template.bodyStart + template.body.length;
    if (p >= template.bodyStart && p <= bodyEnd) {
      const [a, b] = around(template.bodyStart, bodyEnd, WORD);
      map(a, b);
      let [c, d] = around(template.bodyStart, bodyEnd, PATH);
      while (c < d && value[c] === ".") c++;
      while (d > c && value[d - 1] === ".") d--;
      map(c, d);
    }
    map(template.bodyStart, bodyEnd);
    map(template.start, template.end);
  } else {
    const [a, b] = around(0, value.length, WORD);
    map(a, b);
  }
  if (source.contentEnd > source.contentStart) spans.push([source.contentStart, endWithoutWhiteSpace(text, source.contentStart, source.contentEnd)]);
}

/** A flow collection starts here (a block collection is never the leaf pathAt gives). */
function isContainerText(doc: LwirDocument, at: number): boolean {
  const c = doc.text.charCodeAt(at);
  return c === 0x7b || c === 0x5b;
}

/** Keeps spans that hold the offset and strictly grow outwards. */
function nest(spans: readonly Span[], offset: number): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    const [a, b] = span;
    if (!(a <= offset && offset <= b)) continue;
    const inner = out[out.length - 1];
    if (inner && !(a <= inner[0] && inner[1] <= b && (a < inner[0] || inner[1] < b))) continue;
    out.push(span);
  }
  return out;
}

function toSelectionRange(doc: LwirDocument, spans: readonly Span[]): SelectionRange {
  let parent: SelectionRange | undefined;
  for (let k = spans.length - 1; k >= 0; k--) {
    const range = doc.rangeAt(spans[k][0], spans[k][1]);
    parent = parent ? { range, parent } : { range };
  }
  return parent ?? { range: doc.rangeAt(0, doc.text.length) };
}
