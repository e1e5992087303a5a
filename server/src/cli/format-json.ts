// The `--format json` contract other tools (and the conformance check) read. Keys and their order
// are fixed here on purpose, so internal fields (segments, text) never leak into it. Later additions
// (`notices`, the top-level `errors`) come after the original keys and never change them.
import { compareRanges, compareStrings, failureMessage, sortFindings, type Failure, type FileReport, type Range } from "./report";

export interface JsonRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface JsonFile {
  file: string;
  format: "json" | "yaml";
  parseErrors: { message: string; range: JsonRange }[];
  findings: { code: string; path: string; message: string; severity: string; range: JsonRange }[];
  valid: boolean;
  workflowVersion: { id: string; hash: string } | null;
  /** LWIR Tools' own notices (not the runtime's findings; they never change `valid`), in text order. */
  notices: { code: string; path: string; message: string; severity: string; range: JsonRange }[];
  /** Only with --fix / --fix-dry-run: how many fixes were applied (or would be); the file's other keys describe what remains. */
  fixed?: number;
  /** Only with --fix-dry-run: the fixes as a unified diff ("" when there are none). */
  diff?: string;
}

export interface JsonReport {
  files: JsonFile[];
  /** Paths that could not be checked (missing, unreadable, a folder with no LWIR file…) and why. */
  errors: { path: string; message: string }[];
}

function range(r: Range): JsonRange {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

export function toJsonReport(files: readonly FileReport[], failures: readonly Failure[] = []): JsonReport {
  return {
    files: files.map((f) => ({
      file: f.file,
      format: f.format,
      parseErrors: [...f.parseErrors].sort((a, b) => compareRanges(a.range, b.range)).map((p) => ({ message: p.message, range: range(p.range) })),
      findings: sortFindings(f.findings).map((x) => ({ code: x.code, path: x.path, message: x.message, severity: x.severity, range: range(x.range) })),
      valid: f.valid,
      workflowVersion: f.workflowVersion ? { id: f.workflowVersion.id, hash: f.workflowVersion.hash } : null,
      notices: [...(f.notices ?? [])]
        .sort((a, b) => compareRanges(a.range, b.range) || compareStrings(a.code, b.code))
        .map((x) => ({ code: x.code, path: x.path, message: x.message, severity: x.severity, range: range(x.range) })),
      ...(f.fixed !== undefined ? { fixed: f.fixed } : {}),
      ...(f.diff !== undefined ? { diff: f.diff } : {}),
    })),
    errors: failures.map((f) => ({ path: f.path, message: failureMessage(f) })),
  };
}

export function formatJson(files: readonly FileReport[], failures: readonly Failure[] = []): string {
  return JSON.stringify(toJsonReport(files, failures), null, 2) + "\n";
}
