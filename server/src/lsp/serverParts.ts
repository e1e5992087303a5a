// What the parts of the server (diagnostics, the features) are given by startServer (server.ts).
import type { Connection, TextDocuments } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Analysis } from "../service/analysis";
import type { LwirWorkspace } from "../service/workspace";
import type { ClientSupport } from "./clientSupport";
import type { Session } from "./requestGuards";
import type { SettingsSync } from "./settingsSync";

export interface ServerParts {
  connection: Connection;
  /** The open documents (lazyTextDocument.ts: the text after an edit is built when read). */
  documents: TextDocuments<TextDocument>;
  /** Their classification and cached analyses. */
  workspace: LwirWorkspace;
  settings: SettingsSync;
  session: Session;
  /** What the client can do; fixed by `initialize`. */
  client: () => ClientSupport;
}

/** The analysis of an open LWIR document of normal size; undefined for others, whose answers are left to other extensions. */
export function lwirAnalysis(workspace: LwirWorkspace, uri: string): Analysis | undefined {
  return workspace.getState(uri)?.kind === "lwir" ? workspace.getAnalysis(uri) : undefined;
}
