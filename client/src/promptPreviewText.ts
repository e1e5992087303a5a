// The text of a "Preview prompt" document (promptPreview.ts draws it; the server's `lwir/previewPrompt`
// answer is the content), and its URI's parts, apart from the `vscode` API so that unit tests read them.
// Layout: a few lines saying which step and scenario, then the system prompt and the user message under
// their own rule lines, each byte for byte; the user message runs to the end of the document.
import type { PromptPreview } from "../../server/src/protocol";

export const SYSTEM_RULE = "──────── system prompt ────────";
export const NO_SYSTEM_RULE = "──────── system prompt: none ────────";
export const USER_RULE = "──────── user message ────────";

/** The read-only documents' scheme: `lwir-prompt:/STEP.prompt.txt?SOURCE-URI`. */
export const PROMPT_SCHEME = "lwir-prompt";

/** The path of a step's preview document (its tab's title is the step path). */
export function promptPath(stepPath: string): string {
  return `/${stepPath}.prompt.txt`;
}

/** The step path of a preview document's path, or undefined when it is not one. */
export function stepPathOf(path: string): string | undefined {
  const m = /^\/(.+)\.prompt\.txt$/s.exec(path);
  return m ? m[1] : undefined;
}

/** The file name of a URI's last segment (for the heading). */
function nameOf(uri: string): string {
  const bare = uri.replace(/[?#].*$/s, "");
  const last = bare.slice(bare.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The document's text for the server's answer (null: the source is not an open LWIR document). */
export function promptDocumentText(answer: PromptPreview | null, source: string, stepPath: string): string {
  const file = nameOf(source);
  if (answer === null) return `No prompt for step ${stepPath}: ${file} is not an open LWIR document (or it is larger than lwir.maxFileSize).\n`;
  const head = [`Prompt of step ${answer.step}${answer.model !== undefined ? ` (model ${answer.model})` : ""} in ${file}`, `Scenario: ${answer.scenario}`];
  if (answer.run !== undefined && (answer.runs ?? 1) > 1) head.push(`The step runs ${answer.runs} times in this scenario; this is its first run, ${answer.run}.`);
  for (const note of answer.notes ?? []) head.push(`Note: ${note}`);
  if (answer.error || answer.user === undefined) {
    const e = answer.error ?? { message: "The server sent no prompt.", reached: false };
    const lines = [...head, "", e.reached ? `No prompt: the dry run stops at this step. ${e.message}` : `No prompt. ${e.message}`];
    if (e.stepPath !== undefined) lines.push(`  step:       ${e.stepPath}${e.at !== undefined ? ` (${e.at})` : ""}`);
    if (e.expression !== undefined) lines.push(`  expression: ${e.expression}`);
    if (e.runtime !== undefined) lines.push(`  the runtime says: ${e.runtime}`);
    return lines.join("\n") + "\n";
  }
  head.push("Read-only, updated as the workflow changes. What the model receives follows under the rules, byte for byte.", "");
  const system = answer.system ?? "";
  const parts = system === "" ? [NO_SYSTEM_RULE] : [SYSTEM_RULE, system];
  return [...head, ...parts, USER_RULE, answer.user].join("\n");
}
