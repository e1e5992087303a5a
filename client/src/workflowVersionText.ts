// The words of the WorkflowVersion commands (workflowVersionUi.ts; the status bar and the lens are in
// indicators.ts), apart from the `vscode` API so that the message test (test/unit/messages.test.ts) holds
// them to docs/messages.md.
import type { WorkflowVersionResult } from "../../server/src/protocol";
import { plural } from "./indicators";

/** Why a result has no WorkflowVersion, as a sentence. */
export function whyNot(result: WorkflowVersionResult | null): string {
  if (result === null) return "This is not an LWIR document.";
  if (result.tooLarge) return "This LWIR document is larger than lwir.maxFileSize, so it is not analysed.";
  return `This LWIR document has ${plural(result.problems, "problem")}. It gets a WorkflowVersion once it has none.`;
}
