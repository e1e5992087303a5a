// The indicators of an LWIR document in VS Code: the status bar item, the WorkflowVersion code lens, the
// editor tab's badge and the Problems panel. VS Code draws the badge and the panel from the diagnostics
// it was given; the status bar and the lens are drawn here, by one function, from one record: the
// diagnostics the editor was given for a version of the text and the server's verdict on that same
// version. So the four always tell the same story (issue #22). Pure (no `vscode`): unit-tested.
//
// The rule:
// - A problem is an error or a warning the Problems panel lists: what the tab's badge counts. Infos and
//   hints are not problems.
// - The WorkflowVersion is shown when the runtime would accept the text (the server's verdict: it parses
//   and has no finding); warnings of our own checks do not take it away, and are counted beside it.
// - While diagnostics are held back (quiet typing), the text's verdict is not shown yet: no
//   WorkflowVersion, the problems listed so far, and "typing…"; when the pause ends all of it settles at once.
import type { WorkflowVersionResult } from "../../server/src/protocol";

export interface ShownCounts {
  errors: number;
  warnings: number;
  /** Diagnostics held back while the user types (quietTypingSession.ts). */
  held: number;
}

export type IndicatorState = "valid" | "problems" | "typing" | "empty" | "tooLarge" | "notJson";

export interface Indicators {
  state: IndicatorState;
  /** Errors + warnings shown: the badge's number. */
  problems: number;
  /** The status bar item's text (with its codicon). */
  status: string;
  statusTooltip: string;
  /** The code lens's title on `apiVersion`; undefined: no lens (an empty document). */
  lens: string | undefined;
  lensTooltip: string;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "1 error, 3 warnings" (the parts that are not 0; "no problem" when both are). */
export function breakdown(counts: ShownCounts): string {
  const parts = [];
  if (counts.errors > 0) parts.push(plural(counts.errors, "error"));
  if (counts.warnings > 0) parts.push(plural(counts.warnings, "warning"));
  return parts.length > 0 ? parts.join(", ") : "no problem";
}

/**
 * The words of the status bar and the lens for one record. `editorListsSyntaxErrors`: VS Code's JSON
 * support lists this JSON document's syntax errors, not us (jsonSyntaxErrors.ts), so we count none.
 */
export function indicators(verdict: WorkflowVersionResult, counts: ShownCounts, editorListsSyntaxErrors = false): Indicators {
  const problems = counts.errors + counts.warnings;
  const problemWords = plural(problems, "problem");
  const clickToList = "Click to open the Problems panel.";
  if (verdict.empty) {
    const why = "An empty LWIR document: Ctrl+Space offers \"New workflow\", a workflow that validates as written.";
    return { state: "empty", problems, status: "$(info) LWIR: empty", statusTooltip: why, lens: undefined, lensTooltip: why };
  }
  if (verdict.tooLarge) {
    const why = "This LWIR document is larger than lwir.maxFileSize, so it is not analysed.";
    return { state: "tooLarge", problems, status: "$(warning) LWIR: not analysed", statusTooltip: why, lens: "not analysed", lensTooltip: why };
  }
  if (counts.held > 0) {
    const why = `You are typing: the problems of what you type show when you pause (lwir.validation.typingPause) or move the cursor away.${problems > 0 ? ` Listed so far: ${breakdown(counts)}.` : ""}`;
    const words = problems > 0 ? `${problemWords}, typing…` : "typing…";
    return { state: "typing", problems, status: `$(edit) LWIR: ${words}`, statusTooltip: why, lens: words, lensTooltip: why };
  }
  if (editorListsSyntaxErrors && (verdict.syntaxErrors ?? 0) > 0) {
    const why = "This LWIR document is not valid JSON: the Problems panel lists where (VS Code's JSON support finds the syntax errors). It gets a WorkflowVersion once it is valid.";
    return { state: "notJson", problems, status: "$(error) LWIR: not valid JSON", statusTooltip: `${why}\n${clickToList}`, lens: "not valid JSON", lensTooltip: why };
  }
  if (verdict.valid && verdict.id !== null) {
    const id = verdict.id;
    const also = problems > 0 ? ` · ${problemWords}` : "";
    const listed = problems > 0 ? `\n${breakdown(counts)} of LWIR Tools' own checks: the runtime accepts the document.` : "";
    return {
      state: "valid",
      problems,
      status: `${counts.errors > 0 ? "$(error)" : problems > 0 ? "$(warning)" : "$(pass)"} ${id}${also}`,
      statusTooltip: `LWIR: valid\nWorkflowVersion ${id}\n${verdict.hash ?? ""}${listed}\nClick to copy the id.`,
      lens: `WorkflowVersion ${id}${also}`,
      lensTooltip: `${verdict.hash ?? ""}${listed}\nClick to copy the id.`,
    };
  }
  const why = `This LWIR document has ${problems > 0 ? `${plural(problems, "problem")} (${breakdown(counts)})` : "problems"}. It gets a WorkflowVersion once the errors are fixed.`;
  return { state: "problems", problems, status: `$(error) LWIR: ${problemWords}`, statusTooltip: `${why}\n${clickToList}`, lens: problemWords, lensTooltip: why };
}
