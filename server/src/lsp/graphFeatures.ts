// The graph view's request over LSP: `lwir/graph` {uri, mermaid?, provisional?} → GraphResult (service/graph.ts), or
// null for a document that is not an open LWIR one of normal size. The layout is computed here, in the
// server's process (or web worker), never in the extension host; the client asks again after each
// edit (debounced), so no notification is needed: LSP delivers the edit before the request. The layout
// itself is awaited from the server's Layouter (a worker thread in Node: graph/workerLayouter.ts), so
// other requests are answered while it is computed; the answer is made from the document's newest version.
// Also `lwir/graphEdit`: a graph action as a WorkspaceEdit of the document (service/graphEdits.ts).
import { LSPErrorCodes, ResponseError, type CancellationToken } from "vscode-languageserver";
import type { WorkspaceEdit } from "vscode-languageserver-types";
import { GRAPH_EDIT_REQUEST, GRAPH_REQUEST, type GraphEditParams, type GraphResult } from "../protocol";
import { graphEditWorkspaceEdit } from "../service/graphEdits";
import type { Layouter } from "../graph/layouter";
import { GraphViews } from "../service/graph";
import { isRecord } from "./requestGuards";
import { lwirAnalysis, type ServerParts } from "./serverParts";

export function registerGraphFeatures({ connection, documents, workspace, session }: ServerParts, layouter?: Layouter): void {
  const views = new GraphViews(layouter);
  documents.onDidClose(session.notification("didClose (graph)", (event) => views.forget(event.document.uri)));

  const graph = session.documentRequest("graph", async (params: { textDocument: { uri: string }; mermaid: boolean; provisional: boolean }, token): Promise<GraphResult | null> => {
    const uri = params.textDocument.uri;
    const latest = () => {
      const analysis = lwirAnalysis(workspace, uri);
      const document = documents.get(uri);
      return analysis && document ? { version: document.version, analysis } : undefined;
    };
    return (await views.answer(uri, latest, { mermaid: params.mermaid, provisional: params.provisional, token })) ?? null;
  });
  connection.onRequest(GRAPH_REQUEST, (params: unknown, token: CancellationToken) => {
    const p = isRecord(params) ? params : {};
    const uri = typeof p.uri === "string" ? p.uri : isRecord(p.textDocument) ? p.textDocument.uri : undefined;
    return graph({ textDocument: { uri: uri as string }, mermaid: p.mermaid === true, provisional: p.provisional === true }, token);
  });

  // `lwir/graphEdit` {textDocument, action} → a WorkspaceEdit (service/graphEdits.ts); a refused action is
  // a RequestFailed error with the reason as its message and GraphEditRefusal as its data.
  connection.onRequest(GRAPH_EDIT_REQUEST, session.documentRequest("graphEdit", (params: GraphEditParams): WorkspaceEdit | null => {
    const uri = params.textDocument.uri;
    const analysis = lwirAnalysis(workspace, uri);
    if (!analysis) return null;
    const result = graphEditWorkspaceEdit(analysis, uri, params.action);
    if ("refused" in result) throw new ResponseError(LSPErrorCodes.RequestFailed, result.refused, result.data);
    return result.edit;
  }, (params) => (isRecord(params.action) && typeof params.action.kind === "string" ? undefined : "params.action (an object with a kind)")));
}
