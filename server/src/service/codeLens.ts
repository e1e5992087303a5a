// WorkflowVersion in the editor: a code lens on `apiVersion` (the `wfver_…` id of a valid document,
// else its problem count) and the `lwir/workflowVersion` request the client's commands and status bar
// use (its names and types: ../protocol.ts, shared with the client).
import type { CodeLens } from "vscode-languageserver-types";
import { canonicalJson } from "../lwir/canonical";
import type { Analysis } from "./analysis";
import { isEmptyDocument } from "./diagnostics";
import { COPY_WORKFLOW_VERSION_COMMAND, OPEN_GRAPH_COMMAND, SHOW_PROBLEMS_COMMAND, type CopyWorkflowVersionArgs, type WorkflowVersionResult } from "../protocol";

/** Syntax errors and findings: what keeps a document from having a WorkflowVersion. */
export function problemCount(analysis: Analysis): number {
  return analysis.document.parseErrors.length + analysis.findings.length;
}

export function workflowVersionInfo(analysis: Analysis, uri: string, withCanonicalJson = false): WorkflowVersionResult {
  // as the diagnostics show it: an info notice, so the status bar shows no error while a file is new
  if (isEmptyDocument(analysis.document)) return { uri, valid: false, id: null, hash: null, problems: 0, empty: true };
  const version = analysis.workflowVersion;
  const result: WorkflowVersionResult = {
    uri,
    valid: analysis.valid && version !== null,
    id: version?.id ?? null,
    hash: version?.hash ?? null,
    problems: problemCount(analysis),
  };
  const doc = analysis.document;
  if (doc.parseErrors.length > 0) result.syntaxErrors = doc.parseErrors.length;
  if (withCanonicalJson && doc.parseErrors.length === 0 && !doc.tooDeep) {
    try {
      result.canonicalJson = canonicalJson(doc.value);
    } catch {
      // not hashable: the findings say why
    }
  }
  return result;
}

export function tooLargeInfo(uri: string): WorkflowVersionResult {
  return { uri, valid: false, id: null, hash: null, problems: 1, tooLarge: true };
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The WorkflowVersion lens on the `apiVersion` key (the start of the document when it has none), and
 * "Open graph" on the `steps` key when there is one.
 */
export function provideCodeLenses(analysis: Analysis, uri: string, shownProblems?: number): CodeLens[] {
  const doc = analysis.document;
  if (isEmptyDocument(doc)) return []; // no apiVersion to put it on, and nothing to count
  return [workflowVersionLens(analysis, uri, shownProblems), ...graphLens(analysis, uri)];
}

/**
 * The problems the editor lists, as its badge counts them: the diagnostics that are errors or warnings
 * (our own checks' warnings too). The lens counts these, as VS Code's status bar item does
 * (client/src/indicators.ts), so that both say what the Problems panel and the tab's badge say.
 */
export function shownProblemCount(diagnostics: ReadonlyArray<{ severity?: number }>): number {
  return diagnostics.filter((d) => d.severity === 1 || d.severity === 2).length;
}

function graphLens(analysis: Analysis, uri: string): CodeLens[] {
  const doc = analysis.document;
  const loc = doc.parseErrors.length === 0 ? doc.locate(["steps"]) : undefined;
  if (loc?.keyStart === undefined || loc.keyEnd === undefined) return [];
  return [{
    range: doc.rangeAt(loc.keyStart, loc.keyEnd),
    command: { title: "Open graph", command: OPEN_GRAPH_COMMAND, arguments: [{ uri }], tooltip: "Show the workflow's graph beside the editor." },
  }];
}

function workflowVersionLens(analysis: Analysis, uri: string, shownProblems?: number): CodeLens {
  const doc = analysis.document;
  const loc = doc.locate(["apiVersion"]);
  const at = loc?.keyStart !== undefined && loc.keyEnd !== undefined ? doc.rangeAt(loc.keyStart, loc.keyEnd) : doc.rangeAt(0, 0);
  const info = workflowVersionInfo(analysis, uri);
  if (info.valid && info.id !== null) {
    const args: CopyWorkflowVersionArgs = { uri, id: info.id };
    return {
      range: at,
      command: { title: `WorkflowVersion ${info.id}`, command: COPY_WORKFLOW_VERSION_COMMAND, arguments: [args], tooltip: `${info.hash}\nClick to copy the id.` },
    };
  }
  const title = plural(shownProblems ?? info.problems, "problem");
  return { range: at, command: { title, command: SHOW_PROBLEMS_COMMAND, arguments: [], tooltip: `${title}. The document gets a WorkflowVersion once it has none.` } };
}
