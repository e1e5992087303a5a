// The graph view's request over LSP: `lwir/graph` {uri, mermaid?} → GraphResult (service/graph.ts), or
// null for a document that is not an open LWIR one of normal size. The layout is computed here, in the
// server's process (or web worker), never in the extension host; the client asks again after each
// edit (debounced), so no notification is needed: LSP delivers the edit before the request.
import type { CancellationToken } from "vscode-languageserver";
import { GRAPH_REQUEST, type GraphResult } from "../protocol";
import { GraphViews } from "../service/graph";
import { isRecord } from "./requestGuards";
import { lwirAnalysis, type ServerParts } from "./serverParts";

export function registerGraphFeatures({ connection, documents, workspace, session }: ServerParts): void {
  const views = new GraphViews();
  documents.onDidClose(session.notification("didClose (graph)", (event) => views.forget(event.document.uri)));

  const graph = session.documentRequest("graph", (params: { textDocument: { uri: string }; mermaid: boolean }): GraphResult | null => {
    const uri = params.textDocument.uri;
    const analysis = lwirAnalysis(workspace, uri);
    const document = documents.get(uri);
    return analysis && document ? views.answer(uri, document.version, analysis, { mermaid: params.mermaid }) : null;
  });
  connection.onRequest(GRAPH_REQUEST, (params: unknown, token: CancellationToken) => {
    const p = isRecord(params) ? params : {};
    const uri = typeof p.uri === "string" ? p.uri : isRecord(p.textDocument) ? p.textDocument.uri : undefined;
    return graph({ textDocument: { uri: uri as string }, mermaid: p.mermaid === true }, token);
  });
}
