// What the client can do, read once from its `initialize` capabilities; the other parts of the server
// decide from it how to deliver diagnostics, read settings and shape completion lists.
import type { ClientCapabilities } from "vscode-languageserver";
import { completionWireOf, FULL_ITEMS, type CompletionWire } from "../service/completionList";

export interface ClientSupport {
  /** The client pulls diagnostics (`textDocument/diagnostic`), so none are pushed. */
  pullDiagnostics: boolean;
  /** The client answers `workspace/configuration`. */
  configurationRequests: boolean;
  /** The client lets us register for `workspace/didChangeConfiguration`. */
  dynamicConfigurationRegistration: boolean;
  /** Pushed diagnostics may carry related information. */
  relatedInformation: boolean;
  /** The client shows `codeDescription` (a link to the rule's page): only then is it sent. */
  codeDescription: boolean;
  /** The client re-pulls diagnostics when asked (`workspace/diagnostic/refresh`). */
  diagnosticRefresh: boolean;
  /** How completion lists are sent (service/completionList.ts). */
  completionWire: CompletionWire;
  /** The client pulls workspace diagnostics (`workspace/diagnostic`): files not open are reported that way, not pushed. */
  workspaceDiagnostics: boolean;
  /** The client lets us register file watchers (`workspace/didChangeWatchedFiles`). */
  watchedFilesRegistration: boolean;
  /** The client shows server-initiated work-done progress (`window/workDoneProgress/create`). */
  workDoneProgress: boolean;
  /** The client tells us when workspace folders are added or removed. */
  workspaceFolderChanges: boolean;
  /** The client asks for code lenses again when told (`workspace/codeLens/refresh`). */
  codeLensRefresh: boolean;
  /** The client applies snippet edits in workspace edits (LSP 3.18): fixes that leave a choice open send tab stops. */
  snippetEdits: boolean;
}

/** Before `initialize`: what every client can take. */
export const BEFORE_INITIALIZE: ClientSupport = {
  pullDiagnostics: false,
  configurationRequests: false,
  dynamicConfigurationRegistration: false,
  relatedInformation: true,
  codeDescription: false,
  diagnosticRefresh: false,
  completionWire: FULL_ITEMS,
  workspaceDiagnostics: false,
  watchedFilesRegistration: false,
  workDoneProgress: false,
  workspaceFolderChanges: false,
  snippetEdits: false,
  codeLensRefresh: false,
};

export function readClientSupport(capabilities: ClientCapabilities): ClientSupport {
  const pullDiagnostics = capabilities.textDocument?.diagnostic !== undefined;
  // Pulled diagnostics have their own capability since LSP 3.18; a 3.17 client declares it for pushed ones only.
  const pushLinks = capabilities.textDocument?.publishDiagnostics?.codeDescriptionSupport;
  const pullLinks = capabilities.textDocument?.diagnostic?.codeDescriptionSupport;
  return {
    pullDiagnostics,
    configurationRequests: capabilities.workspace?.configuration === true,
    dynamicConfigurationRegistration: capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true,
    relatedInformation: capabilities.textDocument?.publishDiagnostics?.relatedInformation !== false,
    codeDescription: (pullDiagnostics ? pullLinks ?? pushLinks : pushLinks) === true,
    diagnosticRefresh: capabilities.workspace?.diagnostics?.refreshSupport === true,
    completionWire: completionWireOf(capabilities),
    // A pulling client that declares `workspace.diagnostics` (VS Code) pulls workspace reports too when offered.
    workspaceDiagnostics: pullDiagnostics && capabilities.workspace?.diagnostics !== undefined,
    watchedFilesRegistration: capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    workDoneProgress: capabilities.window?.workDoneProgress === true,
    workspaceFolderChanges: capabilities.workspace?.workspaceFolders === true,
    codeLensRefresh: capabilities.workspace?.codeLens?.refreshSupport === true,
    snippetEdits: (capabilities.workspace?.workspaceEdit as { snippetEditSupport?: boolean } | undefined)?.snippetEditSupport === true,
  };
}
