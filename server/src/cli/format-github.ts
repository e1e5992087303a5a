// GitHub Actions output: one workflow command per problem (`::error file=…,line=…::message`), which the
// runner turns into an annotation on the file's line in the pull request and the run's summary. Pure: the
// base folder (the workspace the file names are made relative to) is a parameter.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { problemCount, problemsInSourceOrder, type Failure, type FileReport, type Range } from "./report";
import { oneLine } from "./format-text";

export interface GithubOptions {
  /** Absolute folder that annotation file names are relative to (GitHub wants paths from the repository root). */
  baseDir: string;
  failures?: readonly Failure[];
}

/** Our severities → the three annotation levels GitHub has. */
export function commandOf(severity: string): "error" | "warning" | "notice" {
  if (severity === "warning") return "warning";
  if (severity === "error") return "error";
  return "notice";
}

// The runner reads a command up to the end of the line and splits properties on `,` and `:`, so those
// are percent-encoded (the runner decodes them); `%` first so encodings are not encoded twice.
export function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** Relative with forward slashes when under baseDir (annotations need repository paths), else as given. */
export function annotationPath(file: string, baseDir: string): string {
  const rel = relative(baseDir, resolve(baseDir, file));
  if (rel !== "" && rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel)) return rel.split(sep).join("/");
  return file;
}

/**
 * GitHub's lines and columns are 1-based and its end column is the last column of the range (inclusive):
 * our 0-based exclusive end character is exactly that number. An empty range keeps one column.
 */
export function position(range: Range): string {
  const line = range.start.line + 1;
  const col = range.start.character + 1;
  const endLine = range.end.line + 1;
  const endColumn = endLine === line ? Math.max(col, range.end.character) : range.end.character;
  return `line=${line},col=${col},endLine=${endLine},endColumn=${Math.max(1, endColumn)}`;
}

export function formatGithub(files: readonly FileReport[], options: GithubOptions): string {
  const out: string[] = [];
  let problems = 0;
  let filesWithProblems = 0;
  for (const file of files) {
    const count = problemCount(file);
    const list = problemsInSourceOrder(file);
    if (list.length === 0) continue;
    if (count > 0) {
      problems += count;
      filesWithProblems++;
    }
    const name = escapeProperty(annotationPath(file.file, options.baseDir));
    // Our own warnings and hints are annotations too, at their own level (never counted as problems).
    for (const p of list) {
      // A parser's code frame (after a blank line) would only repeat the annotated line.
      out.push(`::${commandOf(p.severity)} file=${name},${position(p.range)},title=${escapeProperty(p.code)}::${escapeData(oneLine(p.message))}`);
    }
  }
  const failures = options.failures ?? [];
  for (const f of failures) {
    const what = f.kind === "internal" ? `internal error while checking ${f.path}` : f.kind === "unwritable" ? `cannot write the fixes to ${f.path}` : `cannot read ${f.path}`;
    out.push(`::error title=lwir::${escapeData(`${what}: ${f.reason}`)}`);
  }
  // A plain line for the log (not a command): what the annotations add up to.
  // Never "no problems" when a path could not be checked (as in the text format): nobody knows what it holds.
  const total = files.length;
  let summary = problems > 0
    ? `lwir: ${problems} ${problems === 1 ? "problem" : "problems"} in ${filesWithProblems} of ${total} ${total === 1 ? "file" : "files"}`
    : `lwir: ${total} ${total === 1 ? "file" : "files"} checked${failures.length > 0 ? "" : ", no problems"}`;
  if (failures.length > 0) summary += `; ${failures.length} ${failures.length === 1 ? "path" : "paths"} could not be checked`;
  out.push(summary);
  return out.join("\n") + "\n";
}
