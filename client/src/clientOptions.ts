// What the Node and browser extensions share: which documents the server sees, and the client options.
import type { LanguageClientOptions, Middleware } from "vscode-languageclient";
import * as vscode from "vscode";
import { SETTINGS_SECTION } from "../../server/src/protocol";
import { RULE_PAGES_BASE, ruleLinksInHovers } from "./rulePages";
import { BUILT_IN_JSON_EXTENSION, editorReportsJsonSyntax, withoutDuplicateSyntaxErrors } from "./jsonSyntaxErrors";
import { withoutWordSuggestions } from "./wordSuggestions";
import { editorOutlinesJson } from "./jsonOutline";

export const CLIENT_ID = "lwir";
export const CLIENT_NAME = "LWIR Language Server";

/**
 * LWIR files keep VS Code's own JSON and YAML language ids (and so every built-in and third-party
 * JSON/YAML feature). The server is given every JSON and YAML document and answers only for LWIR ones:
 * `*.lwir.json|yaml|yml`, or a top-level `apiVersion` starting with `littleworkflow.dev/`. Scenarios files
 * (`*.lwir.test.json|yaml|yml`) are JSON/YAML documents too: the server checks them as scenarios, never as
 * workflows (server/src/lsp/scenarioFiles.ts).
 */
export function clientOptions(outputChannel: vscode.LogOutputChannel, middleware?: Middleware): LanguageClientOptions {
  return {
    documentSelector: [{ language: "json" }, { language: "jsonc" }, { language: "yaml" }],
    outputChannel,
    // files.exclude too: the workspace scan honours it.
    synchronize: { configurationSection: [SETTINGS_SECTION, "files.exclude"] },
    initializationOptions: {
      // Plain data: a WorkspaceConfiguration carries functions, which a web worker's postMessage cannot clone.
      settings: JSON.parse(JSON.stringify(vscode.workspace.getConfiguration(SETTINGS_SECTION))) as unknown,
      // The workspace scan honours the editor's exclusions too (the server asks again when settings change).
      filesExclude: JSON.parse(JSON.stringify(vscode.workspace.getConfiguration("files").get("exclude") ?? {})) as unknown,
      // This client answers lwir/findFiles and lwir/readFile (workspaceFiles.ts), for folders the server cannot read.
      workspaceFiles: true,
      // Diagnostics link their code to the rule page shipped in the extension, shown in the Markdown preview (rulePages.ts).
      ruleDocsBase: RULE_PAGES_BASE,
    },
    middleware: { ...withQuietTyping(middleware), ...ruleLinksInHovers, provideCompletionItem: completionWithoutWordSuggestions, provideDocumentSymbols: oneOutline },
  };
}

/**
 * Whether VS Code's own JSON support reports this document's syntax errors (jsonSyntaxErrors.ts): a
 * json/jsonc document, the built-in JSON extension enabled and its validation on. Read at each report,
 * so changing `json.validate.enable` applies from the next one.
 */
export function vsCodeReportsJsonSyntax(uri: vscode.Uri, languageId?: string): boolean {
  const id = languageId ?? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.languageId;
  return editorReportsJsonSyntax(
    id,
    vscode.extensions.getExtension(BUILT_IN_JSON_EXTENSION) !== undefined,
    vscode.workspace.getConfiguration("json", uri).get<boolean>("validate.enable", true),
  );
}

/**
 * Quiet typing (quietTypingClient.ts), when given, wraps the syntax-error filter: it sees the report with
 * VS Code's duplicates already left out, and while it answers from its kept report nothing goes further.
 * The rest of the given middleware (the indicators' code lens rewrite) is kept as is.
 */
function withQuietTyping(quiet: Middleware | undefined): Middleware {
  if (!quiet?.provideDiagnostics) return { ...quiet, ...syntaxErrorMiddleware };
  const outer = quiet.provideDiagnostics;
  const inner = syntaxErrorMiddleware.provideDiagnostics!;
  return {
    ...quiet,
    ...syntaxErrorMiddleware,
    provideDiagnostics: (document, previousResultId, token, next) =>
      outer(document, previousResultId, token, (d, p, t) => inner(d, p, t, next)),
  };
}

/**
 * VS Code's word-based suggestions stay out of LWIR documents (wordSuggestions.ts): an empty answer of
 * the server carries an item without a label, which VS Code counts as an answer and never shows.
 */
const completionWithoutWordSuggestions: NonNullable<Middleware["provideCompletionItem"]> = async (document, position, context, token, next) =>
  withoutWordSuggestions(await next(document, position, context, token), () => {
    const hidden = new vscode.CompletionItem("");
    hidden.insertText = "";
    return hidden;
  });

/** One outline per document (jsonOutline.ts): none of ours where VS Code's JSON support gives one. */
const oneOutline: NonNullable<Middleware["provideDocumentSymbols"]> = (document, token, next) =>
  editorOutlinesJson(document.languageId, vscode.extensions.getExtension(BUILT_IN_JSON_EXTENSION) !== undefined) ? undefined : next(document, token);

/** Leaves our syntax errors out where VS Code reports them, whether the server pushes diagnostics or the client pulls them. */
const syntaxErrorMiddleware: Middleware = {
  handleDiagnostics(uri, diagnostics, next) {
    next(uri, withoutDuplicateSyntaxErrors(diagnostics, vsCodeReportsJsonSyntax(uri)));
  },
  async provideDiagnostics(document, previousResultId, token, next) {
    const report = await next(document, previousResultId, token);
    if (!report || report.kind !== "full") return report;
    const uri = document instanceof vscode.Uri ? document : document.uri;
    const languageId = document instanceof vscode.Uri ? undefined : document.languageId;
    return { ...report, items: withoutDuplicateSyntaxErrors(report.items, vsCodeReportsJsonSyntax(uri, languageId)) };
  },
};
