// Signature help for expression functions (service/signatureHelp.ts) over LSP.
import { SignatureHelpRequest, type ServerCapabilities, type SignatureHelpParams } from "vscode-languageserver";
import { SIGNATURE_RETRIGGER_CHARACTERS, SIGNATURE_TRIGGER_CHARACTERS, provideSignatureHelp } from "../service/signatureHelp";
import { needsPosition } from "./requestGuards";
import type { ServerParts } from "./serverParts";

/** Registers the handler; returns the capability to announce. */
export function registerSignatureHelp({ connection, documents, workspace, session }: ServerParts): ServerCapabilities {
  connection.onRequest(SignatureHelpRequest.type, session.documentRequest("signatureHelp", (params: SignatureHelpParams) => {
    const uri = params.textDocument.uri;
    const state = workspace.getState(uri);
    if (state?.kind !== "lwir") return null; // not LWIR (or too large): leave the answer to other extensions
    const document = documents.get(uri);
    if (!document) return null;
    // from the text as it is now: a call being typed is rarely a valid template yet
    return provideSignatureHelp(document.getText(), document.offsetAt(params.position), state.format);
  }, needsPosition));
  return { signatureHelpProvider: { triggerCharacters: SIGNATURE_TRIGGER_CHARACTERS, retriggerCharacters: SIGNATURE_RETRIGGER_CHARACTERS } };
}
