// Bytes → text, for files read from disk (the CLI, the language server's workspace scan, the browser
// extension reading through vscode.workspace.fs). Pure: no Node APIs.

export type Decoded = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Bytes → text. NUL bytes mean binary; invalid UTF-8 is refused rather than silently replaced. A UTF-8
 * BOM is kept: YAML allows it, JSON does not (the caller decides once the format is known).
 */
export function decodeSource(bytes: Uint8Array): Decoded {
  const utf16Bom = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (utf16Bom) return { ok: false, reason: "not UTF-8 text (it starts with a UTF-16 byte order mark; save it as UTF-8)" };
  if (bytes.includes(0)) return { ok: false, reason: "binary file" };
  let text: string;
  try {
    // ignoreBOM keeps a BOM in the output, whatever the decoder's default.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, reason: "not UTF-8 text" };
  }
  return { ok: true, text };
}
