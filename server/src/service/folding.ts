// Folding ranges from the document's source, in both formats, without a parse: they must not vanish
// (and unfold the editor) while the text is broken mid-typing.
// - JSON: objects and arrays whose closing bracket is on a later line (the bracket line stays visible).
// - YAML: a line folds the more-indented lines below it (mapping values, sequence items, block scalars,
//   multi-line flow scalars; a `key:` with a sequence at its own indentation), flow collections like
//   JSON, runs of comment lines, and `# region` / `# endregion` markers.
import { FoldingRangeKind, type FoldingRange } from "vscode-languageserver-types";
import type { Format } from "../document/types";

/** At most this many ranges (VS Code's own default limit). */
export const MAX_FOLDING_RANGES = 5000;

export function provideFoldingRanges(text: string, format: Format, limit = MAX_FOLDING_RANGES): FoldingRange[] {
  const ranges = format === "json" ? jsonRanges(text) : yamlRanges(text);
  return tidy(ranges, limit);
}

/** One range per start line (the longest), in start order, capped. */
function tidy(ranges: FoldingRange[], limit: number): FoldingRange[] {
  const byStart = new Map<number, FoldingRange>();
  for (const r of ranges) {
    if (r.endLine <= r.startLine) continue;
    const seen = byStart.get(r.startLine);
    if (!seen || r.endLine > seen.endLine) byStart.set(r.startLine, r);
  }
  return [...byStart.values()].sort((a, b) => a.startLine - b.startLine).slice(0, Math.max(0, limit));
}

const LF = 10;
const CR = 13;

/** Where a bracket closed: the range ends on the line before a closing bracket that starts its line. */
function bracketRange(text: string, openLine: number, closeLine: number, closeOffset: number, lineStart: number): FoldingRange {
  let first = true;
  for (let k = lineStart; k < closeOffset; k++) {
    const c = text.charCodeAt(k);
    if (c !== 32 && c !== 9) { first = false; break; }
  }
  return { startLine: openLine, endLine: first ? closeLine - 1 : closeLine };
}

// ---- JSON ---------------------------------------------------------------------------------------

function jsonRanges(text: string): FoldingRange[] {
  const out: FoldingRange[] = [];
  const stack: Array<{ line: number }> = [];
  let line = 0;
  let lineStart = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) {
      if (c === CR && text.charCodeAt(i + 1) === LF) i++;
      line++;
      lineStart = i + 1;
    } else if (c === 0x22) {
      // a string ends at its closing quote, or (unterminated) at the end of its line
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c && text.charCodeAt(i + 1) !== LF && text.charCodeAt(i + 1) !== CR) i += 2;
        else if (d === 0x22) break;
        else if (d === LF || d === CR) { i--; break; }
        else i++;
      }
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      while (i + 1 < n && text.charCodeAt(i + 1) !== LF && text.charCodeAt(i + 1) !== CR) i++;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      // a block comment (not JSON, but tolerated while typing): fold it when it spans lines
      const startLine = line;
      i += 2;
      while (i < n && !(text.charCodeAt(i) === 0x2a && text.charCodeAt(i + 1) === 0x2f)) {
        const d = text.charCodeAt(i);
        if (d === LF || (d === CR && text.charCodeAt(i + 1) !== LF)) { line++; lineStart = i + 1; }
        i++;
      }
      i++;
      if (line > startLine) out.push({ startLine, endLine: line, kind: FoldingRangeKind.Comment });
    } else if (c === 0x7b || c === 0x5b) {
      stack.push({ line });
    } else if (c === 0x7d || c === 0x5d) {
      const open = stack.pop();
      if (open && line > open.line) out.push(bracketRange(text, open.line, line, i, lineStart));
    }
  }
  return out;
}

// ---- YAML ---------------------------------------------------------------------------------------

interface Block {
  indent: number;
  line: number;
  /** The line is `key:` with nothing after it: a sequence may follow at the same indentation. */
  keyOnly: boolean;
}

interface LineScan {
  /** The line ends with a block scalar header (`|`, `>-`, …). */
  blockScalar: boolean;
  /** The line's last token is a mapping colon. */
  keyOnly: boolean;
}

/** Scanner state carried from line to line. */
class YamlState {
  /** Open quoted scalar spanning lines. */
  quote: 0x22 | 0x27 | undefined;
  /** Open flow collections: the line each opened on. */
  flow: number[] = [];
  /** Lines of an open flow scalar or collection must be indented more than this, or it was never closed. */
  openIndent = -1;
  readonly ranges: FoldingRange[] = [];

  constructor(private readonly text: string) {}

  /** Scans text[from, to) of line `line`, tracking quotes, flow brackets and comments. */
  scan(from: number, to: number, line: number, lineStart: number, lineStartsValue: boolean): LineScan {
    const t = this.text;
    const open = () => {
      if (this.quote === undefined && this.flow.length === 0) this.openIndent = i === from ? from - lineStart - 1 : from - lineStart;
    };
    let valueStart = lineStartsValue;
    let keyOnly = false;
    let i = from;
    while (i < to) {
      const c = t.charCodeAt(i);
      if (this.quote !== undefined) {
        if (this.quote === 0x22 && c === 0x5c) { i += 2; continue; }
        if (c === this.quote) {
          if (this.quote === 0x27 && t.charCodeAt(i + 1) === 0x27) { i += 2; continue; }
          this.quote = undefined;
          valueStart = false;
          keyOnly = false;
        }
        i++;
        continue;
      }
      if (c === 32 || c === 9) { i++; continue; }
      if (c === 0x23 /* # */ && (i === from || t.charCodeAt(i - 1) === 32 || t.charCodeAt(i - 1) === 9)) break;
      const next = i + 1 < to ? t.charCodeAt(i + 1) : 32;
      const spaceNext = next === 32 || next === 9;
      const inFlow = this.flow.length > 0;
      if (valueStart) {
        if (c === 0x22 || c === 0x27) {
          open();
          this.quote = c;
          keyOnly = false;
          i++;
          continue;
        }
        if (!inFlow && (c === 0x7c || c === 0x3e) && /^[|>][0-9+-]*[ \t]*(#.*)?$/.test(t.slice(i, to))) {
          return { blockScalar: true, keyOnly: false };
        }
        if (!inFlow && (c === 0x2d /* - */ || c === 0x3f /* ? */) && spaceNext) { i++; keyOnly = false; continue; }
        if (c === 0x26 /* & */ || c === 0x21 /* ! */) {
          while (i < to && t.charCodeAt(i) !== 32 && t.charCodeAt(i) !== 9) i++;
          continue;
        }
      }
      if ((c === 0x5b || c === 0x7b) && (valueStart || inFlow)) {
        open();
        this.flow.push(line);
        valueStart = true;
        keyOnly = false;
        i++;
        continue;
      }
      if (inFlow && (c === 0x5d || c === 0x7d)) {
        const open = this.flow.pop()!;
        if (line > open) this.ranges.push(bracketRange(t, open, line, i, lineStart));
        valueStart = false;
        keyOnly = false;
        i++;
        continue;
      }
      if (inFlow && c === 0x2c) { valueStart = true; i++; continue; }
      if (c === 0x3a /* : */ && (spaceNext || i + 1 >= to || (inFlow && (next === 0x2c || next === 0x5d || next === 0x7d)))) {
        valueStart = true;
        keyOnly = !inFlow;
        i++;
        continue;
      }
      // a plain scalar character
      valueStart = false;
      keyOnly = false;
      i++;
    }
    return { blockScalar: false, keyOnly };
  }
}

function yamlRanges(text: string): FoldingRange[] {
  const state = new YamlState(text);
  const blocks: Block[] = [];
  const regions: number[] = [];
  /** Last line with content (not blank, not only a comment). */
  let lastContent = -1;
  /** A block scalar's content continues while lines are blank or indented more than this. */
  let scalarIndent: number | undefined;
  let commentRun: { start: number; end: number } | undefined;
  const closeComments = () => {
    if (commentRun && commentRun.end > commentRun.start) {
      state.ranges.push({ startLine: commentRun.start, endLine: commentRun.end, kind: FoldingRangeKind.Comment });
    }
    commentRun = undefined;
  };
  const close = (block: Block) => {
    if (lastContent > block.line) state.ranges.push({ startLine: block.line, endLine: lastContent });
  };

  let line = 0;
  for (let start = 0; start <= text.length; line++) {
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== LF && text.charCodeAt(end) !== CR) end++;
    const nextStart = end >= text.length ? text.length + 1 : text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
    let indent = 0;
    while (start + indent < end && text.charCodeAt(start + indent) === 32) indent++;
    const first = start + indent;
    const blank = first >= end || (text.charCodeAt(first) === 9 && text.slice(first, end).trim() === "");

    if (scalarIndent !== undefined) {
      if (blank) { start = nextStart; continue; }
      if (indent > scalarIndent) { lastContent = line; start = nextStart; continue; }
      scalarIndent = undefined;
    }
    if (state.quote !== undefined || state.flow.length > 0) {
      const c = text.charCodeAt(first);
      if (!blank && indent <= state.openIndent && c !== 0x5d && c !== 0x7d && c !== state.quote) {
        // back at the indentation it opened at: a quote or bracket that was never closed (mid-typing)
        state.quote = undefined;
        state.flow = [];
      } else {
        // inside a multi-line flow scalar or collection: content of the block that holds it
        state.scan(start, end, line, start, true);
        if (!blank) lastContent = line;
        start = nextStart;
        continue;
      }
    }
    if (blank) { start = nextStart; continue; }
    if (text.charCodeAt(first) === 0x23 /* # */) {
      const comment = text.slice(first, end);
      if (/^#\s*region\b/.test(comment)) regions.push(line);
      else if (/^#\s*endregion\b/.test(comment)) {
        const open = regions.pop();
        if (open !== undefined && line > open) state.ranges.push({ startLine: open, endLine: line, kind: FoldingRangeKind.Region });
      }
      if (commentRun && commentRun.end === line - 1) commentRun.end = line;
      else { closeComments(); commentRun = { start: line, end: line }; }
      start = nextStart;
      continue;
    }
    closeComments();
    const dash = text.charCodeAt(first) === 0x2d && (first + 1 >= end || text.charCodeAt(first + 1) === 32 || text.charCodeAt(first + 1) === 9);
    while (blocks.length > 0) {
      const top = blocks[blocks.length - 1];
      if (top.indent < indent || (top.indent === indent && top.keyOnly && dash)) break;
      close(blocks.pop()!);
    }
    const scan = state.scan(first, end, line, start, true);
    // a line that opens a flow collection spanning lines folds like JSON when it closes (bracket ranges)
    if (state.flow.length === 0) blocks.push({ indent, line, keyOnly: scan.keyOnly });
    if (scan.blockScalar) scalarIndent = indent;
    lastContent = line;
    start = nextStart;
  }
  while (blocks.length > 0) close(blocks.pop()!);
  closeComments();
  return state.ranges;
}
