// Reads one file and turns the shared analysis (the same one the editor uses) into a FileReport.
import { readFileSync } from "node:fs";
import { analyzeText } from "../service/analysis";
import { decodeSource, formatOfBytes, formatOf, reasonOf, sniffFormat } from "./files";
import type { Failure, FileReport } from "./report";

const START = { line: 0, character: 0 };

export function checkFile(file: string): FileReport | Failure {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { path: file, reason: reasonOf(error, file), kind: "unreadable" };
  }
  try {
    const decoded = decodeSource(bytes);
    if (!decoded.ok) {
      return {
        file, format: formatOfBytes(file, bytes), text: "",
        parseErrors: [{ message: decoded.reason, range: { start: START, end: START } }],
        findings: [], valid: false, workflowVersion: null,
      };
    }
    const format = formatOf(file) ?? sniffFormat(decoded.text);
    const analysis = analyzeText(decoded.text, format);
    const problems = analysis.document.parseErrors.length + analysis.findings.length;
    return {
      file,
      format,
      // Only needed to show source lines under problems; dropped otherwise to keep memory flat.
      text: problems > 0 ? decoded.text : "",
      parseErrors: analysis.document.parseErrors.map((p) => ({ message: p.message, range: p.range })),
      findings: analysis.findings.map((f) => ({ code: f.code, path: f.path, message: f.message, severity: f.severity, range: f.range })),
      valid: analysis.valid,
      workflowVersion: analysis.workflowVersion ? { id: analysis.workflowVersion.id, hash: analysis.workflowVersion.hash } : null,
    };
  } catch (error) {
    // A bug in the tool must not hide the other files' results: report it for this file only.
    return { path: file, reason: error instanceof Error ? error.message : String(error), kind: "internal" };
  }
}

export function isFailure(x: FileReport | Failure): x is Failure {
  return "reason" in x;
}
