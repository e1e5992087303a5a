// Human output: one compiler-style line per problem, the source line with a caret under the range,
// an `ok` line per valid file with its WorkflowVersion id, then a summary line.
import { countNotices, problemCount, problemsInSourceOrder, type Failure, type FileReport, type Range } from "./report";

export interface TextOptions {
  color: boolean;
  /** Paths the tool could not check or that matched no file; only counted in the summary (they are reported on stderr). */
  failures?: readonly Failure[];
  /** --fix or --fix-dry-run: files report how many fixes were applied (or would be). */
  fixMode?: "write" | "dry-run";
}

/** Colour only for a terminal, unless NO_COLOR (no-color.org) or TERM=dumb says no; FORCE_COLOR wins. */
export function shouldColor(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTTY;
}

interface Style {
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  dim(s: string): string;
}

const ansi = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const COLORS: Style = { bold: ansi(1, 22), red: ansi(31, 39), green: ansi(32, 39), cyan: ansi(36, 39), yellow: ansi(33, 39), blue: ansi(34, 39), dim: ansi(2, 22) };
const id = (s: string) => s;
const PLAIN: Style = { bold: id, red: id, green: id, cyan: id, yellow: id, blue: id, dim: id };

function severityColor(style: Style, severity: string): (s: string) => string {
  return severity === "error" ? style.red : severity === "warning" ? style.yellow : style.blue;
}

/** Longest source line shown whole; longer ones (minified JSON) are cut to a window around the range. */
const MAX_LINE = 160;
const INDENT = "    ";

export function formatText(files: readonly FileReport[], options: TextOptions): string {
  const style = options.color ? COLORS : PLAIN;
  const out: string[] = [];
  let problems = 0;
  let filesWithProblems = 0;
  let warnings = 0;
  let infos = 0;
  let hints = 0;
  for (const file of files) {
    const count = problemCount(file);
    warnings += countNotices(file, "warning");
    infos += countNotices(file, "info");
    hints += countNotices(file, "hint");
    if (count > 0) {
      problems += count;
      filesWithProblems++;
    }
    if (options.fixMode && file.fixed) out.push(`${style.green(options.fixMode === "write" ? "fixed" : "would fix")}  ${clean(file.file)}  ${style.dim(`${file.fixed} ${plural(file.fixed, "fix")}`)}`);
    // Source order reads best in a terminal (the json output keeps the corpus's path/code order).
    const list = problemsInSourceOrder(file);
    const lines = file.text === "" || list.length === 0 ? undefined : new SourceLines(file.text);
    for (const p of list) {
      const where = `${clean(file.file)}:${p.range.start.line + 1}:${p.range.start.character + 1}`;
      out.push(`${style.bold(where)}  ${severityColor(style, p.severity)(p.severity)}  ${style.cyan(p.code)}  ${oneLine(p.message)}`);
      const shown = lines && snippet(lines, p.range);
      if (shown) out.push(INDENT + shown.source, INDENT + style.green(shown.caret));
    }
    // A valid file is ok even with warnings: the runtime accepts it.
    if (count === 0 && file.valid && file.workflowVersion) out.push(`${style.green("ok")}  ${clean(file.file)}  ${style.dim(file.workflowVersion.id)}`);
  }
  const failures = options.failures ?? [];
  const failed = failures.filter((f) => f.kind !== "unmatched").length;
  const unmatched = failures.length - failed;
  const total = files.length;
  // Never "no problems" when a path could not be checked: nobody knows what it holds.
  let summary = problems > 0
    ? `${problems} ${plural(problems, "problem")} in ${filesWithProblems} of ${total} ${plural(total, "file")}`
    : `${total} ${plural(total, "file")} checked${failures.length > 0 ? "" : ", no problems"}`;
  const notes = [
    warnings > 0 ? `${warnings} ${plural(warnings, "warning")}` : "",
    infos > 0 ? `${infos} info` : "",
    hints > 0 ? `${hints} ${plural(hints, "hint")}` : "",
  ].filter(Boolean);
  if (notes.length > 0) summary += `, ${notes.join(", ")}`;
  if (options.fixMode) {
    const fixes = files.reduce((n, f) => n + (f.fixed ?? 0), 0);
    const fixedFiles = files.filter((f) => (f.fixed ?? 0) > 0).length;
    const done = options.fixMode === "write" ? "applied" : "to apply";
    summary += fixes > 0 ? `; ${fixes} ${plural(fixes, "fix")} ${done} in ${fixedFiles} ${plural(fixedFiles, "file")}` : "; nothing to fix";
  }
  if (failed > 0) summary += `; ${failed} ${failed === 1 ? "path" : "paths"} could not be checked`;
  if (unmatched > 0) summary += `; ${unmatched} ${unmatched === 1 ? "folder holds" : "folders hold"} no LWIR file`;
  if (out.length > 0) out.push("");
  const color = problems > 0 || failures.length > 0 ? style.red : warnings > 0 ? style.yellow : style.green;
  out.push(style.bold(color(summary)));
  return out.join("\n") + "\n";
}

function plural(n: number, word: string): string {
  return n === 1 ? word : word.endsWith("x") ? word + "es" : word + "s";
}

/** Line breaks as LSP counts them: \r\n, \n and a lone \r. */
export class SourceLines {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) this.starts.push(i + 1);
    }
  }
  get count(): number {
    return this.starts.length;
  }
  line(n: number): string | undefined {
    if (n < 0 || n >= this.starts.length) return undefined;
    const end = n + 1 < this.starts.length ? this.starts[n + 1] : this.text.length;
    return this.text.slice(this.starts[n], end).replace(/\r?\n$|\r$/, "");
  }
}

/** The source line of the range's start and a `^~~~` line under the part of the range on it. */
export function snippet(lines: SourceLines, range: Range): { source: string; caret: string } | undefined {
  const line = lines.line(range.start.line);
  // An empty line (typically the end of the file) shows nothing worth pointing at.
  if (line === undefined || line === "") return undefined;
  let start = clamp(range.start.character, 0, line.length);
  let end = range.end.line === range.start.line ? clamp(range.end.character, start, line.length) : line.length;
  let from = 0;
  let to = line.length;
  if (line.length > MAX_LINE) {
    from = Math.max(0, start - 40);
    to = Math.min(line.length, from + MAX_LINE);
    if (isLowSurrogate(line.charCodeAt(from))) from++;
    if (isLowSurrogate(line.charCodeAt(to))) to--;
    start = Math.max(start, from);
    end = Math.min(end, to);
  }
  const before = [...line.slice(from, start)];
  const under = [...line.slice(start, Math.max(start, end))];
  const lead = from > 0 ? "…" : "";
  const source = lead + safeChars(line.slice(from, to)) + (to < line.length ? "…" : "");
  // Tabs are copied so the caret lines up whatever the terminal's tab width; other code points are one column.
  const pad = (lead ? " " : "") + before.map((c) => (c === "\t" ? "\t" : " ")).join("");
  const caret = "^" + "~".repeat(Math.max(0, under.length - 1));
  return { source, caret: pad + caret };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(Math.max(n, lo), hi);
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

// Control and bidi-override characters from a file must not reach the terminal as such: they could
// move the cursor, change colours or reorder what is shown. One replacement character keeps columns.
// A BOM (U+FEFF) is invisible: shown as one, it points at where a JSON document's BOM error is.
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

function safeChars(s: string): string {
  return s.replace(UNSAFE, "\ufffd");
}

/** A message on one line; a parser's own code frame (after a blank line) is dropped, the snippet replaces it. */
export function oneLine(message: string): string {
  const cut = message.search(/\r?\n[ \t]*\r?\n/);
  return clean((cut >= 0 ? message.slice(0, cut) : message).trim());
}

/** For one-line fields (file names, messages): line breaks become spaces, other controls are escaped. */
function clean(s: string): string {
  return s.replace(/\r\n|\r|\n/g, " ").replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
