// The `--format json` contract other tools (and the conformance check) read. Keys and their order
// are fixed here on purpose, so internal fields (segments, text) never leak into it.
import { compareRanges, sortFindings, type FileReport, type Range } from "./report";

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
}

export interface JsonReport {
  files: JsonFile[];
}

function range(r: Range): JsonRange {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

export function toJsonReport(files: readonly FileReport[]): JsonReport {
  return {
    files: files.map((f) => ({
      file: f.file,
      format: f.format,
      parseErrors: [...f.parseErrors].sort((a, b) => compareRanges(a.range, b.range)).map((p) => ({ message: p.message, range: range(p.range) })),
      findings: sortFindings(f.findings).map((x) => ({ code: x.code, path: x.path, message: x.message, severity: x.severity, range: range(x.range) })),
      valid: f.valid,
      workflowVersion: f.workflowVersion ? { id: f.workflowVersion.id, hash: f.workflowVersion.hash } : null,
    })),
  };
}

export function formatJson(files: readonly FileReport[]): string {
  return JSON.stringify(toJsonReport(files), null, 2) + "\n";
}
