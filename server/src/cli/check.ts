// Reads one file (or standard input) and turns the shared analysis (the same one the editor uses) into a FileReport.
import { readFileSync } from "node:fs";
import { analyzeText, type Analysis } from "../service/analysis";
import { ownNotices } from "../service/diagnostics";
import { levelOf, type RuleLevels } from "../service/rules";
import { documentText, type DecodedText } from "../document/decode";
import { decodeSource, formatOfBytes, formatOf, reasonOf, sniffFormat } from "./files";
import type { Format } from "./report";
import type { Failure, FileReport, ReportedNotice } from "./report";

const START = { line: 0, character: 0 };

export interface CheckOptions {
  /** Levels of our own rules (--rule); defaults for the others. */
  rules?: RuleLevels;
  /**
   * "skip" (a file found in a folder): a binary file (NUL bytes, UTF-16) is reported as such, not read.
   * "read" (default: a file the user named, standard input): read whatever its bytes, as the runtime does.
   */
  binary?: "skip" | "read";
}

export function checkFile(file: string, options: CheckOptions = {}): FileReport | Failure {
  // Fast path (many small files: the per-file cost counts): Node reads a file straight into a string in one
  // call, without a Buffer. Text with no U+FFFD and no NUL is exactly what decodeSource makes of the same
  // bytes, with no invalid UTF-8 to point at (invalid UTF-8 and UTF-16 byte order marks come out as
  // U+FFFD); anything else, and any read error, takes the byte path below, so reports and failures stay
  // the same (collectFiles passes regular files only, so reading a second time sees the same bytes).
  let text: string | undefined;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    text = undefined;
  }
  if (text !== undefined && !text.includes("\uFFFD") && !text.includes("\0")) return checkText(file, { text, invalidUtf8: [] }, options, file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { path: file, reason: reasonOf(error, file), kind: "unreadable" };
  }
  return checkBytes(file, bytes, options);
}

/** The text of a decoded file as the document layer reads it, and its format (by name, else sniffed). */
export function readDecoded(decoded: DecodedText, formatName: string): ReturnType<typeof documentText> & { format: Format } {
  const format = formatOf(formatName) ?? sniffFormat(decoded.text);
  return { ...documentText(decoded, format), format };
}

/** Checks bytes shown under `name`; the format comes from the name's extension, else from the text. */
export function checkBytes(name: string, bytes: Uint8Array, options: CheckOptions = {}, formatName: string = name): FileReport | Failure {
  try {
    const decoded = decodeSource(bytes, options.binary ?? "read");
    if (!decoded.ok) {
      return {
        file: name, format: formatOfBytes(formatName, bytes), text: "",
        parseErrors: [{ message: decoded.reason, range: { start: START, end: START } }],
        findings: [], notices: [], valid: false, workflowVersion: null,
      };
    }
    return checkText(name, decoded, options, formatName);
  } catch (error) {
    return internalFailure(name, error);
  }
}

/** Checks decoded text shown under `name`; the format comes from `formatName`'s extension, else from the text. */
function checkText(name: string, decoded: DecodedText, options: CheckOptions, formatName: string): FileReport | Failure {
  try {
    // YAML: one leading BOM dropped, as the runtime's yaml and editors do (columns count from after it); JSON.parse,
    // and so the runtime, refuses any: the document layer reports it as a parse error.
    const { text, invalidUtf8, format } = readDecoded(decoded, formatName);
    return reportOf(name, format, text, analyzeText(text, format, invalidUtf8), options);
  } catch (error) {
    return internalFailure(name, error);
  }
}

/** The report of an analysed text (`lwir validate`'s view of it; `lwir mcp` reads the same). */
export function reportOf(name: string, format: Format, text: string, analysis: Analysis, options: CheckOptions = {}): FileReport {
  const notices: ReportedNotice[] = [];
  for (const n of ownNotices(analysis)) {
    const level = levelOf(n.code, options.rules) ?? "warning";
    if (level !== "off") notices.push({ code: n.code, path: n.path, message: n.message, severity: level, range: n.range });
  }
  const shown = analysis.document.parseErrors.length + analysis.findings.length + notices.length;
  return {
    file: name,
    format,
    // Only needed to show source lines under problems; dropped otherwise to keep memory flat.
    text: shown > 0 ? text : "",
    parseErrors: analysis.document.parseErrors.map((p) => ({ message: p.message, range: p.range })),
    findings: analysis.findings.map((f) => ({ code: f.code, path: f.path, message: f.message, severity: f.severity, range: f.range })),
    notices,
    valid: analysis.valid,
    workflowVersion: analysis.workflowVersion ? { id: analysis.workflowVersion.id, hash: analysis.workflowVersion.hash } : null,
  };
}

/** A bug in the tool must not hide the other files' results: report it for this file only. */
function internalFailure(name: string, error: unknown): Failure {
  return { path: name, reason: error instanceof Error ? error.message : String(error), kind: "internal" };
}

export function isFailure(x: FileReport | Failure): x is Failure {
  return "reason" in x;
}
