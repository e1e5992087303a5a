// The workspace's files through the client (the browser build, and folders the Node server cannot reach:
// virtual workspaces): the extension finds them with `vscode.workspace.findFiles` and reads them with
// `vscode.workspace.fs` (client/src/workspaceFiles.ts), answering the requests of protocol.ts.
import type { Connection } from "vscode-languageserver";
import { FIND_FILES_REQUEST, READ_FILE_REQUEST, type FileContent, type FindFilesParams, type ReadFileParams } from "../protocol";
import { LWIR_FILE_GLOB, relativePathIn, type FileFilter, type WorkspaceFileSource } from "../workspace/files";

export class ClientFileSource implements WorkspaceFileSource {
  constructor(private readonly connection: Connection, private readonly include: () => readonly string[]) {}

  handles(): boolean {
    return true;
  }

  async list(folderUri: string, filter: FileFilter, limit: number, stopped: () => boolean): Promise<string[]> {
    const params: FindFilesParams = { folderUri, include: [LWIR_FILE_GLOB, ...this.include()], maxResults: limit };
    let uris: unknown;
    try {
      uris = await this.connection.sendRequest(FIND_FILES_REQUEST, params);
    } catch {
      return [];
    }
    if (!Array.isArray(uris) || stopped()) return [];
    // The client applied the editor's `files.exclude`; ours (and node_modules, .git) are applied here.
    const out: string[] = [];
    for (const uri of uris) {
      if (typeof uri !== "string") continue;
      const relative = relativePathIn(folderUri, uri);
      if (relative !== undefined && filter.takesPath(relative)) out.push(uri);
      if (out.length >= limit) break;
    }
    return out.sort();
  }

  async read(uri: string, maxSize: number): Promise<FileContent> {
    const params: ReadFileParams = { uri, maxSize };
    try {
      const content = await this.connection.sendRequest<FileContent>(READ_FILE_REQUEST, params);
      if (!isFileContent(content)) return { kind: "unreadable", reason: "the editor gave no content" };
      // The client decodes as document/decode.ts does; NUL characters mean binary, as for files read from disk.
      if (content.kind === "text" && content.text.includes("\0")) return { kind: "unreadable", reason: "binary file" };
      if (content.kind === "text" && !isInvalidUtf8List(content.invalidUtf8, content.text.length)) return { kind: "text", text: content.text };
      return content;
    } catch (error) {
      return { kind: "unreadable", reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

function isFileContent(v: unknown): v is FileContent {
  if (typeof v !== "object" || v === null) return false;
  const c = v as Record<string, unknown>;
  switch (c.kind) {
    case "text": return typeof c.text === "string";
    case "tooLarge": return typeof c.size === "number";
    case "unreadable": return typeof c.reason === "string";
    case "missing": return true;
    default: return false;
  }
}

/** The client's list of replaced bytes, when it is one (absent is fine: none). */
function isInvalidUtf8List(v: unknown, length: number): boolean {
  if (v === undefined) return true;
  return Array.isArray(v) && v.every((i: unknown) => {
    const e = i as { offset?: unknown; bytes?: unknown } | null;
    return typeof e === "object" && e !== null && Number.isInteger(e.offset) && (e.offset as number) >= 0 && (e.offset as number) < length &&
      Array.isArray(e.bytes) && e.bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255);
  });
}
