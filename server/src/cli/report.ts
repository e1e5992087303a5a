// The CLI's own view of one checked file: plain data, so the formatters are pure functions that
// tests can feed with hand-made values (no parser or validator needed).

// Positions are LSP positions (0-based line, UTF-16 character), as the document layer gives them.
import type { Format, Position, Range } from "../document/types";
export type { Format, Position, Range };

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

export interface FileReport {
  /** The path as given on the command line, or as found under a given folder. */
  file: string;
  format: Format;
  /** The decoded text the ranges refer to (BOM removed); "" when the bytes are not text. */
  text: string;
  parseErrors: ReportedParseError[];
  findings: ReportedFinding[];
  valid: boolean;
  workflowVersion: { id: string; hash: string } | null;
}

/** A path that could not be read, or a file the tool failed on: the tool's failure, not the file's. */
export interface Failure {
  path: string;
  reason: string;
  /** unreadable: missing, denied, a loop…; internal: the tool itself failed on the file. */
  kind: "unreadable" | "internal";
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

export function problemCount(file: FileReport): number {
  return file.parseErrors.length + file.findings.length;
}
