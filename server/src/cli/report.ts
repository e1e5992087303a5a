// The CLI's own view of one checked file: plain data, so the formatters are pure functions that
// tests can feed with hand-made values (no parser or validator needed).

// Positions are LSP positions (0-based line, UTF-16 character), as the document layer gives them.
import type { Format, Position, Range } from "../document/types";
import type { NoticeSeverity } from "../service/rules";
export type { Format, Position, Range, NoticeSeverity };

export interface ReportedParseError {
  message: string;
  range: Range;
}

export interface ReportedFinding {
  code: string;
  path: string;
  message: string;
  severity: string;
  range: Range;
}

/** One of LWIR Tools' own notices (never a runtime finding), at the level the user chose. */
export interface ReportedNotice {
  code: string;
  path: string;
  message: string;
  severity: NoticeSeverity;
  range: Range;
}

export interface FileReport {
  /** The path as given on the command line, or as found under a given folder. */
  file: string;
  format: Format;
  /** The decoded text the ranges refer to (BOM removed); "" when the bytes are not text. */
  text: string;
  parseErrors: ReportedParseError[];
  findings: ReportedFinding[];
  /** Own notices; never part of `valid` (the runtime's verdict). Optional: absent means none. */
  notices?: ReportedNotice[];
  valid: boolean;
  workflowVersion: { id: string; hash: string } | null;
  /** --fix / --fix-dry-run: how many fixes were applied (or would be); the rest of the report is what remains. */
  fixed?: number;
  /** --fix-dry-run: the changes as a unified diff ("" when none). */
  diff?: string;
}

/** A path that could not be read, or a file the tool failed on: the tool's failure, not the file's. */
export interface Failure {
  path: string;
  reason: string;
  /**
   * unreadable: missing, denied, a loop…; internal: the tool itself failed on the file; unmatched: a folder
   * with no LWIR file; unwritable: --fix could not write the fixed file back (it is left as it was).
   */
  kind: "unreadable" | "internal" | "unmatched" | "unwritable";
}

/** The one-line message for a failure (stderr, the json `errors`, SARIF notifications), without the path. */
export function failureMessage(f: Failure): string {
  switch (f.kind) {
    case "internal":
      return `internal error while checking it: ${f.reason}`;
    case "unwritable":
      return `could not write the fixes (the file is unchanged): ${f.reason}`;
    case "unmatched":
    case "unreadable":
      return f.reason;
  }
}

/** The same with the path, as stderr shows it. */
export function failureLine(f: Failure): string {
  switch (f.kind) {
    case "internal":
      return `internal error while checking ${f.path}: ${f.reason}`;
    case "unmatched":
      return `${f.path}: ${f.reason}`;
    case "unreadable":
      return `cannot read ${f.path}: ${f.reason}`;
    case "unwritable":
      return `cannot write the fixes to ${f.path} (the file is unchanged): ${f.reason}`;
  }
}

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

export function compareRanges(a: Range, b: Range): number {
  return comparePositions(a.start, b.start) || comparePositions(a.end, b.end);
}

/** Plain code-unit comparison, as JavaScript's `<` does (the corpus labels are sorted this way). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Path, then code, like the corpus labels; then range so equal pairs still sort deterministically. */
export function sortFindings<T extends ReportedFinding>(findings: readonly T[]): T[] {
  return [...findings].sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.code, b.code) || compareRanges(a.range, b.range));
}

/** One line of a report: a parse error, a finding or an own notice, with its level. */
export interface Problem {
  severity: string;
  code: string;
  path: string;
  message: string;
  range: Range;
}

/** Everything reported for a file, in source order (what a terminal or an annotation list reads best). */
export function problemsInSourceOrder(file: FileReport): Problem[] {
  return [
    ...file.parseErrors.map((p) => ({ severity: "error", code: "parse", path: "", message: p.message, range: p.range })),
    ...file.findings,
    ...(file.notices ?? []),
  ].sort((a, b) => compareRanges(a.range, b.range) || compareStrings(a.code, b.code) || compareStrings(a.path, b.path));
}

/** Problems that fail the file: parse errors, findings, and own notices the user raised to error. */
export function problemCount(file: FileReport): number {
  return file.parseErrors.length + file.findings.length + countNotices(file, "error");
}

export function countNotices(file: FileReport, severity: NoticeSeverity): number {
  let n = 0;
  for (const x of file.notices ?? []) if (x.severity === severity) n++;
  return n;
}
