// A file's text as the editor has it: the open document's (its unsaved edits win, also under a URI encoded
// differently), else the file read from where the workspace scan reads files (the disk in Node, the
// extension's lwir/readFile in the browser), so no Node API. Scenarios files, their workflows and the dry
// run's lookups all read this way.
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { TextDocuments } from "vscode-languageserver";
import type { WorkspaceFileSource } from "../workspace/files";

export type TextRead =
  | { ok: true; text: string; invalidUtf8?: Array<{ offset: number; bytes: number[] }> }
  | { ok: false; missing: boolean; reason: string };

/** Why nothing was read when no file source handles the URI (the reason of an unreadable read). */
export const NO_FILE_SOURCE = "the language server cannot read files here";

/** `limitName` names the limit in the too-large reason (a setting, when one sets it). */
export async function openOrRead(
  documents: TextDocuments<TextDocument>, sources: readonly WorkspaceFileSource[], uri: string, maxSize: number, limitName = "the limit",
): Promise<TextRead> {
  const open = documents.get(uri) ?? documents.all().find((d) => sameFile(d.uri, uri));
  if (open) return { ok: true, text: open.getText() };
  const source = sources.find((s) => s.handles(uri));
  if (!source) return { ok: false, missing: false, reason: NO_FILE_SOURCE };
  const content = await source.read(uri, maxSize);
  switch (content.kind) {
    case "text": return { ok: true, text: content.text, ...(content.invalidUtf8 ? { invalidUtf8: content.invalidUtf8 } : {}) };
    case "missing": return { ok: false, missing: true, reason: "not found" };
    case "tooLarge": return { ok: false, missing: false, reason: `too large (${content.size} bytes; ${limitName} is ${maxSize})` };
    case "unreadable": return { ok: false, missing: false, reason: content.reason };
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return decodeURIComponent(a) === decodeURIComponent(b);
  } catch {
    return false;
  }
}
