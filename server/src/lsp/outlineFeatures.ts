// Outline, folding, selection, semantic tokens and WorkflowVersion (code lens and the lwir/workflowVersion
// request) over LSP: service/symbols.ts, folding.ts, selection.ts, semanticTokens.ts, codeLens.ts. Each
// answers only for LWIR documents (null for others, whose answers are left to other extensions); folding
// reads the text alone, so it does not wait for a parse and survives syntax errors.
import {
  CodeLensRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  SelectionRangeRequest,
  SemanticTokensRequest,
  type CancellationToken,
  type CodeLens,
  type ServerCapabilities,
} from "vscode-languageserver";
import type { Analysis } from "../service/analysis";
import { WORKFLOW_VERSION_REQUEST, type WorkflowVersionResult } from "../protocol";
import { provideCodeLenses, shownProblemCount, tooLargeInfo, workflowVersionInfo } from "../service/codeLens";
import { applyRuleLevels, toDiagnostics } from "../service/diagnostics";
import { provideFoldingRanges } from "../service/folding";
import { provideSelectionRanges } from "../service/selection";
import { provideSemanticTokens, SEMANTIC_TOKENS_LEGEND } from "../service/semanticTokens";
import { provideDocumentSymbols } from "../service/symbols";
import { isPosition, isRecord } from "./requestGuards";
import { lwirAnalysis, type ServerParts } from "./serverParts";

export const OUTLINE_CAPABILITIES: ServerCapabilities = {
  documentSymbolProvider: { label: "LWIR" },
  foldingRangeProvider: true,
  selectionRangeProvider: true,
  semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true, range: false },
  codeLensProvider: { resolveProvider: false },
};

/** Lenses of other features (lsp/dryRunFeatures.ts: "Preview prompt"), after the WorkflowVersion and graph lenses. */
export type MoreLenses = (analysis: Analysis, uri: string) => CodeLens[];

export function registerOutlineFeatures({ connection, documents, workspace, session, settings }: ServerParts, moreLenses?: MoreLenses): ServerCapabilities {
  connection.onRequest(DocumentSymbolRequest.type, session.documentRequest("documentSymbol", (params) => {
    const analysis = lwirAnalysis(workspace, params.textDocument.uri);
    return analysis ? provideDocumentSymbols(analysis) : null;
  }));

  connection.onRequest(FoldingRangeRequest.type, session.documentRequest("foldingRange", (params) => {
    const uri = params.textDocument.uri;
    const state = workspace.getState(uri);
    if (state?.kind !== "lwir") return null;
    return provideFoldingRanges(documents.get(uri)!.getText(), state.format);
  }));

  connection.onRequest(SelectionRangeRequest.type, session.documentRequest("selectionRange", (params) => {
    const analysis = lwirAnalysis(workspace, params.textDocument.uri);
    return analysis ? provideSelectionRanges(analysis.document, params.positions) : null;
  }, (params) => (Array.isArray(params.positions) && params.positions.every(isPosition) ? undefined : "params.positions [{line, character}]")));

  connection.onRequest(SemanticTokensRequest.type, session.documentRequest("semanticTokens", (params) => {
    const analysis = lwirAnalysis(workspace, params.textDocument.uri);
    return analysis ? provideSemanticTokens(analysis) : null;
  }));

  connection.onRequest(CodeLensRequest.type, session.documentRequest("codeLens", (params) => {
    const uri = params.textDocument.uri;
    const analysis = lwirAnalysis(workspace, uri);
    if (!analysis) return null;
    // the problems as the editor lists them (the diagnostics at the configured levels): errors and warnings
    const shown = analysis.valid ? undefined : shownProblemCount(applyRuleLevels(toDiagnostics(analysis, { uri }), settings.current.lint.rules));
    const lenses = provideCodeLenses(analysis, uri, shown);
    return moreLenses && lenses.length > 0 ? [...lenses, ...moreLenses(analysis, uri)] : lenses;
  }));

  // lwir/workflowVersion: {uri, canonicalJson?} (or {textDocument: {uri}}) → WorkflowVersionResult, or null
  // when the document is not an open LWIR one.
  const workflowVersion = session.documentRequest("workflowVersion", (params: { textDocument: { uri: string }; canonicalJson: boolean }): WorkflowVersionResult | null => {
    const uri = params.textDocument.uri;
    const state = workspace.getState(uri);
    const version = documents.get(uri)?.version;
    const withVersion = (r: WorkflowVersionResult): WorkflowVersionResult => (version === undefined ? r : { ...r, version });
    if (state?.kind === "tooLarge") return withVersion(tooLargeInfo(uri));
    const analysis = lwirAnalysis(workspace, uri);
    return analysis ? withVersion(workflowVersionInfo(analysis, uri, params.canonicalJson)) : null;
  });
  connection.onRequest(WORKFLOW_VERSION_REQUEST, (params: unknown, token: CancellationToken) => {
    const p = isRecord(params) ? params : {};
    const uri = typeof p.uri === "string" ? p.uri : isRecord(p.textDocument) ? p.textDocument.uri : undefined;
    return workflowVersion({ textDocument: { uri: uri as string }, canonicalJson: p.canonicalJson === true }, token);
  });

  return OUTLINE_CAPABILITIES;
}
