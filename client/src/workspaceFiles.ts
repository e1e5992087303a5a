// The workspace scan without a disk (vscode.dev, virtual workspaces): the server asks, the extension finds
// files with `vscode.workspace.findFiles` (which honours `files.exclude`) and reads them with
// `vscode.workspace.fs`, decoded as strict UTF-8. The server applies the rest: node_modules/.git and
// `lwir.files.exclude`, and a text holding NUL characters is a binary file (server/src/lsp/clientFileSource.ts).
import * as vscode from "vscode";
import type { BaseLanguageClient } from "vscode-languageclient";
import { decodeSource } from "../../server/src/document/decode";
import { FIND_FILES_REQUEST, READ_FILE_REQUEST, type FileContent, type FindFilesParams, type ReadFileParams } from "../../server/src/protocol";

/** Answers the server's lwir/findFiles and lwir/readFile; call before `client.start()`. */
export function serveWorkspaceFiles(client: BaseLanguageClient): vscode.Disposable[] {
  return [
    client.onRequest(FIND_FILES_REQUEST, (params: FindFilesParams, token) => findFiles(client, params, token)),
    client.onRequest(READ_FILE_REQUEST, (params: ReadFileParams) => readFile(client, params)),
  ];
}

async function findFiles(client: BaseLanguageClient, params: FindFilesParams, token: vscode.CancellationToken): Promise<string[]> {
  const folder = client.protocol2CodeConverter.asUri(params.folderUri);
  const globs = params.include.filter((g) => typeof g === "string" && g.trim() !== "");
  if (globs.length === 0) return [];
  const pattern = new vscode.RelativePattern(folder, globs.length === 1 ? globs[0] : `{${globs.join(",")}}`);
  // undefined exclude: the editor's files.exclude applies.
  const found = await vscode.workspace.findFiles(pattern, undefined, Math.max(0, params.maxResults), token);
  return found.map((uri) => client.code2ProtocolConverter.asUri(uri));
}

async function readFile(client: BaseLanguageClient, params: ReadFileParams): Promise<FileContent> {
  const uri = client.protocol2CodeConverter.asUri(params.uri);
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if ((stat.type & vscode.FileType.File) === 0) return { kind: "unreadable", reason: stat.type & vscode.FileType.Directory ? "is a folder" : "not a regular file" };
    if (stat.size > params.maxSize) return { kind: "tooLarge", size: stat.size };
    const bytes = await vscode.workspace.fs.readFile(uri);
    // As the server reads files from disk: binary files skipped, other bytes read as the runtime reads them
    // (every BOM kept, bytes that are not UTF-8 as U+FFFD, listed for the server's warnings).
    const decoded = decodeSource(bytes, "skip");
    if (!decoded.ok) return { kind: "unreadable", reason: decoded.reason };
    return decoded.invalidUtf8.length > 0 ? { kind: "text", text: decoded.text, invalidUtf8: decoded.invalidUtf8 } : { kind: "text", text: decoded.text };
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === "FileNotFound") return { kind: "missing" };
    return { kind: "unreadable", reason: error instanceof Error ? error.message : String(error) };
  }
}
