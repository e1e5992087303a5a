// One report per JSON syntax error in VS Code. VS Code's own JSON support (the built-in extension
// `vscode.json-language-features`, with `json.validate.enable`) already reports the syntax errors of every
// json/jsonc document; ours (code `parse`) said the same a second time. The client leaves ours out for
// such documents only; YAML documents, other editors and the CLI keep them. Plain functions (no `vscode`
// import), so that test/unit can run them; clientOptions.ts wires them into the language client.
import { DIAGNOSTIC_SOURCE, PARSE_CODE } from "../../server/src/protocol";

/** VS Code's JSON language features: a disabled extension is not returned by `extensions.getExtension`. */
export const BUILT_IN_JSON_EXTENSION = "vscode.json-language-features";
export const JSON_LANGUAGES: ReadonlySet<string> = new Set(["json", "jsonc"]);

/** The part of a diagnostic this looks at (vscode.Diagnostic and LSP's Diagnostic both have it). */
export interface DiagnosticLike {
  source?: string;
  code?: string | number | { value: string | number } | null;
}

/** Whether VS Code's JSON support reports the syntax errors of a document with this language id. */
export function editorReportsJsonSyntax(languageId: string | undefined, builtInJsonEnabled: boolean, validateEnabled: boolean): boolean {
  return languageId !== undefined && JSON_LANGUAGES.has(languageId) && builtInJsonEnabled && validateEnabled;
}

/** Our syntax errors: source `lwir`, code `parse` (a plain code, or `{value, target}` with a rule link). */
export function isOwnSyntaxError(d: DiagnosticLike): boolean {
  const code = typeof d.code === "object" && d.code !== null ? d.code.value : d.code;
  return d.source === DIAGNOSTIC_SOURCE && code === PARSE_CODE;
}

/** The diagnostics to show: without our syntax errors when the editor reports them itself. */
export function withoutDuplicateSyntaxErrors<D extends DiagnosticLike>(diagnostics: D[], editorReports: boolean): D[] {
  return editorReports && diagnostics.some(isOwnSyntaxError) ? diagnostics.filter((d) => !isOwnSyntaxError(d)) : diagnostics;
}
