// The words of the WorkflowVersion status bar item and commands (workflowVersionUi.ts), apart from the
// `vscode` API so that the message test (test/unit/messages.test.ts) holds them to docs/messages.md.
import type { WorkflowVersionResult } from "../../server/src/protocol";

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Why a result has no WorkflowVersion, as a sentence. */
export function whyNot(result: WorkflowVersionResult | null): string {
  if (result === null) return "This is not an LWIR document.";
  if (result.tooLarge) return "This LWIR document is larger than lwir.maxFileSize, so it is not analysed.";
  return `This LWIR document has ${plural(result.problems, "problem")}. It gets a WorkflowVersion once it has none.`;
}

export interface StatusText {
  /** The status bar label (with its codicon): a label, no full stop. */
  text: string;
  /** Lines of sentences (and the id and hash of a valid document). */
  tooltip: string;
}

/** The status bar item for a result; `editorListsSyntaxErrors`: VS Code's JSON support lists them, not us. */
export function statusText(result: WorkflowVersionResult, editorListsSyntaxErrors: boolean): StatusText {
  if (result.valid && result.id !== null) {
    return { text: `$(pass) ${result.id}`, tooltip: `LWIR: valid\nWorkflowVersion ${result.id}\n${result.hash ?? ""}\nClick to copy the id.` };
  }
  if (result.empty) {
    return { text: "$(info) LWIR: empty", tooltip: "An empty LWIR document. Ctrl+Space offers \"New workflow\", a workflow that validates as written." };
  }
  if (result.tooLarge) return { text: "$(warning) LWIR: not analysed", tooltip: whyNot(result) };
  if (editorListsSyntaxErrors && (result.syntaxErrors ?? 0) > 0) {
    return {
      text: "$(error) LWIR: not valid JSON",
      tooltip: "This LWIR document is not valid JSON: VS Code's JSON support lists the syntax errors in the Problems panel. It gets a WorkflowVersion once it is valid.\nClick to open the Problems panel.",
    };
  }
  return { text: `$(error) LWIR: ${plural(result.problems, "problem")}`, tooltip: `${whyNot(result)}\nClick to open the Problems panel.` };
}
