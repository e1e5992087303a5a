// One outline for a JSON LWIR document. VS Code's JSON support (the built-in extension
// `vscode.json-language-features`) gives every json/jsonc document an outline of its keys, and VS Code
// shows the outlines of two providers as two groups ("LWIR" and "JSON Language Features"), with a
// level more in the breadcrumbs. Neither can be chosen per file by the user, and VS Code's can only be
// turned off for every JSON file (`json.maxItemsComputed`), so the client leaves ours out where VS
// Code's JSON outline runs: the document's outline is then the one every JSON file has, its keys at
// every depth. YAML documents (VS Code has no YAML outline of its own) and other editors keep ours.
// Plain functions (no `vscode` import) so that test/unit can run them; clientOptions.ts wires them in.
import { JSON_LANGUAGES } from "./jsonSyntaxErrors";

/** Whether VS Code's JSON support gives a document with this language id its outline. */
export function editorOutlinesJson(languageId: string | undefined, builtInJsonEnabled: boolean): boolean {
  return languageId !== undefined && JSON_LANGUAGES.has(languageId) && builtInJsonEnabled;
}
