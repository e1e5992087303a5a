// The `yaml` package's syntax errors in our own words where its are unclear, each on the text it is about.
// Users write `prompt: Classify this ticket: {{ input.ticket }}` all the time; the package says "Nested
// mappings are not allowed in compact mappings" with a one-character range. Here that becomes one sentence
// on the whole value, with the string the user meant (for the quick fixes "Quote this value" and "Use a
// block scalar (|)"). Errors we do not recognise keep the package's message and range.
import type { ParseValue } from "./types";

/** One error as the package gives it (prettyErrors off). */
export interface RawYamlError {
  code: string;
  message: string;
  start: number;
  end: number;
}

export interface ExplainedYamlError {
  code: string;
  message: string;
  start: number;
  end: number;
  value?: ParseValue;
}

export const COLON_IN_VALUE_MESSAGE =
  "YAML reads a colon followed by a space inside an unquoted value as the start of a nested mapping: quote the value or use a block scalar (|).";
export const TEMPLATE_START_MESSAGE =
  "A value that starts with {{ must be quoted in YAML: unquoted, YAML reads it as a mapping.";
export const TAB_INDENT_MESSAGE = "YAML does not allow tabs for indentation: indent with spaces.";

/** Characters that start something other than a plain scalar (quotes, flow collections, anchors, tags, block scalars…). */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;

/** The value written on one line after `key:` or `- ` (the key's column is where its mapping starts). */
interface LineValue {
  /** Offset where the value starts (after `key: ` or `- `), and where it ends on its line (before a ` #` comment). */
  start: number;
  lineEnd: number;
  /** Column of the key (or of the `-` of a bare list item): a block scalar's text goes one level deeper. */
  indent: number;
}

/** Rewrites the package's errors: ours where we recognise them; an error inside a value already explained is dropped. */
export function explainYamlErrors(text: string, errors: readonly RawYamlError[]): ExplainedYamlError[] {
  const out: ExplainedYamlError[] = [];
  const covered: Array<[number, number]> = [];
  for (const e of errors) {
    if (covered.some(([s, t]) => e.start >= s && e.start < t)) continue;
    const explained = explain(text, e) ?? { code: e.code, message: e.message, start: e.start, end: e.end };
    if (explained.value) covered.push([explained.start, Math.max(explained.end, explained.start + 1)]);
    out.push(explained);
  }
  return out;
}

function explain(text: string, e: RawYamlError): ExplainedYamlError | undefined {
  if (e.code === "TAB_AS_INDENT") {
    const lineStart = startOfLine(text, e.start);
    let end = lineStart;
    while (text[end] === " " || text[end] === "\t") end++;
    return { code: e.code, message: TAB_INDENT_MESSAGE, start: lineStart, end: Math.max(end, e.end) };
  }
  if (e.code === "MISSING_CHAR" && /quote/.test(e.message)) return unclosedQuote(text, e);
  const at = valueOnLine(text, e.start);
  if (!at || e.start < at.start) return undefined;
  // A value that starts with `{{`: whatever the package says about it, the cause is the missing quotes.
  if (text.startsWith("{{", at.start)) {
    return withValue(e.code, TEMPLATE_START_MESSAGE, at.start, at.lineEnd, text.slice(at.start, at.lineEnd), at.indent);
  }
  if (e.code === "BLOCK_AS_IMPLICIT_KEY" || e.code === "MULTILINE_IMPLICIT_KEY") {
    if (INDICATOR.test(text[at.start])) return undefined;
    const plain = plainValue(text, at);
    return withValue(e.code, COLON_IN_VALUE_MESSAGE, at.start, plain.end, plain.text, at.indent);
  }
  if (e.code === "UNEXPECTED_TOKEN" && /scalar/.test(e.message)) {
    // `prompt: "say "hi" now"`, `note: 'it's'`: text after what YAML took for the closing quote
    const q = text[at.start];
    if ((q === '"' || q === "'") && e.start > at.start) {
      const raw = text.slice(at.start, at.lineEnd);
      const message = `This value has text after its closing quote (${q}): quote the whole value once, writing a ${q} inside it as ${q === '"' ? '\\"' : "''"}.`;
      // The string meant: what is between the first and the last quote, when it ends with one.
      if (raw.length >= 2 && raw.endsWith(q)) return withValue(e.code, message, at.start, at.lineEnd, raw.slice(1, -1), at.indent);
      return { code: e.code, message, start: at.start, end: at.lineEnd };
    }
  }
  return undefined;
}

function withValue(code: string, message: string, start: number, end: number, value: string, indent: number): ExplainedYamlError {
  return { code, message, start, end, value: { start, end, text: value, indent } };
}

/** `kind: "Workflow` with no closing quote: the package points at the end of the document; we point at the quote. */
function unclosedQuote(text: string, e: RawYamlError): ExplainedYamlError | undefined {
  const q = e.message.includes("'") ? "'" : '"';
  // The opening quote: the last unclosed one before the end the package reports, on a line of the form `key: "…`.
  let lineStart = startOfLine(text, Math.min(e.start, text.length));
  for (;;) {
    const at = valueOnLine(text, lineStart);
    if (at && text[at.start] === q) {
      return { code: e.code, message: `This value opens a ${q} quote that is never closed: add the closing ${q} at the end of the value.`, start: at.start, end: at.lineEnd };
    }
    if (lineStart === 0) return undefined;
    lineStart = startOfLine(text, lineStart - 1);
  }
}

function startOfLine(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text[i - 1] !== "\n" && text[i - 1] !== "\r") i--;
  return i;
}

function endOfLineAt(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
  return i;
}

/** Where a comment (` #`) starts on a line, else the line end; trailing blanks trimmed. */
function contentEnd(text: string, from: number, lineEnd: number, plain: boolean): number {
  let end = lineEnd;
  if (plain) {
    for (let i = from; i < lineEnd; i++) {
      if (text[i] === "#" && (i === from || text[i - 1] === " " || text[i - 1] === "\t")) {
        end = i;
        break;
      }
    }
  }
  while (end > from && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return end;
}

/**
 * The value on the line holding `offset`, read the way users write it: indentation, any `- `, then a key
 * (plain or quoted) and `:`, then the value; or `- ` and the value directly.
 */
function valueOnLine(text: string, offset: number): LineValue | undefined {
  const lineStart = startOfLine(text, offset);
  const lineEnd = endOfLineAt(text, offset);
  let i = lineStart;
  while (text[i] === " ") i++;
  let dash = -1;
  while (text[i] === "-" && (text[i + 1] === " " || text[i + 1] === "\t")) {
    dash = i;
    i += 2;
    while (text[i] === " " || text[i] === "\t") i++;
  }
  const keyStart = i;
  let colon = -1;
  if (text[i] === '"' || text[i] === "'") {
    const close = text.indexOf(text[i], i + 1);
    if (close > 0 && close < lineEnd && text[close + 1] === ":") colon = close + 1;
  } else if (!text.startsWith("{{", i) && !INDICATOR.test(text[i] ?? "")) {
    for (let j = i; j < lineEnd; j++) {
      if (text[j] === "#" && (text[j - 1] === " " || text[j - 1] === "\t")) break;
      if (text[j] === ":" && (j + 1 === lineEnd || text[j + 1] === " " || text[j + 1] === "\t")) {
        colon = j;
        break;
      }
    }
  }
  let start: number;
  let indent: number;
  if (colon >= 0) {
    start = colon + 1;
    while (start < lineEnd && (text[start] === " " || text[start] === "\t")) start++;
    indent = keyStart - lineStart;
  } else if (dash >= 0) {
    start = keyStart;
    indent = dash - lineStart;
  } else return undefined;
  if (start >= lineEnd || text[start] === "#") return undefined;
  const quoted = text[start] === '"' || text[start] === "'";
  return { start, lineEnd: contentEnd(text, start, lineEnd, !quoted), indent };
}

/**
 * A plain value from its start to its last line: following lines indented deeper than its key continue it
 * (blank lines too, when more follow), as a multi-line plain scalar would; the text is what YAML makes of
 * such a scalar (lines trimmed and joined with a space, a blank line giving a line break).
 */
function plainValue(text: string, at: LineValue): { end: number; text: string } {
  let end = at.lineEnd;
  const lines = [text.slice(at.start, at.lineEnd)];
  let next = endOfLineAt(text, at.start);
  let blanks = 0;
  // a comment after the first line's text ends the scalar there
  const commented = text.slice(at.lineEnd, next).trim() !== "";
  while (!commented && next < text.length) {
    next += text[next] === "\r" && text[next + 1] === "\n" ? 2 : 1;
    const lineEnd = endOfLineAt(text, next);
    let i = next;
    while (text[i] === " " || text[i] === "\t") i++;
    if (i === lineEnd) {
      blanks++;
      next = lineEnd;
      continue;
    }
    if (i - next <= at.indent || text[i] === "#") break;
    const stop = contentEnd(text, i, lineEnd, true);
    for (; blanks > 0; blanks--) lines.push("");
    lines.push(text.slice(i, stop));
    end = stop;
    if (stop < lineEnd) break; // a comment ends the scalar
    next = lineEnd;
  }
  return { end, text: foldPlainLines(lines) };
}

/** Joins the trimmed lines of a multi-line plain scalar as YAML does: a space between lines, a line break per blank line. */
export function foldPlainLines(lines: readonly string[]): string {
  let out = "";
  let blanks = 0;
  for (const line of lines) {
    if (line === "") {
      blanks++;
      continue;
    }
    if (out !== "") out += blanks > 0 ? "\n".repeat(blanks) : " ";
    out += line;
    blanks = 0;
  }
  return out;
}
