// What the Node and browser extensions share: which documents the server sees, and the client options.
import type { LanguageClientOptions, Middleware } from "vscode-languageclient";
import * as vscode from "vscode";
import { SETTINGS_SECTION } from "../../server/src/protocol";

export const CLIENT_ID = "lwir";
export const CLIENT_NAME = "LWIR Language Server";

/**
 * LWIR files keep VS Code's own JSON and YAML language ids (and so every built-in and third-party
 * JSON/YAML feature). The server is given every JSON and YAML document and answers only for LWIR ones:
 * `*.lwir.json|yaml|yml`, or a top-level `apiVersion` starting with `littleworkflow.dev/`.
 */
export function clientOptions(outputChannel: vscode.LogOutputChannel, middleware?: Middleware): LanguageClientOptions {
  return {
    documentSelector: [{ language: "json" }, { language: "jsonc" }, { language: "yaml" }],
    outputChannel,
    synchronize: { configurationSection: SETTINGS_SECTION },
    // Plain data: a WorkspaceConfiguration carries functions, which a web worker's postMessage cannot clone.
    initializationOptions: { settings: JSON.parse(JSON.stringify(vscode.workspace.getConfiguration(SETTINGS_SECTION))) as unknown },
    // Quiet typing (quietTypingClient.ts): pulled diagnostics pass through it.
    ...(middleware ? { middleware } : {}),
  };
}
