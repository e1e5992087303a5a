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
  };
}
