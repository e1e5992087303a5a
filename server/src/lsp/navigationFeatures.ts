// Hover, definition, references, highlights and rename over LSP: service/hover.ts, definition.ts and
// rename.ts over the index of service/references.ts. Each answers only for open LWIR documents of normal
// size (null for others). A rename that cannot be done safely is refused with RequestFailed and a
// message the editor shows.
import {
  DefinitionRequest,
  DocumentHighlightRequest,
  HoverRequest,
  LSPErrorCodes,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  ResponseError,
  type DefinitionParams,
  type DocumentHighlightParams,
  type HoverParams,
  type PrepareRenameParams,
  type ReferenceParams,
  type RenameParams,
  type ServerCapabilities,
  MarkupContent,
  MarkupKind,
  type Hover,
  type Position,
  type Range,
} from "vscode-languageserver";
import type { Analysis } from "../service/analysis";
import { provideDefinition, provideDocumentHighlights, provideReferences } from "../service/definition";
import { provideHover } from "../service/hover";
import { providePrepareRename, provideRename } from "../service/rename";
import { needsPosition } from "./requestGuards";
import { lwirAnalysis, type ServerParts } from "./serverParts";

export const NAVIGATION_CAPABILITIES: ServerCapabilities = {
  hoverProvider: true,
  definitionProvider: true,
  referencesProvider: true,
  documentHighlightProvider: true,
  renameProvider: { prepareProvider: true },
};

/** What another feature adds below the hover (lsp/dryRunFeatures.ts: an expression's value in the dry run). */
export type MoreHover = (uri: string, analysis: Analysis, position: Position) => Promise<{ markdown: string; range: Range } | undefined>;

export function registerNavigationFeatures({ connection, workspace, session }: ServerParts, moreHover?: MoreHover): ServerCapabilities {
  connection.onRequest(HoverRequest.type, session.documentRequest("hover", async (params: HoverParams): Promise<Hover | null> => {
    const uri = params.textDocument.uri;
    const analysis = lwirAnalysis(workspace, uri);
    if (!analysis) return null;
    const hover = provideHover(analysis, params.position);
    const more = moreHover ? await moreHover(uri, analysis, params.position) : undefined;
    if (!more) return hover;
    if (!hover) return { contents: { kind: MarkupKind.Markdown, value: more.markdown }, range: more.range };
    const value = MarkupContent.is(hover.contents) ? hover.contents.value : "";
    return { ...hover, contents: { kind: MarkupKind.Markdown, value: value === "" ? more.markdown : `${value}\n\n---\n\n${more.markdown}` } };
  }, needsPosition));

  connection.onRequest(DefinitionRequest.type, session.documentRequest("definition", (params: DefinitionParams) => {
    const uri = params.textDocument.uri;
    const analysis = lwirAnalysis(workspace, uri);
    return analysis ? provideDefinition(analysis, params.position, uri) : null;
  }, needsPosition));

  connection.onRequest(ReferencesRequest.type, session.documentRequest("references", (params: ReferenceParams) => {
    const uri = params.textDocument.uri;
    const analysis = lwirAnalysis(workspace, uri);
    return analysis ? provideReferences(analysis, params.position, uri, params.context?.includeDeclaration === true) : null;
  }, needsPosition));

  connection.onRequest(DocumentHighlightRequest.type, session.documentRequest("documentHighlight", (params: DocumentHighlightParams) => {
    const analysis = lwirAnalysis(workspace, params.textDocument.uri);
    return analysis ? provideDocumentHighlights(analysis, params.position) : null;
  }, needsPosition));

  connection.onRequest(PrepareRenameRequest.type, session.documentRequest("prepareRename", (params: PrepareRenameParams) => {
    const analysis = lwirAnalysis(workspace, params.textDocument.uri);
    if (!analysis) return null;
    const result = providePrepareRename(analysis, params.position);
    if ("refused" in result) throw new ResponseError(LSPErrorCodes.RequestFailed, result.refused);
    return result;
  }, needsPosition));

  connection.onRequest(RenameRequest.type, session.documentRequest("rename", (params: RenameParams) => {
    const uri = params.textDocument.uri;
    const analysis = lwirAnalysis(workspace, uri);
    if (!analysis) return null;
    const result = provideRename(analysis, params.position, params.newName, uri);
    if ("refused" in result) throw new ResponseError(LSPErrorCodes.RequestFailed, result.refused);
    return result.edit;
  }, (params) => needsPosition(params) ?? (typeof params.newName === "string" ? undefined : "params.newName (a string)")));

  return NAVIGATION_CAPABILITIES;
}
